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
        // The page size the file's header states (bytes 16 and 17, big-endian).
        let pageSize = Int(original[original.startIndex + 16]) << 8 | Int(original[original.startIndex + 17])
        let pages = original.count / pageSize
        var random = SplitMix64(seed: 19)
        func attempt(surelyDamaged: Bool = false, _ change: (inout Data) -> Void) throws {
            var data = original
            change(&data)
            // No manifest beside the copy: the inspection checks the file alone.
            let path = folder.appendingPathComponent("damaged-\(UUID().uuidString).sqlite").path
            try data.write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            if let inspection = try? BundleInspection.inspect(path), surelyDamaged {
                #expect(!inspection.isSound, "\(inspection.text)")
            }
        }
        for page in 0..<pages {
            try attempt(surelyDamaged: true) { $0.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(count: pageSize)) }
        }
        for _ in 0..<40 {
            let a = Int(random.next() % UInt64(pages)), b = Int(random.next() % UInt64(pages))
            try attempt { data in
                let first = data.subdata(in: a * pageSize..<(a + 1) * pageSize), second = data.subdata(in: b * pageSize..<(b + 1) * pageSize)
                data.replaceSubrange(a * pageSize..<(a + 1) * pageSize, with: second)
                data.replaceSubrange(b * pageSize..<(b + 1) * pageSize, with: first)
            }
        }
        for _ in 0..<200 {
            let offset = 100 + Int(random.next() % UInt64(original.count - 100)), bit = UInt8(1) << (random.next() % 8)
            try attempt { $0[offset] ^= bit }
        }
    }
}
