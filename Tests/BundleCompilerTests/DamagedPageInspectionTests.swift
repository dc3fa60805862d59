import BundleCompiler
import Foundation
import Testing

/// Pages zeroed, swapped or with bits flipped, as a failing flash chip leaves them: `digno
/// inspect` reads every such copy, every check of it, without crashing, and finds every zeroed
/// page (every page of a compacted bundle holds data). CatalogModelTests'
/// `zeroedSwappedAndFlippedPagesNeverCrash` does the same damage to the library's reading.
@Suite struct DamagedPageInspectionTests {
    @Test func zeroedSwappedAndFlippedPagesNeverCrashTheInspection() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        try BundleBuildTests.build(Fixtures.valid.path, to: bundle)
        let original = try Data(contentsOf: URL(fileURLWithPath: bundle))
        var zeroedPages = 0
        try PageDamage.forEachCopy(of: original) { copy, surelyDamaged in
            // No manifest beside the copy: the inspection checks the file alone.
            let path = folder.appendingPathComponent("damaged-\(UUID().uuidString).sqlite").path
            try copy.write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let inspection = try? BundleInspection.inspect(path)
            if surelyDamaged {
                zeroedPages += 1
                #expect(inspection.map { !$0.isSound } ?? true, "\(inspection?.text ?? "")")
            }
        }
        #expect(zeroedPages > 0)
    }
}
