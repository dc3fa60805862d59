import ChannelFormat
import Foundation

/// Taking roots, a decision at a time, reading and writing nothing: the store fetches
/// `roots/<version>.json` and asks `take` whether it is the next root, so that every case
/// (walked, skipped, too few signatures, expired, a key removed) is tested as a table
/// (UpdatePlanTests).
enum RootWalk {
    /// The most roots one update takes; a longer chain is walked over several updates, each
    /// keeping what it took.
    static let limitPerUpdate = 32

    /// The first root the store takes, from the app's file (any `version`: nil) or
    /// `roots/1.json` (version 1): signed by the pinned threshold of the pinned keys and by its
    /// own threshold of its own root keys, naming only pinned root keys, with a threshold no
    /// lower than the pin's.
    static func first(_ envelope: Data, pin: PinnedRoot, version: Int?) throws(ChannelError) -> TrustedRoot {
        // The version the root says, read only to check it against itself below; nothing else
        // of an unverified payload is used.
        let said = version ?? SignedEnvelope.unverifiedPayload(envelope)
            .flatMap { try? RootStatement.decoder.decode(RootStatement.self, from: $0) }?.version ?? 1
        let (root, keys) = try RootStatement.verified(envelope, trusted: pin.keys, threshold: pin.threshold, version: said)
        guard Set(keys.root).isSubset(of: pin.keys) else {
            throw .notARoot("it names root keys the app does not pin; pin the root keys of the root the app ships")
        }
        guard root.rootThreshold >= pin.threshold else {
            throw .notARoot("it asks for \(root.rootThreshold) root signatures, fewer than the \(pin.threshold) the app pins")
        }
        return TrustedRoot(root: root, keys: keys, envelope: envelope)
    }

    /// The root after `trusted`, in `envelope`: at the next version, signed by `trusted`'s
    /// threshold of its root keys and by its own threshold of its own.
    static func take(_ envelope: Data, after trusted: TrustedRoot) throws(ChannelError) -> TrustedRoot {
        let (root, keys) = try RootStatement.verified(envelope, trusted: trusted.keys.root, threshold: trusted.root.rootThreshold,
                                                      version: trusted.version + 1)
        return TrustedRoot(root: root, keys: keys, envelope: envelope)
    }

    /// A root the store kept, if its envelope still verifies as itself (its own threshold of its
    /// own root keys): one that decayed on the disk is nil, and the walk starts again from the pin.
    static func kept(_ envelope: Data) -> TrustedRoot? {
        guard let payload = SignedEnvelope.unverifiedPayload(envelope),
              let said = try? RootStatement.decoder.decode(RootStatement.self, from: payload),
              let keys = try? said.checkedKeys(),
              let (root, _) = try? RootStatement.verified(envelope, trusted: keys.root, threshold: said.rootThreshold, version: said.version)
        else { return nil }
        return TrustedRoot(root: root, keys: keys, envelope: envelope)
    }

    /// Whether the newest root taken has expired at `now`: the store then installs nothing.
    static func hasExpired(_ root: TrustedRoot, now: Date) -> Bool { root.root.expires <= now }
}
