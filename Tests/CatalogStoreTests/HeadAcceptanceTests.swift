import CatalogModel
@testable import CatalogStore
import ChannelFormat
import Foundation
import Testing

/// Every decision on a verified head, as a table: the head seen last, whether the keys were
/// replaced, what is installed, and the decision out (`HeadAcceptance.decide`), with no host and
/// no file. BundleStoreTests+Refusals carry the refusals out against a channel.
@Suite struct HeadAcceptanceTests {
    static func head(_ sequence: Int, _ version: String = "2026.11.2", channel: String = "stable", sha: Character = "b") -> ChannelHead {
        var head = UpdatePlanTests.head(version, sha)
        head.sequence = sequence
        head.channel = channel
        return head
    }

    /// What the store holds: the head seen last and the highest sequence seen, whether the keys
    /// were replaced since, and the newest installed release the keys vouch for.
    struct Holding {
        var seen: (head: ChannelHead, highestSequence: Int)?
        var reset = false
        var vouched: BundleStore.Release?
    }

    @Test(arguments: [
        ("nothing seen yet", head(7), Holding(), HeadAcceptance.newer),
        ("a newer sequence", head(8), Holding(seen: (head(7), 7)), .newer),
        ("the head seen, served again", head(7), Holding(seen: (head(7), 7)), .seenAgain),
        ("the head seen, a higher one seen before it was rolled back to", head(7), Holding(seen: (head(7), 9)), .refused(.replayed(sequence: 7, highestSeen: 9))),
        ("an older sequence: a replay", head(6), Holding(seen: (head(7), 7)), .refused(.replayed(sequence: 6, highestSeen: 7))),
        ("the sequence seen, another head", head(7, sha: "c"), Holding(seen: (head(7), 7)), .refused(.sequenceReused(7))),
        ("another channel's head", head(8, channel: "beta"), Holding(seen: (head(7), 7)), .refused(.otherChannel("beta"))),
        ("keys replaced, nothing seen since: older than the release they vouch for",
         head(1, "2026.11.1"), Holding(reset: true, vouched: UpdatePlanTests.release("2026.11.2", "b")),
         .refused(.olderThanInstalled(releaseVersion: "2026.11.1", installed: "2026.11.2"))),
        ("keys replaced: the release they vouch for again", head(1, "2026.11.2"),
         Holding(reset: true, vouched: UpdatePlanTests.release("2026.11.2", "b")), .newer),
        ("keys replaced: none installed that they vouch for", head(1, "2026.11.1"), Holding(reset: true), .newer),
        ("keys replaced, a head seen since: the sequence rules", head(8, "2026.11.1"),
         Holding(seen: (head(7), 7), reset: true, vouched: UpdatePlanTests.release("2026.11.2", "b")), .newer),
    ] as [(String, ChannelHead, Holding, HeadAcceptance)])
    func aHeadIsTakenOrRefusedFromWhatTheStoreSaw(_ what: String, head: ChannelHead, holding: Holding, decision: HeadAcceptance) {
        var asked = false
        let decided = HeadAcceptance.decide(.init(head: head, channel: "stable", seen: holding.seen, sequenceReset: holding.reset,
                                                  vouchedInstalled: { asked = true; return holding.vouched }))
        #expect(decided == decision, "\(what)")
        // What is installed is asked (its signatures verified) only after a reset with no head seen.
        #expect(asked == (holding.reset && holding.seen == nil && head.channel == "stable"), "\(what)")
    }
}
