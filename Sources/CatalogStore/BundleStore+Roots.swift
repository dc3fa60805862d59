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
    /// from), else the app's shipped root or `roots/1.json` verified by the pin; then each next
    /// root the host has (`roots/<version>.json`, until it has none), at most
    /// `RootWalk.limitPerUpdate` per update, kept at the end (a longer chain goes on at the next
    /// update). A next root that is not one to take (signed by too few keys, of another
    /// version, not a root) refuses the update: the host serves something the keys did not
    /// sign, and the store stays as it was, none of the roots of this update kept.
    /// A root that drops a release key forgets the channels' seen heads that the new keys do
    /// not vouch for, so that a head a thief pushed far ahead cannot hold the app back.
    func trustedRoot(_ pin: PinnedRoot, _ state: inout StoreState) async throws(BundleStoreError) -> TrustedRoot {
        let folderURL = baseURL.absoluteString
        var roots = state.roots ?? [:]
        var record = roots[folderURL].flatMap { $0.pinned == pin.recorded ? $0 : nil }
        var trusted: TrustedRoot
        if let record, let kept = RootWalk.kept(record.envelope), kept.version == record.version {
            trusted = kept
        } else {
            trusted = try await firstRoot(pin)
            record = StoreState.RootTrust(pinned: pin.recorded, version: trusted.version, envelope: trusted.envelope)
        }
        var dropped = false
        var former = Set(record?.formerReleaseKeys ?? [])
        for _ in 0..<RootWalk.limitPerUpdate {
            let url = baseURL.appendingPathComponent(ChannelLayout.rootPath(version: trusted.version + 1))
            guard let data = try await fetchSigned(url, headers: [:], missing: true).data else { break }
            let next: TrustedRoot
            // Refused whole: the roots taken before it in this update are not kept either.
            do { next = try RootWalk.take(data, after: trusted) } catch { throw .refused(.root(ChannelLayout.rootPath(version: trusted.version + 1), error)) }
            dropped = dropped || RootWalk.removesReleaseKey(trusted, next)
            former.formUnion(trusted.keys.release.map(\.description))
            trusted = next
        }
        // The newest's own keys are not former ones; at most a few dozen are kept.
        former.subtract(trusted.keys.release.map(\.description))
        record?.formerReleaseKeys = former.isEmpty ? nil : Array(former.sorted().suffix(64))
        try saveRoot(record, trusted, dropped: dropped, &state, &roots)
        return trusted
    }

    /// Keeps `trusted` as the folder's root when it differs from `record`; when a release key
    /// was dropped, the channels' seen heads the new release keys do not vouch for are forgotten.
    private func saveRoot(_ record: StoreState.RootTrust?, _ trusted: TrustedRoot, dropped: Bool,
                          _ state: inout StoreState, _ roots: inout [String: StoreState.RootTrust]) throws(BundleStoreError) {
        guard let record else { return }
        var updated = record
        updated.version = trusted.version
        updated.envelope = trusted.envelope
        if dropped {
            for (name, seen) in state.channels
            where (try? Self.verifiedHead(seen.envelope, keys: trusted.keys.release, threshold: trusted.root.releaseThreshold)) != seen.head {
                state.channels[name] = nil
                updated.sequenceReset = true
            }
        }
        guard state.roots?[baseURL.absoluteString] != updated else { return }
        roots[baseURL.absoluteString] = updated
        state.roots = roots
        try state.save(statePath)
    }

    /// The first root the store takes: the app's shipped root, else the channel's first.
    private func firstRoot(_ pin: PinnedRoot) async throws(BundleStoreError) -> TrustedRoot {
        let envelope: Data
        if let file = pin.file {
            guard let data = try StoreFiles.contents(file, limit: Self.headSizeLimit) else {
                throw .storage(StorageFailure(path: file, errorNumber: ENOENT, message: "the app's root '\(file)' is missing"))
            }
            envelope = data
        } else {
            let url = baseURL.appendingPathComponent(ChannelLayout.rootPath(version: 1))
            guard let data = try await fetchSigned(url, headers: [:], missing: true).data else {
                throw .refused(.root(ChannelLayout.rootPath(version: 1), .notARoot("the channel has none, and the app ships no root")))
            }
            envelope = data
        }
        do { return try RootWalk.first(envelope, pin: pin) } catch { throw .refused(.root(pin.file ?? ChannelLayout.rootPath(version: 1), error)) }
    }
}
