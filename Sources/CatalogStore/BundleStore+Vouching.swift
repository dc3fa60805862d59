import CatalogModel
import ChannelFormat
import Foundation

// After a root drops a release key, a store pinning root keys installs, serves and keeps as a
// fallback only a release that a head verified with the newest root's release keys and
// threshold names: the head kept beside its bundle, or the head the update just read. The rest
// (a thief's release, and yours from before the leak, both signed by the dropped key alone) are
// pruned, and the seed serves until such a head names a release again. A store pinning release
// keys keeps what its key statements' keys signed, as before roots.

extension BundleStore {
    /// Whether a head kept by the store (the one beside `release`'s bundle, or the channel's
    /// seen head in `state`) verifies with `keys` and names `release` exactly.
    func isVouched(_ release: Release, by keys: HeadKeys, state: StoreState? = nil) -> Bool {
        if let seen = state?.channels[channel], Self.release(of: seen.head) == release,
           (try? Self.verifiedHead(seen.envelope, keys: keys.keys, threshold: keys.threshold)) == seen.head {
            return true
        }
        guard let envelope = try? StoreFiles.contents(headCopyPath(release.sha256), limit: Self.headSizeLimit),
              let head = try? Self.verifiedHead(envelope, keys: keys.keys, threshold: keys.threshold) else { return false }
        return Self.release(of: head) == release
    }

    /// For a store pinning root keys: drops from `state.installed` each release `keys` (the
    /// newest root's) do not vouch for. `head`, the head just verified with them, vouches for
    /// the bundle it names: when the head kept beside that bundle no longer does (a planned
    /// rotation re-signs the current release with the new key), this head is kept there in its
    /// place, and the release recorded as it names it, before the state names it again.
    func keepVouched(by keys: HeadKeys, head: (head: ChannelHead, envelope: Data)?, _ state: inout StoreState) throws(BundleStoreError) {
        guard keys.root != nil else { return }
        var vouched: [Release] = []
        for release in state.installed {
            if isVouched(release, by: keys) {
                vouched.append(release)
            } else if let head, head.head.bundle.sha256 == release.sha256 {
                // The release as this head names it (a renewed head has a later sequence).
                try StoreFiles.replace(headCopyPath(release.sha256), with: head.envelope)
                vouched.append(Self.release(of: head.head))
            }
        }
        state.installed = vouched
    }

    /// The releases `current()` may serve of those `state` names: for a store pinning root
    /// keys, those a kept head vouches for with the release keys of the newest root its kept
    /// roots prove (none when none is proven); each passed over is said in `problems`.
    func servable(_ state: StoreState?, problems: inout [String]) -> [Release] {
        let installed = state?.installed ?? []
        guard case .root = anchor, !installed.isEmpty else { return installed }
        let keys = provenHeadKeys(state)
        return installed.filter { release in
            if let keys, isVouched(release, by: keys, state: state) { return true }
            let root = keys?.root.map { "root \($0.version)" } ?? "no root the store can prove"
            problems.append("release \(release.releaseVersion) is signed by none of the release keys of \(root)")
            return false
        }
    }

    /// For a store pinning root keys: the release keys of the newest root the kept roots prove
    /// from the app's pin (`KeptRoots.proven`), a root `state` kept in the way of clients
    /// before 2026-12 taken into account; nil when no root is proven.
    func provenHeadKeys(_ state: StoreState?) -> HeadKeys? {
        guard case .root(let pin) = anchor else { return nil }
        let shipped = try? shippedRoot(pin)
        return keptRoots.proven(pin: pin, shipped: shipped, candidate: state.flatMap { legacyRoot($0, pin: pin) }?.envelope)
            .map { HeadKeys($0) }
    }

    /// The root a client from before 2026-12 kept in `state` for `pin`: the one kept under this
    /// store's URL, else the newest kept under any.
    func legacyRoot(_ state: StoreState, pin: PinnedRoot) -> StoreState.LegacyRootTrust? {
        let matching = (state.roots ?? [:]).filter { $0.value.pinned == pin.recorded }
        return matching[baseURL.absoluteString] ?? matching.values.max { $0.version < $1.version }
    }

    /// `state` as this client keeps it, from one a client before 2026-12 wrote (trust by the
    /// channel folder's URL): the key trust of the pinned keys, whatever URL it was kept under
    /// (this store's first, else the one furthest along); the root kept, written to the kept
    /// roots when it extends the chain they prove. Nil when `state` has nothing to take over.
    func takenOver(_ state: StoreState) throws(BundleStoreError) -> StoreState? {
        guard state.trust != nil || state.roots != nil else { return nil }
        var state = state
        switch anchor {
        case .keys:
            let pinned = pinnedKeys
            let matching = (state.trust ?? [:]).filter { $0.value.pinned == pinned }
            if state.keyTrust == nil {
                state.keyTrust = matching[baseURL.absoluteString] ?? matching.values.max { $0.version < $1.version }
            }
        case .root(let pin):
            if let legacy = legacyRoot(state, pin: pin) {
                let shipped = try? shippedRoot(pin)
                let proven = keptRoots.proven(pin: pin, shipped: shipped)
                if let root = keptRoots.proven(pin: pin, shipped: shipped, candidate: legacy.envelope), root.version != proven?.version {
                    try keptRoots.keep([root])
                }
                if legacy.sequenceReset == true { state.sequenceReset = true }
            }
        }
        state.trust = nil
        state.roots = nil
        return state
    }
}
