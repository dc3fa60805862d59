import CatalogModel
@testable import CatalogPreview
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The preview as it runs: a real server on a free port of 127.0.0.1 over a copy of the shipped
/// content, edited, broken and fixed on disk while it runs. (The browser tests in Tests/Browser
/// do the same through Chromium.)
@Suite(.serialized) struct PreviewServerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A copy of content/ to edit.
    static func contentCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-preview-tests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("content"), to: folder)
        return folder
    }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The page's build number.
    static func generation(_ page: String) -> String? {
        page.components(separatedBy: "<meta name=\"digno-generation\" content=\"").dropFirst().first?.split(separator: "\"").first.map(String.init)
    }

    /// Waits (up to 10 s) for the page at `url` to satisfy `condition`.
    static func eventually(_ url: String, _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let page = try await get(url).body
            if condition(page) || ContinuousClock.now > deadline { return page }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func editBreakFixAndStop() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        let server = try PreviewServer(options: .init(contentFolder: content.path, port: 0, today: Day("2026-11-22")))
        let address = try await server.start()
        #expect(address.hasPrefix("http://127.0.0.1:"))
        #expect(server.scratch.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        let page = address + "products/espresso"

        let first = try await Self.get(page)
        #expect(first.status == 200)
        let firstGeneration = try #require(Self.generation(first.body))

        // An edit: the page changes, under a new build number.
        let file = content.appendingPathComponent("products/espresso.xml")
        let original = try String(contentsOf: file, encoding: .utf8)
        let name = try #require(original.components(separatedBy: "<name>").dropFirst().first?.components(separatedBy: "</name>").first)
        try original.replacingOccurrences(of: "<name>\(name)</name>", with: "<name>\(name) Muokattu</name>").write(to: file, atomically: true, encoding: .utf8)
        let edited = try await Self.eventually(page) { $0.contains("\(name) Muokattu") }
        #expect(edited.contains("\(name) Muokattu"))
        #expect(Self.generation(edited) != firstGeneration)

        // Broken: the problem over the last version that built.
        try original.replacingOccurrences(of: "</name>", with: "</nam>").write(to: file, atomically: true, encoding: .utf8)
        let broken = try await Self.eventually(page) { $0.contains("digno-problems") }
        #expect(broken.contains(#"<span class="place">products/espresso.xml:"#))
        #expect(broken.contains("[xml-malformed]"))
        #expect(broken.contains("\(name) Muokattu"), "the last version that built is still shown")

        // Fixed: the app comes back.
        try original.write(to: file, atomically: true, encoding: .utf8)
        let fixed = try await Self.eventually(page) { !$0.contains("digno-problems") }
        #expect(!fixed.contains("digno-problems"))
        #expect(!fixed.contains("Muokattu"))

        // A file removed while it runs: the product is gone, and what linked to it is an error.
        try FileManager.default.removeItem(at: file)
        let removed = try await Self.eventually(address + "products") { $0.contains("digno-problems") || !$0.contains("espresso") }
        #expect(removed.contains("digno-problems") || !removed.contains("/products/espresso\""))

        // Only the shown build's files are left in the scratch folder.
        let files = try FileManager.default.contentsOfDirectory(atPath: server.scratch.path).filter { !$0.hasPrefix(".") }
        #expect(files.count == 2, "\(files)")

        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.scratch.path))
        await #expect(throws: (any Error).self) { try await Self.get(address) }
    }

    @Test func aPortInUseIsAClearError() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        let first = try PreviewServer(options: .init(contentFolder: content.path, port: 0))
        let address = try await first.start()
        let port = try #require(UInt16(address.split(separator: ":").last!.dropLast()))
        let second = try PreviewServer(options: .init(contentFolder: content.path, port: port))
        await #expect {
            _ = try await second.start()
        } throws: { error in
            "\(error)".contains("cannot listen on 127.0.0.1:\(port)")
        }
        second.discard()
        #expect(!FileManager.default.fileExists(atPath: second.scratch.path))
        await first.stop()
    }
}
