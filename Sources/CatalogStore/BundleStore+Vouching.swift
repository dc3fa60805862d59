import CatalogModel
import ChannelFormat
import Foundation

// After a root drops a release key, a store pinning root keys installs, serves and keeps as a
// fallback only a release that a head verified with the newest root's release keys and
// threshold names: the head kept beside its bundle, the channel's seen head, or the head the
// update just read. The rest (a thief's release, and yours from before the leak, both signed
// by the dropped key alone) are pruned, and the seed serves until such a head names a release
// again. A store pinning release keys keeps what its key statements' keys signed, as before.

extension BundleStore {
    /// Whether a head kept by the store (the one beside `release`'s bundle, or the channel's
    /// seen head in `state`) verifies with `keys` and offers `release`'s bundle: its SHA-256,
    /// size and content (not its sequence: a renewed head names the same release at a later one).
    func isVouched(_ release: Release, by keys: HeadKeys, state: StoreState? = nil) -> Bool {
        // Any bundle the head offers: an app that reads a newer schema since it installed this
        // one reads the head as offering that schema's bundle.
        func names(_ envelope: Data) -> Bool {
            guard let head = try? ChannelHead.verified(envelope, keys: keys.keys, threshold: keys.threshold) else { return false }
            return head.contentDigest == release.contentDigest
                && head.offered.contains { $0.bundle.sha256 == release.sha256 && $0.bundle.bytes == release.bytes }
        }
        if let seen = state?.channels[channel], names(seen.envelope) { return true }
        guard let envelope = try? StoreFiles.contents(layout.headCopy(release.sha256), limit: Self.headSizeLimit) else { return false }
        return names(envelope)
    }

    /// For a store pinning root keys: drops from `state.installed` each release `keys` (the
    /// newest root's) do not vouch for. `head`, the head just verified with them, vouches for
    /// the bundle it names: when the head kept beside that bundle no longer does (a planned
    /// rotation re-signs the current release with the new key), this head is kept there in its
    /// place, and the release recorded as it names it, before the state names it again.
    func keepVouched(by keys: HeadKeys, head: (head: ChannelHead, envelope: Data)?, _ state: inout StoreState) throws(BundleStoreError) {
        guard case .root = anchor else { return }
        var vouched: [Release] = []
        for release in state.installed {
            if isVouched(release, by: keys) {
                vouched.append(release)
            } else if let head, head.head.bundle.sha256 == release.sha256 {
                // The release as this head names it (a renewed head has a later sequence).
                try StoreFiles.replace(layout.headCopy(release.sha256), with: head.envelope)
                vouched.append(Self.release(of: head.head))
            }
        }
        state.installed = vouched
    }

    /// What a store pinning root keys trusts with nothing fetched (`KeptTrust`). Throws when the
    /// root the app ships cannot be read.
    func keptTrust(_ state: StoreState?) throws(BundleStoreError) -> KeptTrust {
        guard case .root(let pin) = anchor else { return KeptTrust(proven: nil, judge: nil, taken: 0) }
        let proven = keptRoots.proven(pin: pin, shipped: try shippedRoot(pin))
        let taken = max(state?.rootTaken.flatMap { $0.pinned == pin.recorded ? $0.version : nil } ?? 0,
                        state.flatMap { legacyRoot($0, pin: pin) }?.version ?? 0)
        if let proven, proven.version >= taken { return KeptTrust(proven: proven, judge: proven, taken: taken) }
        // The root taken, as kept (its file, or a client before 2026-12's state), if it still
        // verifies as itself: as the client that took it checked it, walking from the pin then.
        let kept = [keptRoots.envelope(taken), state.flatMap { legacyRoot($0, pin: pin) }?.envelope]
            .lazy.compactMap { $0.flatMap(RootWalk.kept) }.first { $0.version == taken }
        return KeptTrust(proven: proven, judge: kept, taken: taken)
    }

