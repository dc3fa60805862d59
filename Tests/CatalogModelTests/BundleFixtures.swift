import BundleCompiler
import CatalogModel
import Foundation

/// Bundles built from the shipped content and from the compiler's valid fixture, once per test
/// process, in a temporary folder that is removed when the process exits.
enum BundleFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-model-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: BundleFixtures.folder) }
        return folder
    }()

    /// The bundle of `content/`.
    static let shipped: String = build(repository.appendingPathComponent("content").path, name: "shipped")
    /// The bundle of the compiler's small valid fixture.
    static let small: String = build(repository.appendingPathComponent("Tests/BundleCompilerTests/Fixtures/valid").path, name: "small")

    private static func build(_ content: String, name: String) -> String {
        let output = folder.appendingPathComponent("\(name)/catalog.sqlite").path
        let builder = BundleBuilder(contentFolder: content, output: output, today: Day("2026-11-22"))
        do {
            _ = try builder.write(try builder.validate())
        } catch {
            return "/nonexistent/\(name) (build failed: \(error))"
        }
        return output
    }

    /// A copy of `bundle` in a fresh file, changed by `change`.
    static func damagedCopy(of bundle: String, _ change: (inout Data) -> Void) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: bundle))
        change(&data)
        let path = folder.appendingPathComponent("damaged-\(UUID().uuidString).sqlite").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
