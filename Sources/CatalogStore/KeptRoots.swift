import ChannelFormat
import Foundation

/// The roots a store pinning root keys has taken, kept as files in its folder
/// (`roots/<version>.json`, each the envelope as fetched), so that its trust can be proven again
/// from the app's own pin whatever happens to `store.json`: the newest root is the end of the
/// chain that starts at the root the app ships (or, when it ships none, at the oldest kept root
/// the pinned keys signed) and takes each next kept root that the one before it vouches for
/// (`RootWalk.take`). A root file that decayed, or one planted without the root keys, ends the
/// chain there; the next update fetches the rest from the host again. Nothing here trusts the
/// state file, and the channel folder's URL plays no part: a channel moved to another host, or
/// its URL spelt with a trailing slash, keeps the roots taken.
struct KeptRoots {
    /// The store's paths: its roots are in `roots/`.
    let layout: StoreLayout

    /// The most kept roots a chain is walked through: a root a year for longer than any app
    /// lives, and a bound on what a full folder costs (each is two signature checks at most).
    static let chainLimit = 1024

    /// How many of the oldest kept roots are tried as the chain's start when the app ships no
    /// root: the first the pin verifies is one of them (a root whose envelope decayed is passed).
    static let startsTried = 4

    /// The versions of the root files kept, lowest first.
    private var versions: [Int] {
        StoreFiles.names(in: layout.roots).compactMap(StoreLayout.rootVersion(named:)).sorted()
    }

    func envelope(_ version: Int) -> Data? {
        try? StoreFiles.contents(layout.root(version), limit: SignedEnvelope.sizeLimit)
    }

    /// The newest root the kept chain proves for `pin`, starting at `shipped` (the app's root,
    /// verified by the pin) or else at the oldest kept root the pin verifies as a first root.
    /// Nil when nothing proves a root: no root is shipped and none is kept that the pin verifies.
    func proven(pin: PinnedRoot, shipped: TrustedRoot?) -> TrustedRoot? {
        let versions = versions
        var trusted = shipped
        if trusted == nil {
            for version in versions.prefix(Self.startsTried) {
                if let data = envelope(version), let first = try? RootWalk.first(data, pin: pin, version: version) {
                    trusted = first
                    break
                }
            }
        }
        guard var trusted else { return nil }
        let kept = Set(versions)
        for _ in 0..<Self.chainLimit {
            let next = trusted.version + 1
            guard kept.contains(next), let data = envelope(next), let root = try? RootWalk.take(data, after: trusted) else { break }
            trusted = root
        }
        return trusted
    }

    /// Keeps `taken` (roots in order, each vouched for by the one before it), each written whole
    /// and flushed before the next, over any file at its version. Nothing else is removed: a
    /// file that is no part of the chain (from a pin the app no longer has) is passed over by
    /// `proven`, and one the chain will reach again is kept.
    func keep(_ taken: [TrustedRoot]) throws(BundleStoreError) {
        guard !taken.isEmpty else { return }
        try StoreFiles.repairFolder(layout.roots)
        for root in taken { try StoreFiles.replace(layout.root(root.version), with: root.envelope) }
    }
}
