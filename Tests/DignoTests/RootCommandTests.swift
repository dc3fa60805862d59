import Foundation
import Testing

/// `digno keygen --encrypt` and `digno root`: root keys as encrypted PKCS#8 files that OpenSSL
/// and Python's `cryptography` read (and that they write), and a root drafted, signed key by key
/// and published.
@Suite struct RootCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `digno keygen` into `name`, encrypted with `passphrase` when given; the public key.
    func keygen(_ name: String, passphrase: String? = nil) throws -> String {
        let outcome = try DignoRunner.run(["keygen", "--output", path(name)] + (passphrase == nil ? [] : ["--encrypt"]),
                                          environment: passphrase.map { ["DIGNO_PASSPHRASE": $0] } ?? [:])
        #expect(outcome.status == 0, "\(outcome.errors)")
        return try #require(outcome.output.split(separator: "\n").last.map(String.init))
    }

    @Test func anEncryptedKeyIsReadByOpenSSLAndPythonAndTheirsByDigno() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let passphrase = "correct horse battery staple"
        let publicKey = try keygen("root.pem", passphrase: passphrase)
        let text = try String(contentsOfFile: path("root.pem"), encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))
        #expect((try FileManager.default.attributesOfItem(atPath: path("root.pem"))[.posixPermissions] as? Int) == 0o600)
        // A passphrase shorter than 12 characters is refused.
        let short = try DignoRunner.run(["keygen", "--output", path("short.pem"), "--encrypt"], environment: ["DIGNO_PASSPHRASE": "short"])
        #expect(short.status == 2 && short.errors.contains("12 at least"))

        // OpenSSL opens it with the passphrase and gives the same public key.
        let openssl = URL(fileURLWithPath: try installedTool("openssl", debian: "openssl"))
        let der = path("public.der")
        let opened = try DignoRunner.run(openssl, ["pkey", "-in", path("root.pem"), "-passin", "pass:\(passphrase)", "-pubout", "-outform", "DER", "-out", der])
        #expect(opened.status == 0, "\(opened.errors)")
        #expect("ed25519:" + (try Data(contentsOf: URL(fileURLWithPath: der))).suffix(32).base64EncodedString() == publicKey)
        // Python's cryptography too.
        let python = URL(fileURLWithPath: try installedTool("python3", debian: "python3-cryptography"))
        let script = """
            import base64, sys
            from cryptography.hazmat.primitives import serialization
            key = serialization.load_pem_private_key(open(sys.argv[1], 'rb').read(), password=sys.argv[2].encode())
            raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            print('ed25519:' + base64.b64encode(raw).decode())
            """
        let read = try DignoRunner.run(python, ["-c", script, path("root.pem"), passphrase])
        #expect(read.status == 0 && read.output == publicKey + "\n", "\(read.errors)")

        // A key OpenSSL encrypted (AES-256-CBC, PBKDF2-HMAC-SHA256) signs a root with digno;
        // the wrong passphrase is said, and nothing is signed.
        let theirs = path("openssl.pem")
        let made = try DignoRunner.run(openssl, ["genpkey", "-algorithm", "ed25519", "-aes256", "-pass", "pass:\(passphrase)", "-out", theirs])
        #expect(made.status == 0, "\(made.errors)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: theirs)
        let theirPublic = try DignoRunner.run(openssl, ["pkey", "-in", theirs, "-passin", "pass:\(passphrase)", "-pubout", "-outform", "DER", "-out", der])
        #expect(theirPublic.status == 0)
        let theirKey = "ed25519:" + (try Data(contentsOf: URL(fileURLWithPath: der))).suffix(32).base64EncodedString()
        let release = try keygen("release.key")
        let channel = path("channel")
        let draft = try DignoRunner.run(["root", "draft", "--channel-dir", channel, "--root-key", theirKey, "--release-key", release,
                                         "--expires", "365d", "--output", path("root.json")])
        #expect(draft.status == 0, "\(draft.errors)")
        let wrong = try DignoRunner.run(["root", "sign", path("root.json"), "--key", theirs], environment: ["DIGNO_PASSPHRASE": "not it at all"])
        #expect(wrong.status == 2 && wrong.errors.contains("the passphrase does not open it"), "\(wrong.errors)")
        let signed = try DignoRunner.run(["root", "sign", path("root.json"), "--key", theirs], environment: ["DIGNO_PASSPHRASE": passphrase])
        #expect(signed.status == 0, "\(signed.errors)")
        let published = try DignoRunner.run(["root", "publish", path("root.json"), "--channel-dir", channel])
        #expect(published.status == 0 && published.output.hasPrefix("published roots/1.json: root 1"), "\(published.errors)")
    }

    @Test func aRootNeedsItsThresholdOfRootKeysBeforeItIsPublished() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let roots = try (1...3).map { try keygen("root-\($0).key") }
        let release = try keygen("release.key")
        let channel = path("channel")
        let draft = try DignoRunner.run(["root", "draft", "--channel-dir", channel, "--release-key", release, "--expires", "365d",
                                         "--root-threshold", "2", "--output", path("root.json")] + roots.flatMap { ["--root-key", $0] })
        #expect(draft.status == 0, "\(draft.errors)")
        #expect(try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root-1.key")]).status == 0)
        let early = try DignoRunner.run(["root", "publish", path("root.json"), "--channel-dir", channel])
        #expect(early.status == 1 && early.errors.contains("1 valid signature") && early.errors.contains("2 are needed"), "\(early.errors)")
        #expect(try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root-3.key")]).status == 0)
        let shown = try DignoRunner.run(["root", "show", path("root.json")])
        #expect(shown.output.contains("root 1, expires") && shown.output.components(separatedBy: "  signed").count == 3, "\(shown.output)")
        // A SOURCE_DATE_EPOCH that is no time stops the publish (status 2, nothing written), as
        // it stops digno publish; it was once swallowed, and the root published by the clock.
        let untimed = try DignoRunner.run(["root", "publish", path("root.json"), "--channel-dir", channel], environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(untimed.status == 2 && untimed.errors == "error: SOURCE_DATE_EPOCH 'yesterday' is not a number of seconds since 1970\n", "\(untimed.errors)")
        #expect(untimed.output == "" && !FileManager.default.fileExists(atPath: channel + "/roots/1.json"))
        #expect(try DignoRunner.run(["root", "publish", path("root.json"), "--channel-dir", channel]).status == 0)
        #expect(FileManager.default.fileExists(atPath: channel + "/roots/1.json"))
        // A release key that is not a root key cannot sign a root.
        let stranger = try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("release.key")])
        #expect(stranger.status == 1 && stranger.errors.contains("is not one of root 1's root keys"), "\(stranger.errors)")
    }

    @Test func aPassphraseFileIsItsFirstLineAndItsOwnersOnly() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = path("passphrase")
        // Saved on Windows: the line ends with CR LF.
        #expect(FileManager.default.createFile(atPath: file, contents: Data("a long passphrase\r\nnot this\r\n".utf8), attributes: [.posixPermissions: 0o600]))
        let made = try DignoRunner.run(["keygen", "--output", path("root.pem"), "--passphrase-file", file])
        #expect(made.status == 0, "\(made.errors)")
        let release = try keygen("release.key")
        let draft = try DignoRunner.run(["root", "draft", "--channel-dir", path("channel"), "--root-key", try #require(made.output.split(separator: "\n").last.map(String.init)),
                                         "--release-key", release, "--expires", "30d", "--output", path("root.json")])
        #expect(draft.status == 0, "\(draft.errors)")
        let signed = try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root.pem")], environment: ["DIGNO_PASSPHRASE": "a long passphrase"])
        #expect(signed.status == 0, "\(signed.errors)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let open = try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root.pem"), "--passphrase-file", file])
        #expect(open.status == 2 && open.errors.contains("can be read by others"), "\(open.errors)")
    }

    @Test func theCeremonysRoughEdges() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let passphrase = "correct horse battery staple"
        // keygen --encrypt names the root key's uses; --public prints a key file's public key.
        let made = try DignoRunner.run(["keygen", "--output", path("root-1.pem"), "--encrypt"], environment: ["DIGNO_PASSPHRASE": passphrase])
        #expect(made.status == 0 && made.output.contains("digno root draft --root-key"), "\(made.output)")
        let r1 = try #require(made.output.split(separator: "\n").last.map(String.init))
        let shown = try DignoRunner.run(["keygen", "--public", path("root-1.pem")], environment: ["DIGNO_PASSPHRASE": passphrase])
        #expect(shown.status == 0 && shown.output == r1 + "\n", "\(shown.errors)")
        let release = try keygen("release.key")
        #expect(try DignoRunner.run(["keygen", "--public", path("release.key")]).output == release + "\n")
        #expect(!FileManager.default.fileExists(atPath: path("public")))
        // An empty DIGNO_PASSPHRASE is refused, not taken as a passphrase.
        let empty = try DignoRunner.run(["keygen", "--public", path("root-1.pem")], environment: ["DIGNO_PASSPHRASE": ""])
        #expect(empty.status == 2 && empty.errors.contains("DIGNO_PASSPHRASE is set but empty"), "\(empty.errors)")

        // A root that has expired already (SOURCE_DATE_EPOCH far in the past) is not drafted.
        let r2 = try keygen("root-2.key")
        let draftArguments = ["root", "draft", "--channel-dir", path("channel"), "--root-key", r1, "--root-key", r2, "--root-threshold", "2",
                              "--release-key", release, "--expires", "30d", "--output", path("root.json")]
        let stale = try DignoRunner.run(draftArguments, environment: ["SOURCE_DATE_EPOCH": "1500000000"])
        #expect(stale.status == 1 && stale.errors.contains("before now"), "\(stale.errors)")
        #expect(!FileManager.default.fileExists(atPath: path("root.json")))
        #expect(try DignoRunner.run(draftArguments).status == 0)

        // root sign says what it signs before it opens the key (here with a wrong passphrase, so
        // it stops there, having said it).
        let unasked = try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root-1.pem")], environment: ["DIGNO_PASSPHRASE": "not the passphrase"])
        #expect(unasked.status == 2 && unasked.output.hasPrefix("root 1: heads signed by 1 of \(release); roots by 2 of "), "\(unasked.output)")
        #expect(try DignoRunner.run(["root", "sign", path("root.json"), "--key", path("root-1.pem")], environment: ["DIGNO_PASSPHRASE": passphrase]).status == 0)

        // root show names each signature by its key, and one that does not verify, and why.
        var envelope = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("root.json")))) as? [String: Any])
        var signatures = try #require(envelope["signatures"] as? [[String: String]])
        let good = try DignoRunner.run(["root", "show", path("root.json")])
        #expect(good.output.contains("  \(r1)  signed\n") && good.output.contains("1 of its root keys signed it; 1 more needed"), "\(good.output)")
        let text = try #require(signatures[0]["sig"])
        var sig = try #require(Data(base64Encoded: text))
        sig[0] ^= 1
        signatures[0]["sig"] = sig.base64EncodedString()
        envelope["signatures"] = signatures
        try JSONSerialization.data(withJSONObject: envelope).write(to: URL(fileURLWithPath: path("root.json")))
        let bad = try DignoRunner.run(["root", "show", path("root.json")])
        #expect(bad.output.contains("  \(r1)  its signature does not verify: the root was changed after it was signed"), "\(bad.output)")
        #expect(bad.output.contains("0 of its root keys signed it; 2 more needed"), "\(bad.output)")
    }
}
