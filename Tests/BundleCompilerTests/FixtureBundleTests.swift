import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// CatalogModelTests open bundles committed in `Tests/CatalogModelTests/Fixtures`, so that they
/// need no compiler; `scripts/build-test-fixtures.sh` builds them with `digno build`. Builds are
/// reproducible, so each must be, byte for byte, what the compiler builds now from its content.
@Suite struct FixtureBundleTests {
    static let committed = BundleBuildTests.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures")

    @Test(arguments: [("shipped", "content"), ("small", "Tests/BundleCompilerTests/Fixtures/valid")])
    func theCommittedBundleIsWhatTheCompilerBuildsNow(name: String, content: String) throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        // As `digno build --content <content> --output <output>` builds, the script's command.
        // The day judges promotions for warnings only: no byte of the bundle depends on it.
        let builder = BundleBuilder(contentFolder: BundleBuildTests.repository.appendingPathComponent(content).path, output: output, today: Day.today())
        _ = try builder.write(try builder.validate())
        let built = try Data(contentsOf: URL(fileURLWithPath: output))
        let committed = try? Data(contentsOf: Self.committed.appendingPathComponent("\(name).sqlite"))
        #expect(built == committed, """
            Tests/CatalogModelTests/Fixtures/\(name).sqlite is not what the compiler builds now from \(content); \
            run scripts/build-test-fixtures.sh and commit the bundles it writes
            """)
    }
}
