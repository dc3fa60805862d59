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

    /// Publishes the bundle at `bundlePath` as the channel's new head, valid until `now` plus
    /// `lifetime`. A release not newer than the head's is refused unless `rollbackTo` names its
    /// version: then it is published again under a new sequence number, so that going back never
    /// lowers the number clients have seen.
    package func publish(bundle bundlePath: String, now: Date, lifetime: TimeInterval, rollbackTo: String? = nil) throws(Failure) -> Outcome {
        guard ChannelLayout.isChannelName(channel) else { throw .badChannelName(channel) }
        let (release, file) = try Self.release(at: bundlePath)
        try makeFolder(ChannelLayout.channelFolder(channel))
        try makeFolder(ChannelLayout.bundlesFolder)
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }

        try refuseReplacedKey()
        removeStoppedWrites()
        let current = try currentHead()
        try Self.refuseOutOfOrder(release, after: current, rollbackTo: rollbackTo)
        guard (current?.sequence ?? 0) < ChannelHead.maximumSequence else { throw .head("its sequence number is the highest a head may have") }
        let sources = current.map { deltaSources(after: $0, to: file) } ?? []
        if !sources.isEmpty, deltaEncoder == nil {
            throw .deltas("xdelta3 is not installed (Debian: apt-get install xdelta3); install it, or publish with --deltas 0")
        }
        try copyIntoPlace(bundlePath, as: file)
        let (notes, notesProblem) = releaseNotes(from: current, to: file)
        let notesFrom = olderReleaseNotes(from: sources, besides: current, to: file)
        let (deltaFiles, deltasLeftOut) = try writeDeltas(from: sources, to: file)
        let head = ChannelHead(
            channel: channel, sequence: (current?.sequence ?? 0) + 1, releaseVersion: release.releaseVersion,
            releaseDate: release.releaseDate, schemaVersion: release.schemaVersion, contentDigest: release.contentDigest,
            bundle: file, expires: now.addingTimeInterval(lifetime), retained: retainedBundles(after: current, besides: file),
            notes: notes, deltas: deltaFiles.isEmpty ? nil : deltaFiles, notesFrom: notesFrom.isEmpty ? nil : notesFrom)
        try replaceAtomically(headPath, with: try signed(head))
        let removed = removeUnretained(after: head, previous: current)
        return Outcome(head: head, headPath: headPath, removed: removed, notesProblem: notesProblem, deltasLeftOut: deltasLeftOut)
    }

    /// The release in the bundle at `bundlePath`, and the bundle as a file of the channel.
    static func release(at bundlePath: String) throws(Failure) -> (ReleaseInfo, ChannelHead.BundleFile) {
        let release: ReleaseInfo
        do {
            release = try CatalogBundle(path: bundlePath).release
        } catch {
            throw .bundle("\(error)")
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

    /// The channel's head as it is, checked with this publisher's own key; nil if there is none.
    func currentHead() throws(Failure) -> ChannelHead? {
        let path = channelFolder + "/" + headPath
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw .head("'\(path)' cannot be read") }
            return nil
        }
        do {
            return try ChannelHead.verified(data, keys: [ChannelKey(key.publicKey)])
        } catch {
            throw .head("\(error) (is this the channel's key?)")
        }
    }

    /// The head signed with this publisher's key, as published.
    func signed(_ head: ChannelHead) throws(Failure) -> Data {
        do {
            return try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: key).encoded()
        } catch {
            throw .writing("signing failed: \(error)")
        }
    }
}
