import CatalogModel
import Foundation

/// Content to publish: a fresh copy of the compiler's valid fixture tree
/// (`Tests/BundleCompilerTests/Fixtures/valid`), which the publisher's tests build into bundles.
enum Fixtures {
    static let valid = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BundleCompilerTests/Fixtures/valid")
    /// The day the fixture is built on, as in the compiler's tests.
    static let today = Day("2026-11-22")!

    /// A copy of the valid tree in a temporary folder, with `changes` applied.
    static func makeContent(_ changes: (URL) throws -> Void = { _ in }) throws -> URL {
        let content = FileManager.default.temporaryDirectory.appendingPathComponent("digno-publish-content-\(UUID().uuidString)")
            .appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: valid, to: content)
        try changes(content)
        return content
    }

    static func remove(_ content: URL) {
        try? FileManager.default.removeItem(at: content.deletingLastPathComponent())
    }
}
