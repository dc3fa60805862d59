import CatalogModel
import ChannelFormat
import Foundation

extension BundleStore {
    /// The keys a head must be signed by, and how many of them: the pinned release keys and
    /// those key statements named after them (one signature), or the release keys of the newest
    /// root taken (its threshold). `root` is that root, for a store pinning root keys.
    struct HeadKeys {
        var keys: [ChannelKey]
        var threshold: Int
        var root: TrustedRoot?
    }

    /// The keys heads are verified with now, after any new key statements or roots are taken.
    func headKeys(_ state: inout StoreState) async throws(BundleStoreError) -> HeadKeys {
        switch anchor {
        case .keys:
            return HeadKeys(keys: try await trustedKeys(&state), threshold: 1, root: nil)
        case .root(let pin):
            let root = try await trustedRoot(pin, &state)
            return HeadKeys(root)
        }
    }

    /// The store's kept roots (`roots/` in its folder).
    var keptRoots: KeptRoots { KeptRoots(layout: layout) }

    /// The newest root: the end of the kept chain (`KeptRoots.proven`, from the app's shipped
    /// root or the oldest kept root the pin verifies), else `roots/1.json` verified by the pin;
    /// then each next root the host has (`roots/<version>.json`, until it has none), at most
    /// `RootWalk.limitPerUpdate` per update. When more remain, the roots taken are kept and the
    /// update stops there (`Refusal.rootsPending`): a head is never judged by a root that a
    /// newer one replaces. A next root that is not one to take (signed by too few keys, of
    /// another version, not a root, a page a host answers for any path) refuses the update at
    /// that one request: the host serves something the keys did not sign, and the store stays
    /// as it was, none of the roots of this update kept. A walk that ends below the root the
    /// store took (`KeptTrust.taken`: its kept root files decayed, and the host serves an older
    /// copy or holds roots back) keeps the roots it took and refuses the update, judging nothing
    /// by them. The roots taken are kept as files before anything is decided by them; then each
    /// channel's seen head that the newest root's release keys and threshold do not vouch for
    /// is forgotten (TUF drops its trusted timestamp after such a rotation), so that a head a
    /// thief pushed far ahead cannot hold the app back. `state` is changed, not saved: the
    /// caller saves it with what the head does to it.
    func trustedRoot(_ pin: PinnedRoot, _ state: inout StoreState) async throws(BundleStoreError) -> TrustedRoot {
        let kept = try keptTrust(state)
        var trusted: TrustedRoot
        var taken: [TrustedRoot] = []
        if let proven = kept.proven {
            trusted = proven
        } else {
            trusted = try await firstChannelRoot(pin)
            taken.append(trusted)
        }
        var walked = 0
        while true {
            let path = ChannelLayout.rootPath(version: trusted.version + 1)
            guard let data = try await fetchSigned(baseURL.appendingPathComponent(path), headers: [:], missing: true).data else { break }
            guard walked < RootWalk.limitPerUpdate else {
                if trusted.version >= kept.taken {
                    try took(taken, newest: trusted, pin, &state)
                    try keepVouched(by: HeadKeys(trusted), head: nil, &state)
                    try state.save(layout.state)
                } else {
                    // Still below the root the store took: nothing is judged by these yet.
                    try keptRoots.keep(taken)
                }
                throw .refused(.rootsPending(taken: trusted.version))
            }
            // Refused whole: the roots taken before it in this update are not kept either.
            do { trusted = try RootWalk.take(data, after: trusted) } catch { throw .refused(.root(path, error)) }
            taken.append(trusted)
            walked += 1
        }
        let floor = kept.taken
        guard trusted.version >= floor else {
            // The store took a newer root than the host now leads to (its kept root files decayed,
            // and the host serves old files, or a thief holds the next root back): nothing is
            // judged by the older one.
            try keptRoots.keep(taken)
            let path = ChannelLayout.rootPath(version: trusted.version + 1)
            throw .refused(.root(path, .notARoot("the host has no root \(trusted.version + 1), and the store took root \(floor) before; "
                + "the host serves an older copy of the channel, or holds its roots back")))
        }
        try took(taken, newest: trusted, pin, &state)
        return trusted
    }

    /// Keeps the roots `taken` in this update (`KeptRoots`), records the newest as the root
    /// taken, and forgets each channel's seen head its release keys do not vouch for.
    private func took(_ taken: [TrustedRoot], newest: TrustedRoot, _ pin: PinnedRoot, _ state: inout StoreState) throws(BundleStoreError) {
        try keptRoots.keep(taken)
        if state.rootTaken?.pinned != pin.recorded || (state.rootTaken?.version ?? 0) < newest.version {
            state.rootTaken = .init(pinned: pin.recorded, version: newest.version)
        }
        forgetHeads(notVouchedBy: HeadKeys(newest), &state)
    }

    /// Forgets each channel's seen head that `keys` do not vouch for, and (`resetting`) marks
    /// the state so that the first head after may not name a release older than an installed
    /// one they vouch for (`StoreState.sequenceReset`).
    func forgetHeads(notVouchedBy keys: HeadKeys, resetting: Bool = true, _ state: inout StoreState) {
        for (name, seen) in state.channels
        where (try? Self.verifiedHead(seen.envelope, keys: keys.keys, threshold: keys.threshold)) != seen.head || seen.head.channel != name {
            state.channels[name] = nil
            if resetting { state.sequenceReset = true }
        }
    }

    /// The root the app ships, verified by the pin; nil when it ships none.
    func shippedRoot(_ pin: PinnedRoot) throws(BundleStoreError) -> TrustedRoot? {
        guard let file = pin.file else { return nil }
        guard let data = try StoreFiles.contents(file, limit: Self.headSizeLimit) else {
            throw .storage(StorageFailure(path: file, errorNumber: ENOENT, message: "the app's root '\(file)' is missing"))
        }
        do { return try RootWalk.first(data, pin: pin, version: nil) } catch { throw .refused(.root(file, error)) }
    }

    /// The channel's first root, `roots/1.json`, verified by the pin.
    private func firstChannelRoot(_ pin: PinnedRoot) async throws(BundleStoreError) -> TrustedRoot {
        let path = ChannelLayout.rootPath(version: 1)
        guard let data = try await fetchSigned(baseURL.appendingPathComponent(path), headers: [:], missing: true).data else {
            throw .refused(.root(path, .notARoot("the channel has none, and the app ships no root")))
        }
        do { return try RootWalk.first(data, pin: pin, version: 1) } catch { throw .refused(.root(path, error)) }
    }
}

extension BundleStore.HeadKeys {
    /// No keys: nothing verifies with them (a store pinning root keys that proves no root).
    static let noKeys = BundleStore.HeadKeys(keys: [], threshold: 1, root: nil)

    /// The keys of `root`: its release keys, as many as its threshold.
    init(_ root: TrustedRoot) {
        self.init(keys: root.keys.release, threshold: root.root.releaseThreshold, root: root)
    }
}
