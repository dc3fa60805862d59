import Foundation

/// The bundles CatalogModelTests commits in its `Fixtures/` (built by
/// `scripts/build-test-fixtures.sh`), read here in place for the rules run over a bundle. A test
/// that changes a bundle changes a copy.
enum BundleFixtures {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CatalogModelTests/Fixtures")

    /// The bundle of `content/`.
    static let shipped = fixtures.appendingPathComponent("shipped.sqlite").path
    /// The bundle of the compiler's small valid fixture.
    static let small = fixtures.appendingPathComponent("small.sqlite").path

    /// A copy of `bundle` in a fresh temporary file, for a test to change; the caller removes it.
    static func copy(of bundle: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-content-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: bundle, toPath: path)
        return path
    }
}
