import ArgumentParser
import CatalogModel
import CatalogStore
import ChannelFormat
#if canImport(CurlTransport)
import CurlTransport
#endif
import Foundation

struct Update: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install a channel's newest release into a store, as the app does.",
        usage: "digno update --url <base> --store <folder> (--key <public key> | --root-key <public key>… [--root-threshold <n>] [--root-file <file>]) [--channel <name>] [--seed <file>] [--current]",
        discussion: """
            Fetches <base>/channels/<name>/head.json, checks its signature with the pinned key, \
            refuses a head older than one already seen, and installs the release it names into \
            <folder> (bundles/<sha256>.sqlite, checked against the signed SHA-256 and opened with \
            quick_check), keeping the previous one; an interrupted download is resumed. The same \
            code as the app's BundleStore, for kiosks, servers and tests. Exit status: 0 updated \
            or already current, 1 refused (an unsigned, replayed or expired head, a release for \
            another schema, a bundle that is not the signed one), 2 usage, network or I/O errors.
            """)

    @Option(help: ArgumentHelp("Where the channel folder is served, such as https://cdn.example.com/catalog.", valueName: "base"),
            transform: Self.channelAddress)
    var url: URL

    @Option(help: ArgumentHelp("The channel's name.", valueName: "name"))
    var channel = "stable"

    @Option(help: ArgumentHelp("The store's folder (created when missing).", valueName: "folder"))
    var store: String

    @Option(help: ArgumentHelp("A public key the head must be signed with, as digno keygen printed it (ed25519:…); repeat for several.", valueName: "public key"),
            transform: ChannelKey.argument)
    var key: [ChannelKey] = []

    @Option(help: ArgumentHelp("A root key to pin instead of release keys, as an app pinning the channel's root does (ed25519:…); repeat for several.", valueName: "public key"),
            transform: ChannelKey.argument)
    var rootKey: [ChannelKey] = []

    @Option(help: ArgumentHelp("How many of the root keys must sign the first root taken, as the root says (2 for two of three); required with --root-key.", valueName: "n"))
    var rootThreshold: Int?

    @Option(help: ArgumentHelp("The channel's root shipped with the app (roots/<version>.json), to start from.", valueName: "file"))
    var rootFile: String?

    @Option(help: ArgumentHelp("The bundle shipped with the app, served until a release is installed.", valueName: "file"))
    var seed: String?

    @Flag(help: "Fetch nothing: print the release the store serves now (exit 0), or why it has none (exit 2); no key is needed.")
    var current = false

    /// An http or https address.
    static func channelAddress(_ text: String) throws -> URL {
        guard let base = URL(string: text), let scheme = base.scheme?.lowercased(), ["http", "https"].contains(scheme), base.host != nil else {
            throw ValidationError("not an http or https address, such as https://cdn.example.com/catalog")
        }
        return base
    }

    func validate() throws {
        // --current fetches nothing: it needs no key (given one, it shows what an app pinning it shows).
        guard key.isEmpty != rootKey.isEmpty || (current && key.isEmpty && rootKey.isEmpty) else {
            throw ValidationError("give the channel's release key with --key ed25519:…, or its root keys with --root-key ed25519:…, not both")
        }
        if !rootKey.isEmpty {
            guard let rootThreshold else { throw ValidationError("give --root-threshold with --root-key: how many of the root keys sign a root") }
            do { _ = try PinnedRoot(keys: rootKey, threshold: rootThreshold) } catch { throw ValidationError("\(error)") }
        }
        guard ChannelLayout.isChannelName(channel) else {
            throw ValidationError("--channel " + ChannelLayout.notAChannelName(channel))
        }
    }

    func run() async throws {
        let (keys, base) = (key, url)
        // The threshold is there with --root-key (validate()); a root file that cannot be read
        // or is not a root stops the command here.
        let root = try rootKey.isEmpty ? nil : PinnedRoot(keys: rootKey, threshold: rootThreshold ?? 0, file: rootFile)
        #if canImport(CurlTransport)
        // On Linux, libcurl without URLSession: a host cannot make it hold more than a piece of
        // body (CurlTransport says why).
        let bundleStore = BundleStore(folder: store, seed: seed, anchor: root.map { .root($0) } ?? .keys(keys), baseURL: base, channel: channel,
                                      trust: FileTrustStore(path: BundleStore.trustPath(in: store)),
                                      transport: CurlTransport(), now: { Date() })
        #else
        let bundleStore = root.map { BundleStore(folder: store, seed: seed, root: $0, baseURL: base, channel: channel) }
            ?? BundleStore(folder: store, seed: seed, keys: keys, baseURL: base, channel: channel)
        #endif
        if current {
            // No release served is status 2 (BundleStoreError.noBundle).
            print(Self.serving(try await bundleStore.current()))
            return
        }
        var failure: (any Error)?
        do { try await Self.update(bundleStore) } catch { failure = error }
        // What the store serves now, whether the update was done or not.
        if let current = try? await bundleStore.current() { print(Self.serving(current)) }
        if let failure { throw failure }
    }

    /// Runs one update and says what it did; throws why it did not.
    static func update(_ bundleStore: BundleStore) async throws {
        let before = bundleStore.deltaReport()
        let outcome = try await bundleStore.update()
        let report = bundleStore.deltaReport()
        if report.fallbacks > before.fallbacks, let failure = report.lastFailure {
            FileHandle.standardError.write(Data("warning: the delta failed, so the whole bundle was downloaded: \(failure)\n".utf8))
        }
        switch outcome {
        case .installed(let release):
            print("installed release \(release.releaseVersion) (head \(release.sequence)): \(release.bytes) bytes, SHA-256 \(release.sha256)")
            if let from = report.lastInstalledFrom { print("made from a delta on the bundle \(from)") }
            if let notes = bundleStore.releaseNotes() {
                print("what changed since \(notes.old.releaseVersion): \(notes.entities.count) entit\(notes.entities.count == 1 ? "y" : "ies") "
                      + "(release notes in \(bundleStore.notesPath(release.sha256)))")
            }
        case .repaired(let release):
            print("repaired release \(release.releaseVersion) (head \(release.sequence)): its bundle was damaged on this device and was fetched again"
                  + (report.lastInstalledFrom.map { " (from a delta on the bundle \($0))" } ?? ""))
        case .upToDate(let version):
            print("already current: release \(version)")
        case .expired(let version, let expired):
            throw CommandFailed.refused("refused: the channel's head (release \(version)) expired at \(ISO8601DateFormatter().string(from: expired)); "
                                        + "nothing was installed. The publisher renews it with digno publish --renew.")
        case .schemaNotSupported(let version, let schema, let supported):
            throw CommandFailed.refused("refused: release \(version) needs bundle schema \(schema), and this digno reads \(supported); update the app (or digno) first.")
        }
    }

    /// "serving release 2026.11.0 from installed: PATH".
    static func serving(_ current: BundleStore.Current) -> String {
        let from = switch current.source {
        case .installed: "installed"
        case .previous: "the previous release (the last one did not open)"
        case .seed: "the seed"
        }
        return "serving release \(current.bundle.release.releaseVersion) from \(from): \(current.bundle.path)"
    }
}
