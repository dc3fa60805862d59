import CatalogModel
import CatalogStore
import Foundation
import Testing

/// The README's app example ("Shipping releases to the app"), run here: the lines between
/// `// readme: begin` and `// readme: end` must be the README's block, line for line, so the
/// README cannot show code that does not build. The channel is on a port where nothing listens:
/// the update fails, as offline, and the app shows the seed.
@Suite struct ReadmeExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    final class Shown: @unchecked Sendable {
        var bundles: [CatalogBundle] = []
    }

    func example(storeFolder: String, seedPath: String?, rootKeys: [String], rootPath: String?, channelURL: URL, show: (CatalogBundle) -> Void) async throws {
        // readme: begin
        let root = try PinnedRoot(keys: rootKeys.map { try ChannelKey($0) }, threshold: 2, file: rootPath)
        let store = BundleStore(folder: storeFolder, seed: seedPath, root: root, baseURL: channelURL)
        show(try await store.current().bundle)                // the catalogue, at once, offline too
        let installed = store.releases()                      // told when an update installs a release
        Task { _ = try? await store.update() }                // at launch, and now and then
        for await release in installed {
            print("release \(release.releaseVersion) installed")
            show(try await store.current().bundle)            // switch when it suits the app
        }
        // readme: end
    }

    @Test func theExampleShowsTheSeedOffline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shown = Shown()
        let seed = Self.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/shipped.sqlite").path
        let app = Task {
            try await example(storeFolder: folder.path, seedPath: seed,
                              rootKeys: (7...9).map { "ed25519:" + Data(repeating: $0, count: 32).base64EncodedString() }, rootPath: nil,
                              channelURL: URL(string: "http://127.0.0.1:1/catalog")!) { shown.bundles.append($0) }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        app.cancel()  // the app closes: the stream of releases ends
        try await app.value
        #expect(shown.bundles.map(\.path) == [seed])
    }

    @Test func theReadmeShowsThisCode() throws {
        func block(_ text: String, from begin: String, to end: String) -> [String] {
            guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return [] }
            return text[start.upperBound..<stop.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let thisFile = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let shown = block(readme, from: "channelURL: where the channel folder is served.\n", to: "```")
        #expect(!shown.isEmpty)
        #expect(shown == block(thisFile, from: "// readme: begin\n", to: "// readme: end"))
    }
}
