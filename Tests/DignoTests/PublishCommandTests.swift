import Foundation
import Testing

/// `digno publish`: what it prints and its exit statuses.
@Suite struct PublishCommandTests {
    /// A new folder with a signing key made by `digno keygen` in it, and the key's path.
    static func folderWithKey() throws -> (URL, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("signing.key").path
        #expect(try DignoRunner.run(["keygen", "--output", key]).status == 0)
        return (folder, key)
    }

    @Test func publishesThenRefusesTheSameContent() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path

        let outcome = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key, "--expires", "7d"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("published release 2026.11.0 on stable as head 1: bundles/") == true)
        #expect(lines.last?.hasPrefix("channels/stable/head.json expires ") == true)
        #expect(lines.last?.hasSuffix("; 0 earlier bundles kept, 0 removed") == true)
        #expect(FileManager.default.fileExists(atPath: channel + "/channels/stable/head.json"))

        let again = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key])
        #expect(again.status == 1)
        #expect(again.errors == "error: the channel already serves this content (release 2026.11.0); nothing was published\n")
    }

    @Test func aNewReleaseComesWithADeltaAndNeedsXdelta3() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path
        #expect(try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key]).status == 0)
        let next = folder.appendingPathComponent("next.sqlite").path
        let build = try DignoRunner.run(["build", "--content", DignoRunner.repository.appendingPathComponent("content").path, "--output", next,
                                         "--release-version", "2026.12.0", "--quiet"])
        #expect(build.status == 0, "\(build.errors)")
        let publish = ["publish", "--bundle", next, "--channel-dir", channel, "--key", key]

        let missing = try DignoRunner.run(publish, environment: ["PATH": "/nonexistent"])
        #expect(missing.status == 2)
        #expect(missing.errors == "error: cannot write the deltas: xdelta3 is not installed (Debian: apt-get install xdelta3); install it, or publish with --deltas 0\n")
        let invalid = try DignoRunner.run(publish + ["--deltas", "21"])
        #expect(invalid.status == 2 && invalid.errors.hasPrefix("Error: --deltas must be from 0 to 20\n"))

        _ = try installedTool("xdelta3", debian: "xdelta3")
        let outcome = try DignoRunner.run(publish)
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(lines)")
        #expect(lines[1].hasPrefix("1 delta from recent releases: deltas/") && lines[1].hasSuffix(" bytes)"), "\(lines)")
    }

    @Test func usageAndKeyErrorsHaveStatusTwo() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path

        let expires = try DignoRunner.run(["publish", "--channel-dir", channel, "--key", key, "--expires", "30"])
        #expect(expires.status == 2)
        #expect(expires.errors.hasPrefix("Error: --expires '30' is not a number of days or hours, such as 30d or 12h\n"))

        let name = try DignoRunner.run(["publish", "--channel-dir", channel, "--key", key, "--channel", "../x"])
        #expect(name.status == 2)
        #expect(name.errors.hasPrefix("Error: --channel '../x' is not a channel name; use lowercase letters, digits and hyphens, such as stable or beta\n"))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let open = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key])
        #expect(open.status == 2)
        #expect(open.errors == "error: the key '\(key)' can be read by others (mode 644); make it its owner's only: chmod 600 \(key)\n")
        #expect(!FileManager.default.fileExists(atPath: channel))
    }

    @Test func sourceDateEpochMakesTheSameHead() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        var heads: [Data] = []
        for name in ["one", "two"] {
            let channel = folder.appendingPathComponent(name).path
            let outcome = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key],
                                              environment: ["SOURCE_DATE_EPOCH": "1795000000"])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output.contains("expires 2026-12-18T11:06:40Z"), "\(outcome.output)")
            heads.append(try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")))
        }
        #expect(heads[0] == heads[1])
        let bad = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", folder.appendingPathComponent("three").path, "--key", key],
                                      environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(bad.status == 2)
        #expect(bad.errors == "error: SOURCE_DATE_EPOCH 'yesterday' is not a number of seconds since 1970\n")
    }
}
