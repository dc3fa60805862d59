import CatalogModel
import ChannelFormat
import Foundation

/// What an update does with a verified head, decided from what the store holds by a function
/// that reads and writes nothing (`decide`), so that every decision is tested as a table
/// (UpdatePlanTests). `BundleStore.update()` gathers the facts, then carries the plan out:
/// fetching (a delta or the whole bundle), verifying and installing are the parts it drives.
enum UpdatePlan: Equatable {
    /// The newest root the store has taken has expired: nothing is installed until the channel
    /// serves a renewed one.
    case rootExpired(version: Int, expired: Date)
    /// The head has expired: nothing is installed from it (a stale host, or an old head served).
    case expired(releaseVersion: String, expired: Date)
    /// The head's bundle is of a schema this library does not read.
    case schemaNotSupported(releaseVersion: String, schemaVersion: Int, supported: Int)
    /// The release installed last is the head's, and it opens.
    case upToDate(BundleStore.Release)
    /// Nothing is installed, and the seed holds the head's content.
    case seedIsCurrent(releaseVersion: String)
    /// The head's bundle was refused before (not the signed bytes, or not a bundle): not
    /// fetched again until the channel publishes a new head.
    case refusedBefore(sha256: String)
    /// The store holds the head's release whole (a channel rolled back to the release installed
    /// before it): installed again with nothing downloaded.
    case reinstall(BundleStore.Release)
    /// The head's bundle is fetched (from a delta when one applies, or whole), verified and
    /// installed. `repair`: it is the release installed last, whose file was found damaged: the
    /// same release again, not a new one to the app.
    case fetch(BundleStore.Release, repair: Bool)

    /// What the plan is decided from. The questions that read files are asked only when the
    /// decision needs their answer, in the order the decisions come, so that "nothing new"
    /// reads no more than it must.
    struct Facts {
        /// The head, verified.
        var head: ChannelHead
        /// The newest root taken, for a store pinning root keys: its version and expiry.
        var root: (version: Int, expires: Date)? = nil
        var now: Date
        /// The installed releases, newest first.
        var installed: [BundleStore.Release]
        /// The SHA-256 of the head's bundle, if it was refused before.
        var refusedBundle: String?
        /// Whether the store's copy of a release opens as that release's bundle.
        var opens: (BundleStore.Release) -> Bool
        /// Whether the store holds a release's signed bytes (nil: its file cannot be read).
        var holdsSignedBytes: (BundleStore.Release) -> Bool?
        /// The seed's release, when there is a seed and it opens.
        var seedRelease: () -> ReleaseInfo?
    }

    static func decide(_ facts: Facts) -> UpdatePlan {
        let head = facts.head
        if let root = facts.root, root.expires <= facts.now { return .rootExpired(version: root.version, expired: root.expires) }
        if head.expires <= facts.now { return .expired(releaseVersion: head.releaseVersion, expired: head.expires) }
        guard CatalogBundle.readableSchemaVersions.contains(head.schemaVersion) else {
            return .schemaNotSupported(releaseVersion: head.releaseVersion, schemaVersion: head.schemaVersion,
                                       supported: CatalogBundle.supportedSchemaVersion)
        }
        let release = BundleStore.release(of: head)
        let repair = facts.installed.first?.sha256 == release.sha256
        if repair, let current = facts.installed.first, facts.opens(current) { return .upToDate(current) }
        if facts.installed.isEmpty, let seed = facts.seedRelease(), seed.contentDigest == head.contentDigest {
            return .seedIsCurrent(releaseVersion: seed.releaseVersion)
        }
        // The release installed last, damaged, is fetched again whatever else holds.
        if !repair, facts.opens(release), facts.holdsSignedBytes(release) == true { return .reinstall(release) }
        if facts.refusedBundle == release.sha256 { return .refusedBefore(sha256: release.sha256) }
        return .fetch(release, repair: repair)
    }
}
