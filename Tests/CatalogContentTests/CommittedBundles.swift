import Foundation
import GRDB

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

    /// A copy of `bundle` in a fresh temporary file, changed by `sql` (run outside a
    /// transaction, so that it may set pragmas); the caller removes it.
    static func edited(_ bundle: String, _ sql: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-content-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: bundle, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
        return path
    }
}
