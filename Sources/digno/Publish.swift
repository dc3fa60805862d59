import ArgumentParser
import BundleCompiler
import ChannelFormat
import ChannelPublishing
import Crypto
import Foundation

struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a bundle on a release channel: a folder to copy to any static host.",
        usage: "digno publish --channel-dir <folder> --key <file>… [--bundle <file>] [--channel <name>] [--expires <days>d] [--keep <n>] [--deltas <n>] [--retire-schema <n>] [--rollback-to <version> | --renew]",
        discussion: """
            Copies the bundle to <folder>/bundles/<sha256>.sqlite (and its gzip copy beside it, \
            <sha256>.sqlite.gz, for hosts that serve it compressed) and then writes the channel's \
            signed head, <folder>/channels/<name>/head.json, atomically: a sequence number one above \
            the last, the release, its schema version and content digest, the bundle's path, SHA-256 \
            and size, when the head expires, and the earlier bundles kept on the host. It also writes \
            deltas to the new bundle from the channel's recent releases, <folder>/deltas/<from>-<to>.vcdiff \
            (with xdelta3, which must be installed), and names them in the head, so that a client \
            holding one of those bundles downloads the difference only. A release not \
            newer than the channel's is refused unless --rollback-to names its version. --renew \
            publishes the head again with a new expiry, for a channel with no new release. The \
            bundles of older schemas that digno build wrote beside the bundle (catalog.schema-2.sqlite) \
            are published in the same head, for the apps that read only those; a schema the \
            channel serves and this publish lacks is refused unless --retire-schema names it (which \
            also leaves out that schema's bundle beside the bundle). Exit \
            status: 0 published, 1 refused, 2 usage or I/O errors.
            """)

    @Option(help: ArgumentHelp("The bundle to publish.", valueName: "file"))
    var bundle = "dist/catalog.sqlite"

    @Option(help: ArgumentHelp("The channel folder to write, to copy to a static host.", valueName: "folder"))
    var channelDir: String

    @Option(help: ArgumentHelp("The channel's name.", valueName: "name"))
    var channel = "stable"

    @Option(help: ArgumentHelp("A release key's file, from digno keygen; repeat to sign each head with several (as many as the channel's root asks for).", valueName: "file"))
    var key: [String]

    @Option(help: ArgumentHelp("An encrypted key's passphrase, on the first line of this file (else DIGNO_PASSPHRASE, else asked).", valueName: "file"))
    var passphraseFile: String?

    @Option(help: ArgumentHelp("How long the head stays valid, in days (30d) or hours (12h); clients install nothing from an expired head.", valueName: "time"),
            transform: Lifetime.init(daysOrHours:))
    var expires = Lifetime.days(30)

    @Option(help: ArgumentHelp("How many earlier releases' bundles stay on the host, listed in the head (those the deltas start from stay too).", valueName: "n"))
    var keep = 3

    @Option(help: ArgumentHelp("From how many of the channel's recent releases to write a delta to this one (0: none, and no need for xdelta3).", valueName: "n"))
    var deltas = 5

    @Option(help: ArgumentHelp("Publish this older release again, under a new sequence number.", valueName: "version"),
            transform: ReleaseVersionArgument.parse)
    var rollbackTo: String?

    @Flag(help: "Publish the channel's head again with a new expiry (and sequence number), with no new release.")
    var renew = false

    @Option(name: .customLong("retire-schema"), help: ArgumentHelp(
        "Stop serving this bundle schema (repeatable): apps that read only it get no more releases.", valueName: "n"))
    var retiredSchemas: [Int] = []

    /// The bundle and those of older schemas `digno build` wrote beside it, but for the schemas
    /// this publish retires.
    var bundles: [String] {
        [bundle] + BundleSchema.writableVersions.filter { !retiredSchemas.contains($0) }.map { BundleSchema.path(forBundle: bundle, schema: $0) }
            .filter { $0 != bundle && FileManager.default.fileExists(atPath: $0) }
    }

    func validate() throws {
        guard !key.isEmpty else { throw ValidationError("give the release key with --key <file>") }
        guard (0...100).contains(keep) else { throw ValidationError("--keep must be from 0 to 100") }
        guard (0...20).contains(deltas) else { throw ValidationError("--deltas must be from 0 to 20") }
        guard !renew || rollbackTo == nil else { throw ValidationError("--renew and --rollback-to cannot be given together") }
        guard !renew || retiredSchemas.isEmpty else { throw ValidationError("--renew and --retire-schema cannot be given together: retire a schema with a release") }
        guard ChannelLayout.isChannelName(channel) else {
            throw ValidationError("--channel " + ChannelLayout.notAChannelName(channel))
        }
    }

    /// How long before a root expires `digno publish` warns: 30 days.
    static let rootWarning: TimeInterval = 30 * 86_400

    func run() throws {
        let passphrase = Passphrase(file: passphraseFile)
        let signingKeys = try key.map { try passphrase.key($0) }
        var publisher = ChannelPublisher(channelFolder: channelDir, channel: channel, key: signingKeys[0], retaining: keep, deltas: deltas)
        publisher.otherKeys = Array(signingKeys.dropFirst())
        // The clock is read here, the command, not inside the publisher: the same inputs give the same head.
        let now = try SourceDate.now()
        let outcome = renew
            ? try publisher.renew(now: now, lifetime: expires.seconds)
            : try publisher.publish(bundles: bundles, now: now, lifetime: expires.seconds, rollbackTo: rollbackTo, retiring: Set(retiredSchemas))
        let head = outcome.head
        let formatter = ISO8601DateFormatter()
        // Each bundle with its schema: the head's own (the one the oldest apps read) first.
        print("\(renew ? "renewed" : "published") release \(head.releaseVersion) on \(channel) as head \(head.sequence): "
              + "\(head.bundle.path) (schema \(head.schemaVersion)), \(head.bundle.bytes) bytes")
        for other in head.schemas ?? [] {
            print("and in schema \(other.schemaVersion): \(other.bundle.path), \(other.bundle.bytes) bytes")
        }
        for retired in outcome.retired {
            print("retired schema \(retired.schema) after \(retired.releasesText): apps that read only it keep the release they have "
                  + "(\(retired.latest) at the newest) and are told to update")
        }
        for schema in Set(retiredSchemas).sorted() where !outcome.retired.contains(where: { $0.schema == schema }) {
            FileHandle.standardError.write(Data("note: the channel did not serve schema \(schema); there was nothing to retire\n".utf8))
        }
        if let problem = outcome.notesProblem {
            FileHandle.standardError.write(Data("warning: published without release notes: \(problem)\n".utf8))
        }
        let deltas = head.offered.flatMap { $0.deltas ?? [] }
        if !deltas.isEmpty, !renew {
            print("\(deltas.count) delta\(deltas.count == 1 ? "" : "s") from recent releases: " + deltas.map { "\($0.path) (\($0.bytes) bytes)" }.joined(separator: ", "))
        }
        for reason in outcome.deltasLeftOut {
            FileHandle.standardError.write(Data("note: no delta \(reason)\n".utf8))
        }
        print("\(outcome.headPath) expires \(formatter.string(from: head.expires)); \(head.retained.count) earlier bundle\(head.retained.count == 1 ? "" : "s") kept, \(outcome.removed.count) removed")
        if let root = outcome.root, root.expires.timeIntervalSince(now) < Self.rootWarning {
            let days = Int(root.expires.timeIntervalSince(now) / 86_400)
            FileHandle.standardError.write(Data(("warning: the channel's root \(root.version) " + (days < 0 ? "has expired" : "expires in \(days) day\(days == 1 ? "" : "s")")
                + " (\(formatter.string(from: root.expires))): apps that pin the root keys install nothing once it has; "
                + "draft a renewed root (digno root draft), sign it offline and publish it (docs/RELEASES.md, \"Renewing the root\")\n").utf8))
        }
    }
}
