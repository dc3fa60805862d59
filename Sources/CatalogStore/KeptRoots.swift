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
    /// The folder: `roots/` in the store's folder.
    let folder: String

    /// The most kept roots a chain is walked through: a root a year for longer than any app
    /// lives, and a bound on what a full folder costs (each is two signature checks at most).
    static let chainLimit = 1024

    func path(_ version: Int) -> String { folder + "/\(version).json" }

    /// The versions of the root files kept, lowest first.
    private var versions: [Int] {
        StoreFiles.names(in: folder).compactMap { name in
            guard name.hasSuffix(".json"), let version = Int(name.dropLast(5)), version >= 1, "\(version).json" == name else { return nil }
            return version
        }.sorted()
    }

    private func envelope(_ version: Int) -> Data? {
        try? StoreFiles.contents(path(version), limit: SignedEnvelope.sizeLimit)
    }

    /// The newest root the kept chain proves for `pin`, starting at `shipped` (the app's root,
    /// verified by the pin) or else at the oldest kept root the pin verifies as a first root;
    /// `candidate` is one more root that may come next (a store kept by a client from before
    /// roots were kept as files held its newest root in `store.json`). Nil when nothing proves
    /// a root: no root is shipped and none is kept that the pin verifies.
    func proven(pin: PinnedRoot, shipped: TrustedRoot?, candidate: Data? = nil) -> TrustedRoot? {
        let versions = versions
        var trusted = shipped
        if trusted == nil {
            for version in versions.prefix(Self.chainLimit) {
                if let data = envelope(version), let first = try? RootWalk.first(data, pin: pin, version: version) {
                    trusted = first
                    break
                }
            }
        }
        if trusted == nil, let candidate, let first = try? RootWalk.first(candidate, pin: pin, version: nil) { trusted = first }
        guard var trusted else { return nil }
        let kept = Set(versions)
        for _ in 0..<Self.chainLimit {
            let next = trusted.version + 1
            let data = kept.contains(next) ? envelope(next) : nil
            if let data, let root = try? RootWalk.take(data, after: trusted) {
                trusted = root
            } else if let candidate, let root = try? RootWalk.take(candidate, after: trusted) {
                trusted = root
            } else {
                break
            }
        }
        return trusted
    }

    /// Keeps `taken` (roots in order, each vouched for by the one before it), each written whole
    /// and flushed before the next, and removes any kept root newer than the last: such a file
    /// is no part of the chain (one from a pin the app no longer has, or one left by a walk
    /// that was refused before roots were kept whole).
    func keep(_ taken: [TrustedRoot]) throws(BundleStoreError) {
        guard let newest = taken.last else { return }
        try StoreFiles.repairFolder(folder)
        for root in taken { try StoreFiles.replace(path(root.version), with: root.envelope) }
        for version in versions where version > newest.version { StoreFiles.remove(path(version)) }
    }
}
