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
            return HeadKeys(keys: root.keys.release, threshold: root.root.releaseThreshold, root: root)
        }
    }

    /// The newest root: the one kept (if it still verifies, and the app pins what it started
    /// from) or the app's shipped root, whichever is newer (the shipped one verified by the pin),
    /// else `roots/1.json` verified by the pin; then each next root the host has
    /// (`roots/<version>.json`, until it has none), at most `RootWalk.limitPerUpdate` per update.
    /// When more remain, the roots taken are kept and the update stops there
    /// (`Refusal.rootsPending`): a head is never judged by a root that a newer one replaces. A
    /// next root that is not one to take (signed by too few keys, of another version, not a
    /// root) refuses the update: the host serves something the keys did not sign, and the store
    /// stays as it was, none of the roots of this update kept. When the newest root differs from
    /// the one kept, each channel's seen head is checked again with its release keys and
    /// threshold, and forgotten if they do not vouch for it (TUF drops its trusted timestamp
    /// after such a rotation), so that a head a thief pushed far ahead cannot hold the app back.
    func trustedRoot(_ pin: PinnedRoot, _ state: inout StoreState) async throws(BundleStoreError) -> TrustedRoot {
        let folderURL = baseURL.absoluteString
        let record = state.roots?[folderURL].flatMap { $0.pinned == pin.recorded ? $0 : nil }
        let kept = record.flatMap { record in RootWalk.kept(record.envelope).flatMap { $0.version == record.version ? $0 : nil } }
        let shipped = try shippedRoot(pin)
        var trusted: TrustedRoot
        if let kept, (shipped?.version ?? 0) <= kept.version {
            trusted = kept
        } else if let shipped {
            trusted = shipped
        } else {
            trusted = try await firstChannelRoot(pin)
        }
        var former = record?.formerReleaseKeys ?? []
        func remember(_ keys: [ChannelKey]) {
            for key in keys.map(\.description) where !former.contains(key) { former.append(key) }
        }
        if let kept, kept.version != trusted.version { remember(kept.keys.release) }
        var taken = 0
        while true {
            let path = ChannelLayout.rootPath(version: trusted.version + 1)
            guard let data = try await fetchSigned(baseURL.appendingPathComponent(path), headers: [:], missing: true).data else { break }
            guard taken < RootWalk.limitPerUpdate else {
                try saveRoot(pin, trusted, former: former, &state)
                throw .refused(.rootsPending(taken: trusted.version))
            }
            // Refused whole: the roots taken before it in this update are not kept either.
            do { let next = try RootWalk.take(data, after: trusted); remember(trusted.keys.release); trusted = next } catch {
                throw .refused(.root(path, error))
            }
            taken += 1
        }
        try saveRoot(pin, trusted, former: former, &state)
        return trusted
    }

    /// Keeps `trusted` as the folder's root, and the release keys of the roots before it
    /// (`former`, the newest 64). When it is not the root kept before, each channel's seen head
    /// that its release keys and threshold do not vouch for is forgotten, and the first head
    /// after may not name a release older than an installed one they vouch for.
    private func saveRoot(_ pin: PinnedRoot, _ trusted: TrustedRoot, former: [String], _ state: inout StoreState) throws(BundleStoreError) {
        let folderURL = baseURL.absoluteString
        let before = state.roots?[folderURL].flatMap { $0.pinned == pin.recorded ? $0 : nil }
        let own = Set(trusted.keys.release.map(\.description))
        let formerKeys = Array(former.filter { !own.contains($0) }.suffix(64))
        var updated = StoreState.RootTrust(pinned: pin.recorded, version: trusted.version, envelope: trusted.envelope,
                                           sequenceReset: before?.sequenceReset, formerReleaseKeys: formerKeys.isEmpty ? nil : formerKeys)
        if before?.version != trusted.version || before?.envelope != trusted.envelope {
            for (name, seen) in state.channels
            where (try? Self.verifiedHead(seen.envelope, keys: trusted.keys.release, threshold: trusted.root.releaseThreshold)) != seen.head {
                state.channels[name] = nil
                updated.sequenceReset = true
            }
        }
        guard before != updated else { return }
        var roots = state.roots ?? [:]
        roots[folderURL] = updated
        state.roots = roots
        try state.save(statePath)
    }

    /// The root the app ships, verified by the pin; nil when it ships none.
    private func shippedRoot(_ pin: PinnedRoot) throws(BundleStoreError) -> TrustedRoot? {
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

    /// Whether the head kept beside `release`'s bundle is vouched for by `keys`: a release the
    /// channel's current release keys stand behind (not one a dropped key signed alone).
    func isVouched(_ release: Release, by keys: HeadKeys) -> Bool {
        guard let envelope = try? StoreFiles.contents(headCopyPath(release.sha256), limit: Self.headSizeLimit),
              let head = try? Self.verifiedHead(envelope, keys: keys.keys, threshold: keys.threshold) else { return false }
        return Self.release(of: head) == release
    }
}
