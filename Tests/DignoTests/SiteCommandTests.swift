import Foundation
import Testing

/// `digno site`: the shipped content's bundle as a static site, and clear failures.
@Suite struct SiteCommandTests {
    @Test func writesTheSiteAndSaysWhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-site-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site").path
        let outcome = try DignoRunner.run(["site", "--bundle", ShowCommandTests.bundle, "--output", output, "--today", "2026-11-22"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.hasPrefix("wrote \(output): 63 pages in 3 languages (fi, sv, en), 62 images ("))
        #expect(outcome.output.hasSuffix("; open \(output)/index.html\n"))
        #expect(FileManager.default.fileExists(atPath: output + "/recipes/cafe-latte.html"))
        #expect(FileManager.default.fileExists(atPath: output + "/sv/recipes/cafe-latte.html"))

        // A folder that holds something else is refused, and kept as it was.
        let other = folder.appendingPathComponent("notes").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: other + "/todo.txt"))
        let refused = try DignoRunner.run(["site", "--bundle", ShowCommandTests.bundle, "--output", other])
        #expect(refused.status == 1)
        #expect(refused.errors == "error: '\(other)' exists and is not a site digno wrote (it has no .digno-site); choose an empty or new folder\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["todo.txt"])
    }

    @Test func aMissingBundleIsAClearError() throws {
        let outcome = try DignoRunner.run(["site", "--bundle", "/nonexistent/catalog.sqlite", "--output", "/tmp/never-written"])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "error: no bundle at '/nonexistent/catalog.sqlite'\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
    }
}
