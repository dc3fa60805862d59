import ArgumentParser
import CatalogModel
import ChannelFormat
import ChannelPublishing
import Crypto
import Foundation

/// `digno root`: the channel's root of trust, signed offline (docs/RELEASES.md, "The root").
struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draft, sign and publish a channel's root: which release keys sign its heads, signed by root keys kept offline.",
        discussion: """
            A root names the release keys that sign a channel folder's heads and how many must \
            sign each, and the root keys that sign roots and how many must. Apps that pin the root \
            keys take each new root and trust only the release keys it names: a release key that \
            leaks is replaced by the next root, with no app update. Draft the next root, carry the \
            file to each root key's machine and sign it there, then publish it into the channel \
            folder. Exit status: 0 done, 1 refused (a root an app would not take), 2 usage or I/O errors.
            """,
        subcommands: [Draft.self, Sign.self, PublishRoot.self, ShowRoot.self])

    /// The bytes of a root's file.
    static func read(_ file: String) throws(CommandFailed) -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: file)) } catch { throw .failed("cannot read '\(file)': \(ErrorCause(error))") }
    }

    struct Draft: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the next root of a channel folder to a file, to be signed.",
            usage: "digno root draft --channel-dir <folder> --release-key <public key>… [--release-threshold <n>] [--root-key <public key>… --root-threshold <n>] --expires <days>d --output <file>",
            discussion: """
                The draft is root N+1 of the folder (1 for the first), naming the release keys \
                given and the root keys given (or, when none are given, the newest root's). It has \
                no signature yet: sign it with digno root sign on each root key's machine. The expiry \
                counts from now, or from SOURCE_DATE_EPOCH when it is set.
                """)

        @Option(help: ArgumentHelp("The channel folder digno publish writes.", valueName: "folder"))
        var channelDir: String

        @Option(help: ArgumentHelp("A release key that signs heads (ed25519:…, as digno keygen printed it); repeat for several.", valueName: "public key"),
                transform: ChannelKey.argument)
        var releaseKey: [ChannelKey]

        @Option(help: ArgumentHelp("How many of the release keys must sign a head.", valueName: "n"))
        var releaseThreshold = 1

        @Option(help: ArgumentHelp("A root key (ed25519:…); repeat for several. Default: the newest root's.", valueName: "public key"),
                transform: ChannelKey.argument)
        var rootKey: [ChannelKey] = []

        @Option(help: ArgumentHelp("How many of the root keys must sign a root. Default: the newest root's, or 1.", valueName: "n"))
        var rootThreshold: Int?

        @Option(help: ArgumentHelp("How long the root stays valid, in days (365d); apps install nothing once it has expired.", valueName: "time"),
                transform: Lifetime.init(days:))
        var expires = Lifetime.days(365)

        @Option(help: ArgumentHelp("Where to write the draft.", valueName: "file"))
        var output: String

        func validate() throws {
            guard !releaseKey.isEmpty else { throw ValidationError("give the release keys with --release-key ed25519:…") }
        }

        func run() throws {
            let now = try SourceDate.now()
            let expiry = now.addingTimeInterval(expires.seconds)
            // Against the clock, whatever SOURCE_DATE_EPOCH says: a root that has expired
            // already would stop every app's updates once published.
            guard expiry > Date() else {
                throw CommandFailed.refused("the root would expire \(ISO8601DateFormatter().string(from: expiry)), before now "
                                            + "(SOURCE_DATE_EPOCH is \(ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] ?? "unset")); give a later --expires")
            }
            let (root, envelope) = try ChannelRoots(channelFolder: channelDir).draft(
                releaseKeys: releaseKey, releaseThreshold: releaseThreshold, rootKeys: rootKey.isEmpty ? nil : rootKey, rootThreshold: rootThreshold,
                expires: expiry, now: now)
            try Root.write(envelope, to: output)
            print("wrote \(output): root \(root.version), \(root.releaseThreshold) of \(root.releaseKeys.count) release keys sign a head, "
                  + "\(root.rootThreshold) of \(root.rootKeys.count) root keys sign a root; expires \(ISO8601DateFormatter().string(from: root.expires))")
            print("sign it with digno root sign \(output) --key <root key file> on each root key's machine")
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add one root key's signature to a root's file.",
            usage: "digno root sign <file> --key <root key file> [--passphrase-file <file>] [--channel-dir <folder>]",
            discussion: """
                Signs the root in <file> with the root key and writes the file back with the \
                signature added (one by the same key is replaced). Run it on the machine that keeps \
                the root key; carry the file to the next. With --channel-dir, a key of the previous \
                root may sign too (a rotation of the root keys needs both).
                """)

        @Argument(help: ArgumentHelp("The root's file, from digno root draft.", valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("The root key's file, from digno keygen.", valueName: "file"))
        var key: String

        @Option(help: ArgumentHelp("The channel folder, for the previous root's keys.", valueName: "folder"))
        var channelDir: String?

        @Option(help: ArgumentHelp("The encrypted key's passphrase, on the first line of this file (else DIGNO_PASSPHRASE, else asked).", valueName: "file"))
        var passphraseFile: String?

        func run() throws {
            let data = try Root.read(file)
            // What is about to be signed, before the passphrase is asked, to compare with what
            // was meant: a file changed on its way between machines shows here.
            let unsigned = try ChannelRoots.read(data).1
            print("root \(unsigned.version): heads signed by \(unsigned.releaseThreshold) of \(unsigned.releaseKeys.joined(separator: ", ")); "
                  + "roots by \(unsigned.rootThreshold) of \(unsigned.rootKeys.joined(separator: ", ")); expires \(ISO8601DateFormatter().string(from: unsigned.expires))")
            let signingKey = try Passphrase(file: passphraseFile).key(key)
            let (root, signed) = try ChannelRoots(channelFolder: channelDir ?? "").sign(data, with: signingKey)
            try Root.write(signed, to: file)
            let count = (try? JSONDecoder().decode(SignedEnvelope.self, from: signed))?.signatures.count ?? 0
            print("signed root \(root.version) with ed25519:\(signingKey.publicKey.rawRepresentation.base64EncodedString()): "
                  + "\(count) signature\(count == 1 ? "" : "s"), \(root.rootThreshold) of its root keys needed")
        }
    }

    struct PublishRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Put a signed root into a channel folder, as roots/<version>.json.",
            usage: "digno root publish <file> --channel-dir <folder>",
            discussion: """
                Checks the root as an app will (the next version; signed by enough of the previous \
                root's root keys and of its own) and writes it beside the heads. Roots are never \
                replaced. Copy the channel folder to the host as after digno publish.
                """)

        @Argument(help: ArgumentHelp("The signed root's file.", valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("The channel folder digno publish writes.", valueName: "folder"))
        var channelDir: String

        func run() throws {
            let data = try Root.read(file)
            // A SOURCE_DATE_EPOCH that is not a time stops the command, as it stops the others:
            // the root is then not judged against the clock instead.
            let (root, path) = try ChannelRoots(channelFolder: channelDir).publish(data, now: try SourceDate.now())
            print("published \(path): root \(root.version), expires \(ISO8601DateFormatter().string(from: root.expires))")
            print("publish the next head with the keys it names: digno publish --key <release key file>, once per key")
        }
    }

    struct ShowRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print what a root's file says and who signed it.",
            usage: "digno root show <file> [--channel-dir <folder>]",
            discussion: """
                Names each signature by its key (ed25519:…) and says whether it verifies, and why \
                not. A signature by a key the root does not name is checked against the previous \
                root's root keys when --channel-dir is given (a root that replaces the root keys \
                is signed by both).
                """)

        @Argument(help: ArgumentHelp("A root's file.", valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("The channel folder, for the previous root's keys.", valueName: "folder"))
        var channelDir: String?

        func run() throws {
            let data = try Root.read(file)
            let (envelope, root) = try ChannelRoots.read(data)
            let formatter = ISO8601DateFormatter()
            print("root \(root.version), expires \(formatter.string(from: root.expires))")
            print("release keys (\(root.releaseThreshold) of \(root.releaseKeys.count) sign a head):")
            for key in root.releaseKeys { print("  \(key)") }
            print("root keys (\(root.rootThreshold) of \(root.rootKeys.count) sign a root):")
            let keys = root.rootKeys.compactMap { try? ChannelKey($0) }
            let previous = channelDir.flatMap { ChannelRoots(channelFolder: $0).published().last { $0.root.version == root.version - 1 } }
            let previousKeys = (previous?.root.rootKeys ?? []).compactMap { try? ChannelKey($0) }.filter { !keys.contains($0) }
            var signed = 0
            for key in keys {
                let verdict = Self.verdict(of: key, in: data, envelope)
                if verdict == "signed" { signed += 1 }
                print("  \(key)" + (verdict.isEmpty ? "" : "  " + verdict))
            }
            let others = envelope.signatures.filter { signature in !keys.contains { $0.id == signature.keyid } }
            if !others.isEmpty { print("signatures by other keys:") }
            var named: Set<String> = []
            for signature in others where named.insert(signature.keyid).inserted {
                if let key = previousKeys.first(where: { $0.id == signature.keyid }) {
                    print("  \(key) (a root key of root \(root.version - 1))  " + Self.verdict(of: key, in: data, envelope))
                } else {
                    print("  a key neither this root nor \(previous == nil ? "a root it was given" : "root \(root.version - 1)") names: not checked"
                          + (channelDir == nil ? "; give --channel-dir to check the previous root's keys" : ""))
                }
            }
            let more = root.rootThreshold - signed
            print(more > 0 ? "\(signed) of its root keys signed it; \(more) more needed" : "\(signed) of its root keys signed it, as many as it needs")
        }

        /// What `key`'s signatures in the envelope come to: "signed", why one does not verify,
        /// or nothing when it has none.
        static func verdict(of key: ChannelKey, in data: Data, _ envelope: SignedEnvelope) -> String {
            let count = envelope.signatures.filter { $0.keyid == key.id }.count
            guard count > 0 else { return "" }
            let verified = (try? SignedEnvelope.signed(data, payloadType: RootStatement.payloadType, keys: [key]))?.signers.contains(key.id) == true
            let again = count > 1 ? " (signed \(count) times; only the first counts)" : ""
            return verified ? "signed" + again
                : "its signature does not verify: the root was changed after it was signed, or the signature is damaged; sign it again" + again
        }
    }

    /// Writes `data` to `path` whole, through a temporary file renamed into place.
    static func write(_ data: Data, to path: String) throws(ChannelRoots.Failure) {
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw .writing("'\(path)' cannot be written", cause: ErrorCause(error))
        }
    }
}
