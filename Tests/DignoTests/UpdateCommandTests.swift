import Foundation
import Testing

/// `digno update`: usage errors and an unreachable host. Updates against a real server (nginx,
/// and a proxy that injects failures) are in `Tests/Channel`.
@Suite struct UpdateCommandTests {
    static let key = "ed25519:" + Data(repeating: 7, count: 32).base64EncodedString()

    @Test func usageErrorsHaveStatusTwo() throws {
        let cases: [([String], String)] = [
            (["--url", "ftp://example.com", "--store", "s", "--key", Self.key], "Error: The value 'ftp://example.com' is invalid for '--url <base>': not an http or https address, such as https://cdn.example.com/catalog\n"),
            (["--url", "https://example.com", "--store", "s", "--key", "ed25519:AAAA"],
             "Error: The value 'ed25519:AAAA' is invalid for '--key <public key>': not a channel key; a key is written ed25519: and its 32 bytes in base64, as digno keygen prints it\n"),
            (["--url", "https://example.com", "--store", "s", "--key", Self.key, "--channel", "Stable"],
             "Error: --channel 'Stable' is not a channel name; use lowercase letters, digits and hyphens, such as stable or beta\n"),
        ]
        for (arguments, message) in cases {
            let outcome = try DignoRunner.run(["update"] + arguments)
            #expect(outcome.status == 2)
            #expect(outcome.errors.hasPrefix(message), "\(outcome.errors)")
        }
    }

    @Test func anUnreachableHostIsStatusTwoAndTheSeedStillServes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-update-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Port 1 on the loopback: nothing listens, the connection is refused at once.
        let outcome = try DignoRunner.run(["update", "--url", "http://127.0.0.1:1/catalog", "--store", folder.path, "--key", Self.key,
                                           "--seed", ShowCommandTests.bundle])
        #expect(outcome.status == 2)
        #expect(outcome.errors.hasPrefix("error: cannot fetch: http://127.0.0.1:1/catalog/channels/stable/head.json: "), "\(outcome.errors)")
        #expect(outcome.output == "serving release 2026.11.0 from the seed: \(ShowCommandTests.bundle)\n")
    }

    @Test func currentNeedsNoKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-update-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try DignoRunner.run(["update", "--url", "http://127.0.0.1:1/catalog", "--store", folder.path, "--current",
                                           "--seed", ShowCommandTests.bundle])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "serving release 2026.11.0 from the seed: \(ShowCommandTests.bundle)\n")
        // Without --current, a key is still asked for.
        let keyless = try DignoRunner.run(["update", "--url", "http://127.0.0.1:1/catalog", "--store", folder.path])
        #expect(keyless.status == 2 && keyless.errors.contains("give the channel's release key with --key"), "\(keyless.errors)")
    }
}
