import Foundation
import Testing

/// `digno preview`'s help and usage errors. (Running it is tested in CatalogPreviewTests and,
/// through Chromium, in Tests/Browser.)
@Suite struct PreviewCommandTests {
    @Test func helpNamesEveryOption() throws {
        let outcome = try DignoRunner.run(["preview", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE: digno preview [--content <folder>] [--port <port>] [--today <day>] [--host <address>] [--compare <bundle or channel folder>] [--poll]\n"))
        for option in ["--content <folder>", "--port <port>", "--today <day>", "--host <address>", "--compare <bundle or folder>", "--channel <name>", "--poll"] {
            #expect(outcome.output.contains("  \(option)"), "\(option)")
        }
    }

    @Test func usageErrorsHaveStatusTwo() throws {
        let missing = try DignoRunner.run(["preview", "--content", "/nonexistent/content"])
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("Error: '/nonexistent/content' is not a folder; name the content folder with --content\n"))
        let host = try DignoRunner.run(["preview", "--host", "example.com", "--port", "0"])
        #expect(host.status == 2)
        #expect(host.errors == "error: 'example.com' is not an IP address to listen on; use 127.0.0.1 (the default), ::1 or 0.0.0.0\n")
        let port = try DignoRunner.run(["preview", "--port", "70000"])
        #expect(port.status == 2)
        let day = try DignoRunner.run(["preview", "--today", "2026-13-01"])
        #expect(day.status == 2)
        let compare = try DignoRunner.run(["preview", "--compare", "/nonexistent/catalog.sqlite"])
        #expect(compare.status == 2)
        #expect(compare.errors.hasPrefix("Error: --compare '/nonexistent/catalog.sqlite' is neither a bundle nor a channel folder\n"))
        let folder = try DignoRunner.run(["preview", "--compare", DignoRunner.repository.appendingPathComponent("content").path])
        #expect(folder.status == 2)
        #expect(folder.errors.contains("is a folder with no readable"))
    }
}
