import CatalogModel
import ChannelFormat

/// Whether a store takes a head it verified, decided by a function that reads and writes
/// nothing (`decide`) from the head seen last and what is installed, so that every decision is
/// tested as a table (HeadAcceptanceTests). `BundleStore.fetchHead` verifies the head, asks,
/// then records what was decided; `UpdatePlan` then decides what to do with a head taken.
enum HeadAcceptance: Equatable {
    /// The head is the one seen last, signed again (a key rotation) or served with another
    /// ETag: what was learnt of it stays, its envelope and ETag replaced.
    case seenAgain
    /// A head newer than any seen: it becomes the one seen.
    case newer
    /// Refused, and why: another channel's head, a replayed or reused sequence number, or a
    /// release older than one installed after the keys were replaced.
    case refused(BundleStoreError.Refusal)

    /// What the decision is made from.
    struct Facts {
        /// The head, verified.
        var head: ChannelHead
        /// The store's channel.
        var channel: String
        /// The head seen last on the channel, and the highest sequence number seen.
        var seen: (head: ChannelHead, highestSequence: Int)?
        /// Whether the keys of the head seen were replaced (a root dropped them, or a key
        /// statement handed the channel on) since a head was last taken.
        var sequenceReset: Bool
        /// The newest installed release the keys trusted now vouch for (asked only after a
        /// reset with no head seen: it verifies signatures).
        var vouchedInstalled: () -> BundleStore.Release?
    }

    static func decide(_ facts: Facts) -> HeadAcceptance {
        let head = facts.head
        guard head.channel == facts.channel else { return .refused(.otherChannel(head.channel)) }
        // After the keys of the head seen were replaced, a head may not take the app back behind
        // a release the new keys stand behind (one a dropped key signed alone does not count: a
        // thief's release is replaced by the next one published).
        if facts.sequenceReset, facts.seen == nil, let installed = facts.vouchedInstalled(),
           ReleaseVersion.isNewer(installed.releaseVersion, than: head.releaseVersion) {
            return .refused(.olderThanInstalled(releaseVersion: head.releaseVersion, installed: installed.releaseVersion))
        }
        guard let seen = facts.seen else { return .newer }
        guard head.sequence >= seen.highestSequence else { return .refused(.replayed(sequence: head.sequence, highestSeen: seen.highestSequence)) }
        if head == seen.head { return .seenAgain }
        if head.sequence == seen.highestSequence { return .refused(.sequenceReused(head.sequence)) }
        return .newer
    }
}
