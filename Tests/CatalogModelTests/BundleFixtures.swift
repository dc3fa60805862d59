import CatalogModel
import Foundation

/// The bundles these tests open, committed in `Fixtures/` and built by
/// `scripts/build-test-fixtures.sh` with `digno build`, so that CatalogModel is tested without
/// the compiler: `shipped.sqlite` from `content/`, `small.sqlite` from the compiler's valid
/// fixture. BundleCompilerTests' `FixtureBundleTests` fails when the compiler would build them
/// differently now. A test that changes a bundle changes a copy, in `folder`.
enum BundleFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// A temporary folder for copies, removed when the test process exits.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-model-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: BundleFixtures.folder) }
        return folder
    }()

    /// The bundle of `content/`.
    static let shipped = committed("shipped")
    /// The bundle of the compiler's small valid fixture.
    static let small = committed("small")
    /// The same, as the compiler wrote it in schema 2, before the languages (frozen: it is
    /// what an app reads from a channel that still serves schema 2).
    static let smallSchema2 = committed("small-schema2")
    /// The small fixture as the compiler wrote it before schema 4 (one rendition per picture).
    static let smallSchema3 = committed("small-schema3")

    /// A committed bundle's path, from the test target's resources; read only.
    private static func committed(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: "sqlite", subdirectory: "Fixtures")?.path
            ?? "/nonexistent/\(name).sqlite (not among the test resources; run scripts/build-test-fixtures.sh)"
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
