import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// CatalogModelTests open bundles committed in `Tests/CatalogModelTests/Fixtures`, so that they
/// need no compiler; `scripts/build-test-fixtures.sh` builds them with `digno build`. Builds are
/// reproducible, so each must be, byte for byte, what the compiler builds now from its content
/// (the shipped one while `content/` is what it was built from).
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
        let committedPath = Self.committed.appendingPathComponent("\(name).sqlite").path
        let committed = try? Data(contentsOf: URL(fileURLWithPath: committedPath))
        if name == "shipped", let fixture = try? CatalogBundle(path: committedPath),
           try fixture.release.contentDigest != CatalogBundle(path: output).release.contentDigest {
            // Editors have changed content/ since the fixture was built. That must not fail the
            // tests of an editor's change; the small fixture, whose content only developers
            // change, still holds the compiler's output to the committed bytes.
            return
        }
        #expect(built == committed, """
            Tests/CatalogModelTests/Fixtures/\(name).sqlite is not what the compiler builds now from \(content); \
            run scripts/build-test-fixtures.sh and commit the bundles it writes
            """)
    }
}
