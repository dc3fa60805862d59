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

    /// `digno build` of the shipped content as release `version` to `output` (quietly), with
    /// `extra` arguments such as `--schema 3`.
    static func build(_ version: String, to output: String, _ extra: String...) throws -> DignoRunner.Outcome {
        try DignoRunner.run(["build", "--content", DignoRunner.repository.appendingPathComponent("content").path, "--output", output,
                             "--release-version", version, "--quiet"] + extra)
    }

    @Test func publishesThenRefusesTheSameContent() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path

        let outcome = try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key, "--expires", "7d"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        // The bundles of schemas 3 and 2 that digno build wrote beside it are published in the same head.
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first?.hasPrefix("published release 2026.11.0 on stable as head 1: bundles/") == true)
        #expect(lines.first?.contains(".sqlite (schema 2), ") == true, "the head's own bundle, labelled: \(lines)")
        #expect(lines[1].hasPrefix("and in schema 3: bundles/") && lines[2].hasPrefix("and in schema 4: bundles/"), "\(lines)")
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
        let build = try Self.build("2026.12.0", to: next)
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
        try #require(lines.count == 5, "\(lines)")
        // A delta in each schema, each from the channel's previous release in that schema.
        #expect(lines[3].hasPrefix("3 deltas from recent releases: deltas/") && lines[3].hasSuffix(" bytes)"), "\(lines)")
    }

    @Test func aSchemaIsRetiredOnlyOnPurpose() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path
        #expect(try DignoRunner.run(["publish", "--bundle", ShowCommandTests.bundle, "--channel-dir", channel, "--key", key]).status == 0)
        // The next release built in schemas 4 and 3 alone.
        let next = folder.appendingPathComponent("next.sqlite").path
        let build = try Self.build("2026.12.0", to: next, "--schema", "4", "--schema", "3")
        #expect(build.status == 0, "\(build.errors)")
        let publish = ["publish", "--bundle", next, "--channel-dir", channel, "--key", key, "--deltas", "0"]
        let refused = try DignoRunner.run(publish)
        #expect(refused.status == 1)
        #expect(refused.errors == "error: bundle schema 2 has been served for 1 release (the latest being 2026.11.0), and this publish has no bundle of it: "
                + "apps that read only schema 2 would get no more releases; build it too (digno build writes it by default), "
                + "or give --retire-schema 2 to stop serving it on purpose\n")
        // Retiring a schema the bundle is of is a mistake.
        let own = try DignoRunner.run(publish + ["--retire-schema", "4"])
        #expect(own.status == 2 && own.errors.contains("is of schema 4, which --retire-schema 4 stops serving; "), "\(own.errors)")
        // The same release built in every schema (the default): the schema-2 bundle beside it
        // is left out when schema 2 is retired.
        let both = try Self.build("2026.12.0", to: next)
        #expect(both.status == 0 && FileManager.default.fileExists(atPath: folder.appendingPathComponent("next.schema-2.sqlite").path))
        let retired = try DignoRunner.run(publish + ["--retire-schema", "2"])
        #expect(retired.status == 0, "\(retired.errors)")
        let lines = retired.output.split(separator: "\n")
        #expect(lines.count == 4 && lines[1].hasPrefix("and in schema 4: ") && !retired.output.contains("and in schema 2"), "\(lines)")
        #expect(lines[2] == "retired schema 2 after 1 release: apps that read only it keep the release they have (2026.11.0 at the newest) "
                + "and are told to update", "\(lines)")
        #expect(try DignoRunner.run(["publish", "--channel-dir", channel, "--key", key, "--renew", "--retire-schema", "2"]).status == 2)
        // The head's own fields are schema 3 now, and 4 beside them: apps that read only 2 are told to update.
        let head = try #require(FileManager.default.contents(atPath: channel + "/channels/stable/head.json"))
        let envelope = try #require(try JSONSerialization.jsonObject(with: head) as? [String: Any])
        let encoded = try #require(envelope["payload"] as? String)
        let payload = try #require(Data(base64Encoded: encoded))
        let fields = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(fields["schemaVersion"] as? Int == 3 && (fields["schemas"] as? [[String: Any]])?.compactMap { $0["schemaVersion"] as? Int } == [4])

        // Once retired, there is nothing more to retire, and the publish says so.
        let later = folder.appendingPathComponent("later.sqlite").path
        #expect(try Self.build("2026.12.1", to: later, "--schema", "4", "--schema", "3").status == 0)
        let again = try DignoRunner.run(["publish", "--bundle", later, "--channel-dir", channel, "--key", key, "--deltas", "0", "--retire-schema", "2"])
        #expect(again.status == 0 && again.errors == "note: the channel did not serve schema 2; there was nothing to retire\n", "\(again.errors)")
    }

    /// A schema-2 bundle left beside the bundle by an earlier build is not taken for this
    /// release's: the publish is refused, naming it.
    @Test func aBundleLeftByAnotherBuildIsRefused() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        #expect(try Self.build("2026.12.0", to: bundle).status == 0)
        #expect(try Self.build("2026.12.1", to: bundle, "--schema", "4").status == 0)
        let channel = folder.appendingPathComponent("channel").path
        let refused = try DignoRunner.run(["publish", "--bundle", bundle, "--channel-dir", channel, "--key", key, "--deltas", "0"])
        #expect(refused.status == 2)
        #expect(refused.errors == "error: the bundle cannot be published: '\(folder.appendingPathComponent("catalog.schema-3.sqlite").path)' is release "
                + "2026.12.0 of other content than '\(bundle)' (release 2026.12.1), left by another build; run digno build again, which writes every schema\n")
        #expect(!FileManager.default.fileExists(atPath: channel + "/channels/stable/head.json"))
    }

    @Test func usageAndKeyErrorsHaveStatusTwo() throws {
        let (folder, key) = try Self.folderWithKey()
        defer { try? FileManager.default.removeItem(at: folder) }
        let channel = folder.appendingPathComponent("channel").path

        let expires = try DignoRunner.run(["publish", "--channel-dir", channel, "--key", key, "--expires", "30"])
        #expect(expires.status == 2)
        #expect(expires.errors.hasPrefix("Error: The value '30' is invalid for '--expires <time>': not a number of days or hours, such as 30d or 12h\n"))

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
