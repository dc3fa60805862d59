import BundleCompiler
import CatalogModel
import ChannelFormat
import Crypto
import Foundation

/// `digno publish`: puts a bundle on a release channel, a folder to copy to any static host,
/// laid out as `ChannelLayout` says: every bundle a head names (immutable, with its gzip copy),
/// deltas to the head's bundle from recent ones, the release notes, key statements
/// (`rotateKey`), and each channel's signed head, written last.
///
/// The head is replaced atomically once the files it names are in place; files no head names
/// any more are removed after it. One publish at a time per channel folder (a lock on the
/// folder).
package struct ChannelPublisher {
    package var channelFolder: String
    package var channel: String
    package var key: Curve25519.Signing.PrivateKey
    /// More release keys that sign each head beside `key`, for a root that asks for more than
    /// one signature (`RootStatement.releaseThreshold`).
    package var otherKeys: [Curve25519.Signing.PrivateKey] = []
    /// How many earlier releases' bundles stay on the host (retained) for clients midway
    /// through a download.
    package var retaining: Int
    /// From how many of the channel's most recent releases a delta to the new one is written.
    package var deltas: Int
    /// What writes them; nil when `xdelta3` is not installed, which a publish needing a delta refuses.
    package var deltaEncoder: DeltaEncoder?

    package init(channelFolder: String, channel: String, key: Curve25519.Signing.PrivateKey, retaining: Int = 3, deltas: Int = 5,
                 deltaEncoder: DeltaEncoder? = .onPath()) {
        self.channelFolder = channelFolder
        self.channel = channel
        self.key = key
        self.retaining = max(0, retaining)
        self.deltas = max(0, deltas)
        self.deltaEncoder = deltaEncoder
    }

    package var headPath: String { ChannelLayout.headPath(channel: channel) }

    /// The file or folder at `relative` (a path of `ChannelLayout`) in the channel folder.
    func path(_ relative: String) -> String { channelFolder + "/" + relative }

    /// Publishes the bundle at `bundlePath` as the channel's new head; see
    /// `publish(bundles:now:lifetime:rollbackTo:retiring:)`.
    package func publish(bundle bundlePath: String, now: Date, lifetime: TimeInterval, rollbackTo: String? = nil) throws(Failure) -> Outcome {
        try publish(bundles: [bundlePath], now: now, lifetime: lifetime, rollbackTo: rollbackTo)
    }

    /// Publishes one release, the bundles at `bundlePaths` (one per bundle schema, from one
    /// content), as the channel's new head, valid until `now` plus `lifetime`. The head's own
    /// fields are the oldest schema's, which the apps in the field read; the newer ones are its
    /// `schemas` (docs/RELEASES.md, "Bundle schemas"). Each schema gets its own deltas, release
    /// notes and retained bundles, from the channel's releases in that schema. A release not newer
    /// than the head's is refused unless `rollbackTo` names its version: then it is published
    /// again under a new sequence number, so that going back never lowers the number clients
    /// have seen. A schema the channel serves and `bundlePaths` lacks is refused unless
    /// `retiring` names it: a schema is never dropped by accident.
    package func publish(bundles bundlePaths: [String], now: Date, lifetime: TimeInterval, rollbackTo: String? = nil,
                         retiring: Set<Int> = []) throws(Failure) -> Outcome {
        guard ChannelLayout.isChannelName(channel) else { throw .badChannelName(channel) }
        var releases: [(release: ReleaseInfo, file: ChannelHead.BundleFile, path: String)] = []
        for bundlePath in bundlePaths {
            let (release, file) = try Self.release(at: bundlePath)
            releases.append((release, file, bundlePath))
        }
        guard let given = releases.first else { throw .bundle("no bundle was given") }
        for other in releases.dropFirst() {
            guard other.release.releaseVersion == given.release.releaseVersion, other.release.contentDigest == given.release.contentDigest else {
                throw .bundle("'\(other.path)' is release \(other.release.releaseVersion) of other content than '\(given.path)' "
                    + "(release \(given.release.releaseVersion)), left by another build; run digno build again, which writes every schema")
            }
        }
        releases.sort { $0.release.schemaVersion < $1.release.schemaVersion }
        let release = releases[0].release
        // Each schema once: the same file given twice counts once, two files of one schema are a mistake.
        var bySchema: [(release: ReleaseInfo, file: ChannelHead.BundleFile, path: String)] = []
        for entry in releases {
            if let kept = bySchema.last, kept.release.schemaVersion == entry.release.schemaVersion {
                guard kept.file == entry.file else { throw .bundle("'\(kept.path)' and '\(entry.path)' are both of schema \(entry.release.schemaVersion)") }
                continue
            }
            bySchema.append(entry)
        }
        releases = bySchema
        try makeFolder(ChannelLayout.channelFolder(channel))
        try makeFolder(ChannelLayout.bundlesFolder)
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }

        try refuseReplacedKey()
        try refuseTooFewRootSignatures()
        removeStoppedWrites()
        let current = try currentHead()
        try Self.refuseOutOfOrder(release, after: current, rollbackTo: rollbackTo)
        guard (current?.sequence ?? 0) < ChannelHead.maximumSequence else { throw .head("its sequence number is the highest a head may have") }
        let schemas = Set(releases.map(\.release.schemaVersion))
        if let kept = releases.first(where: { retiring.contains($0.release.schemaVersion) }) {
            throw .bundle("'\(kept.path)' is of schema \(kept.release.schemaVersion), which --retire-schema \(kept.release.schemaVersion) "
                + "stops serving; give the bundle of a schema the channel goes on serving, or do not retire schema \(kept.release.schemaVersion)")
        }
        var retired: [ServedSchema] = []
        for served in current?.offered ?? [] where !schemas.contains(served.schemaVersion) {
            let dropped = ServedSchema(schema: served.schemaVersion, releaseCount: served.releaseCount ?? 1,
                                       isAtLeast: served.releaseCount == nil || served.releaseCountIsAtLeast == true,
                                       latest: current?.releaseVersion ?? "")
            guard retiring.contains(served.schemaVersion) else { throw .schemaDropped(dropped) }
            retired.append(dropped)
        }
        // Each schema's release, from the channel's releases in that schema.
        let earlier = releases.map { current?.release(schema: $0.release.schemaVersion) }
        let sources = zip(releases, earlier).map { entry, previous in previous.map { deltaSources(after: $0, to: entry.file) } ?? [] }
        if sources.contains(where: { !$0.isEmpty }), deltaEncoder == nil {
            throw .deltas("xdelta3 is not installed (Debian: apt-get install xdelta3); install it, or publish with --deltas 0")
        }
        var offered: [ChannelHead.SchemaRelease] = []
        var notesProblem: Failure?, deltasLeftOut: [String] = []
        for ((entry, previous), sources) in zip(zip(releases, earlier), sources) {
            try copyIntoPlace(entry.path, as: entry.file)
            let (notes, problem) = releaseNotes(from: previous, to: entry.file)
            let notesFrom = olderReleaseNotes(from: sources, besides: previous, to: entry.file)
            let (deltaFiles, leftOut) = try writeDeltas(from: sources, to: entry.file)
            notesProblem = notesProblem ?? problem
            deltasLeftOut += leftOut
            let count = Self.releaseCount(after: previous, rollback: rollbackTo != nil)
            offered.append(ChannelHead.SchemaRelease(
                schemaVersion: entry.release.schemaVersion, bundle: entry.file, retained: retainedBundles(after: previous, besides: entry.file),
                notes: notes, deltas: deltaFiles.isEmpty ? nil : deltaFiles, notesFrom: notesFrom.isEmpty ? nil : notesFrom,
                releaseCount: count.releases, releaseCountIsAtLeast: count.isAtLeast ? true : nil))
        }
        let oldest = offered[0]
        let head = ChannelHead(
            channel: channel, sequence: (current?.sequence ?? 0) + 1, releaseVersion: release.releaseVersion,
            releaseDate: release.releaseDate, schemaVersion: oldest.schemaVersion, contentDigest: release.contentDigest,
            bundle: oldest.bundle, expires: now.addingTimeInterval(lifetime), retained: oldest.retained,
            notes: oldest.notes, deltas: oldest.deltas, notesFrom: oldest.notesFrom,
            schemas: offered.count > 1 ? Array(offered.dropFirst()) : nil, releaseCount: oldest.releaseCount,
            releaseCountIsAtLeast: oldest.releaseCountIsAtLeast)
        try replaceAtomically(headPath, with: try signed(head))
        let removed = removeUnretained(after: head, previous: current)
        return Outcome(head: head, headPath: headPath, removed: removed, notesProblem: notesProblem, deltasLeftOut: deltasLeftOut,
                       retired: retired, root: ChannelRoots(channelFolder: channelFolder).newest())
    }

    /// How many releases a schema has been served for once this publish serves it, `previous`
    /// being the channel's head in that schema: one more for a new release, as many for a
    /// rollback (an older release again), at most 2^53. A head from before the count counts as
    /// one, and makes the count a lower bound from then on.
    static func releaseCount(after previous: ChannelHead?, rollback: Bool) -> (releases: Int, isAtLeast: Bool) {
        guard let previous else { return (1, false) }
        // At most 2^53 (`currentHead`), so adding one cannot overflow.
        let served = previous.releaseCount ?? 1
        let isAtLeast = previous.releaseCount == nil || previous.releaseCountIsAtLeast == true
        return (rollback ? served : min(served + 1, ChannelHead.maximumSequence), isAtLeast)
    }

    /// The release in the bundle at `bundlePath`, and the bundle as a file of the channel.
    static func release(at bundlePath: String) throws(Failure) -> (ReleaseInfo, ChannelHead.BundleFile) {
        let release: ReleaseInfo
        do {
            release = try CatalogBundle(path: bundlePath).release
        } catch {
            throw .bundle("'\(bundlePath)' cannot be opened", cause: ErrorCause(error))
        }
        guard let digest = BundleFileDigest.sha256(path: bundlePath) else { throw .bundle("'\(bundlePath)' cannot be read") }
        return (release, ChannelHead.BundleFile(path: ChannelLayout.bundlePath(sha256: digest.hex), sha256: digest.hex, bytes: digest.bytes))
    }

    /// Refuses `release` unless it is newer than the `current` head's, or is the release
    /// `rollbackTo` names and not newer.
    static func refuseOutOfOrder(_ release: ReleaseInfo, after current: ChannelHead?, rollbackTo: String?) throws(Failure) {
        guard let current else {
            if let rollbackTo { throw .rollback("the channel has no head yet to roll back from (asked for \(rollbackTo))") }
            return
        }
        let newer = ReleaseVersion.isNewer(release.releaseVersion, than: current.releaseVersion)
        if let rollbackTo {
            guard rollbackTo == release.releaseVersion else {
                throw .rollback("the bundle is release \(release.releaseVersion), not \(rollbackTo)")
            }
            guard !newer else { throw .rollback("release \(rollbackTo) is newer than the channel's \(current.releaseVersion); publish it without --rollback-to") }
        } else if !newer {
            if current.contentDigest == release.contentDigest { throw .sameContent(current.releaseVersion) }
            throw .notNewer(new: release.releaseVersion, current: current.releaseVersion)
        }
    }

    /// The bundles the new head retains: the `current` head's and those it retains, newest
    /// first, but for `file` itself (a rollback's), at most `retaining`.
    func retainedBundles(after current: ChannelHead?, besides file: ChannelHead.BundleFile) -> [ChannelHead.BundleFile] {
        var retained: [ChannelHead.BundleFile] = []
        if let current {
            for earlier in [current.bundle] + current.retained where earlier.sha256 != file.sha256 && !retained.contains(earlier) {
                retained.append(earlier)
            }
        }
        return Array(retained.prefix(retaining))
    }

    /// Every key that signs a head: `key`, then `otherKeys`.
    package var keys: [Curve25519.Signing.PrivateKey] { [key] + otherKeys }

    /// The channel's head as it is, checked with this publisher's own keys, or a release key a
    /// root in the folder names (a head signed before a root replaced the key that signed it);
    /// nil if there is none.
    func currentHead() throws(Failure) -> ChannelHead? {
        let path = channelFolder + "/" + headPath
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw .head("'\(path)' cannot be read") }
            return nil
        }
        let head: ChannelHead
        do {
            head = try ChannelHead.verified(data, keys: keys.map { ChannelKey($0.publicKey) } + rootReleaseKeys())
        } catch {
            throw .head("'\(path)' is not a head this key signed (is this the channel's key?)", cause: ErrorCause(error))
        }
        // Checked here, not by clients, which do not read it: the next publish adds one to it.
        for release in head.offered {
            if let count = release.releaseCount, !(1...ChannelHead.maximumSequence).contains(count) {
                throw .head("it counts \(count) releases in schema \(release.schemaVersion)")
            }
        }
        return head
    }

    /// The head signed with this publisher's key, as published.
    func signed(_ head: ChannelHead) throws(Failure) -> Data {
        do {
            return try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: keys).encoded()
        } catch {
            throw .writing("signing failed", cause: ErrorCause(error))
        }
    }
}