    /// The releases `current()` may serve of those `state` names: for a store pinning root
    /// keys, those a kept head (beside the bundle, or the channel's seen head) vouches for with
    /// the release keys of the root `keptTrust` judges by (none when there is none); each passed
    /// over is said in `problems`. When it has none to judge by though the store took a root
    /// (a root file decayed), the state's releases are served as they are.
    func servable(_ state: StoreState?, problems: inout [String]) -> [Release] {
        let installed = state?.installed ?? []
        guard case .root = anchor, !installed.isEmpty else { return installed }
        guard let trust = try? keptTrust(state), trust.complete else { return installed }
        return installed.filter { release in
            if let root = trust.judge, isVouched(release, by: HeadKeys(root), state: state) { return true }
            let root = trust.judge.map { "root \($0.version)" } ?? "no root the store can prove"
            problems.append("release \(release.releaseVersion) is signed by none of the release keys of \(root)")
            return false
        }
    }

    /// The root a client from before 2026-12 kept in `state` for `pin`: the newest, under
    /// whatever URL (it kept one per spelling of the channel's URL).
    func legacyRoot(_ state: StoreState, pin: PinnedRoot) -> StoreState.LegacyRootTrust? {
        (state.roots ?? [:]).values.filter { $0.pinned == pin.recorded }.max { $0.version < $1.version }
    }

    /// `state` as this client keeps it, from one a client before 2026-12 wrote (trust by the
    /// channel folder's URL): the key trust of the pinned keys furthest along, whatever URL it
    /// was kept under; the root kept, as a file of the kept
    /// roots and as the root taken (`StoreState.rootTaken`), which the kept roots must prove
    /// again before anything is dropped by them. Nil when `state` has nothing to take over.
    func takenOver(_ state: StoreState) throws(BundleStoreError) -> StoreState? {
        guard state.trust != nil || state.roots != nil else { return nil }
        var state = state
        switch anchor {
        case .keys:
            if state.keyTrust == nil {
                state.keyTrust = (state.trust ?? [:]).values.filter { $0.pinned == pinnedKeys }.max { $0.version < $1.version }
            }
        case .root(let pin):
            if let legacy = legacyRoot(state, pin: pin) {
                // As the client that took it kept it: a root that verifies as itself.
                if let root = RootWalk.kept(legacy.envelope), root.version == legacy.version,
                   keptRoots.envelope(root.version).flatMap(RootWalk.kept)?.version != root.version {
                    try keptRoots.keep([root])
                }
                state.rootTaken = .init(pinned: pin.recorded, version: max(legacy.version, state.rootTaken?.version ?? 0))
                if legacy.sequenceReset == true { state.sequenceReset = true }
            }
        }
        state.trust = nil
        state.roots = nil
        return state
    }

    /// The keys `state` trusts heads by, with nothing fetched: the pinned release keys and
    /// those of the key statements taken (one signature), or the release keys of the newest
    /// root the kept roots prove (its threshold; none when none is proven). Nil when the kept
    /// roots prove less than the store took (`keptTrust`): nothing may be judged by them.
    func keptHeadKeys(_ state: StoreState) throws(BundleStoreError) -> HeadKeys? {
        switch anchor {
        case .keys(let pinned):
            return HeadKeys(keys: pinned + (state.keyTrust?.keys ?? []).compactMap { try? ChannelKey($0) }, threshold: 1, root: nil)
        case .root:
            let trust = try keptTrust(state)
            guard trust.complete else { return nil }
            return trust.judge.map { HeadKeys($0) } ?? .noKeys
        }
    }

    /// The keys heads are trusted by with no state: the pinned release keys, or the release
    /// keys of the newest root the kept roots prove (none when none is).
    func keysWithNoState() throws(BundleStoreError) -> HeadKeys {
        switch anchor {
        case .keys(let pinned): HeadKeys(keys: pinned, threshold: 1, root: nil)
        case .root: try keptTrust(nil).judge.map { HeadKeys($0) } ?? .noKeys
        }
    }
}
