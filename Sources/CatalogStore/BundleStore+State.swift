import CatalogModel
import ChannelFormat
import Foundation

// The store's state (`store.json`: what is installed and seen) and its folder, which is its
// own: a state file damaged on the disk (or planted) is set aside and the state made again
// from what can be verified, the signed head kept beside each installed bundle; `bundles/` and
// `staging/` are the store's folders, never a link elsewhere; the files the state does not
// name are removed.

extension BundleStore {
    /// Keeps the signed head that names `release` beside its bundle, before the state names
    /// the bundle.
    func keepHead(of release: Release, _ state: StoreState) throws(BundleStoreError) {
        guard let envelope = state.channels[channel]?.envelope else { return }
        try StoreFiles.replace(layout.headCopy(release.sha256), with: envelope)
    }

    /// The state, with each channel's head checked again against its signature (a state file
    /// is the store's, but a planted one must not hand it a head). When `store.json` is not a
    /// sound state (damaged on the disk, planted, over its cap, naming a SHA-256 that is not
    /// one), or is missing while heads are kept, the state is made again from the installed
    /// bundles that a kept head signed by the keys trusted with no state vouches for, and saved
    /// at once: the app keeps its bundles even when the host cannot be reached; so is one that
    /// claims what no kept head backs (`isBacked`). For a store pinning root keys, those keys
    /// are the newest root's that the kept roots prove (`KeptRoots`), never the shipped root's
    /// alone, and a release they do not vouch for is dropped from a sound state too. A state
    /// written by a client before 2026-12 is taken over (`takenOver`). A damaged file is kept as
    /// `store.json.damaged`. A file that cannot be read (an input/output error, a phone's
    /// locked storage) is an error, and nothing is changed.
    func loadState() throws(BundleStoreError) -> StoreState {
        switch try StoreFiles.read(layout.state, limit: StoreState.sizeLimit) {
        case .bytes(let data):
            if let decoded = StoreState.decoded(data) {
                let takenOver = try takenOver(decoded)
                if takenOver != nil { try takenOver?.save(layout.state) }
                guard let trusted = try keptHeadKeys(takenOver ?? decoded) else {
                    // The kept roots prove less than the store took: nothing is dropped by them.
                    return takenOver ?? decoded
                }
                var checked = checkedHeads(takenOver ?? decoded, keys: trusted)
                try keepVouched(by: trusted, head: nil, &checked)
                if isBacked(checked, keys: trusted), checked.installed == (takenOver ?? decoded).installed { return checked }
                // It claims what no signed head it keeps backs (a sequence decayed or planted
                // high, which would make every later head a replay; a release no head names, or
                // one the trusted keys no longer vouch for, as a state kept from before a root
                // dropped a key names): made again from the heads, as a damaged one is, the
                // sequence never lower than the highest head that verifies, and the root taken kept.
                try? StoreFiles.replace(layout.damagedState, with: data)
                var rebuilt = rebuiltState(keys: trusted)
                if (checked.rootTaken?.version ?? 0) > (rebuilt.rootTaken?.version ?? 0) { rebuilt.rootTaken = checked.rootTaken }
                rebuilt.sequenceReset = checked.sequenceReset
                rebuilt.deltas = checked.deltas
                if let seen = checked.channels[channel], seen.head.sequence > rebuilt.channels[channel]?.highestSequence ?? 0 {
                    rebuilt.channels[channel] = .init(highestSequence: seen.head.sequence, headURL: seen.headURL, etag: nil,
                                                      head: seen.head, envelope: seen.envelope)
                    // Its release too, when its bundle is whole: the head that verifies backs it.
                    let release = Self.release(of: seen.head)
                    if !rebuilt.installed.contains(release), holdsSignedBytes(release) == true {
                        rebuilt.installed = Array(([release] + rebuilt.installed).prefix(2))
                    }
                }
                try rebuilt.save(layout.state)
                return rebuilt
            }
            try? StoreFiles.replace(layout.damagedState, with: data)
        case .notTheFile:
            StoreFiles.remove(layout.damagedState)
            try? StoreFiles.move(layout.state, to: layout.damagedState)
        case .nothing:
            guard StoreFiles.names(in: layout.bundles).contains(where: { $0.hasSuffix(StoreLayout.headCopySuffix) }) else { return StoreState() }
        }
        let state = rebuiltState(keys: try keysWithNoState())
        // Over the old file in one rename: a failure leaves it as it was, not gone.
        try state.save(layout.state)
        return state
    }

    /// `state` without the channels whose head does not verify with `keys` as the head it says
    /// it is: such a head is fetched again, with no ETag, and, for a store pinning root keys, as
    /// after a root dropped its key, the first head after may not name a release older than an
    /// installed one.
    func checkedHeads(_ state: StoreState, keys: HeadKeys) -> StoreState {
        var state = state
        // For a store pinning root keys, a seen head its root's keys do not vouch for is one a
        // dropped key signed (or damage): as after a rotation.
        let rootPinned = if case .root = anchor { true } else { false }
        forgetHeads(notVouchedBy: keys, resetting: rootPinned, &state)
        return state
    }

    /// Whether every claim of `state` (its heads checked already, `checkedHeads`) is backed by
    /// a signed head it keeps, verified with `keys` (those it trusts now): each installed
    /// release by the head kept beside its bundle, naming it exactly; each channel's highest
    /// sequence seen by its head or a kept head of that channel, none lower.
    func isBacked(_ state: StoreState, keys: HeadKeys) -> Bool {
        var keptSequences: [String: Int] = [:]
        for release in state.installed {
            // A store from before heads were kept beside their bundles has the channel's head.
            if let seen = state.channels[channel], Self.release(of: seen.head) == release { continue }
            guard let envelope = try? StoreFiles.contents(layout.headCopy(release.sha256), limit: Self.headSizeLimit),
                  let head = try? Self.verifiedHead(envelope, keys: keys.keys, threshold: keys.threshold),
                  Self.release(of: head) == release else { return false }
            keptSequences[head.channel] = max(keptSequences[head.channel] ?? 0, head.sequence)
        }
        return state.channels.allSatisfy { name, seen in seen.highestSequence <= max(seen.head.sequence, keptSequences[name] ?? 0) }
    }

    /// The installed releases (at most two, newest first) whose kept head verifies with `keys`,
    /// is this channel's, and names a bundle whose file has the signed size and SHA-256; the
    /// highest of their sequence numbers is the one seen. For a store pinning release keys,
    /// `keys` are the pinned ones: a head signed only by a key the store had taken from a key
    /// statement does not verify, its bundle is dropped, and the seed serves until the next
    /// update.
    func rebuiltState(keys: HeadKeys) -> StoreState {
        var found: [(head: ChannelHead, envelope: Data)] = []
        for name in StoreFiles.names(in: layout.bundles) where name.hasSuffix(StoreLayout.headCopySuffix) {
            guard let envelope = try? StoreFiles.contents(layout.inBundles(name), limit: Self.headSizeLimit),
                  let head = try? Self.verifiedHead(envelope, keys: keys.keys, threshold: keys.threshold),
                  head.channel == channel, StoreLayout.isHeadCopy(name, of: head.bundle.sha256),
                  holdsSignedBytes(Self.release(of: head)) == true
            else { continue }
            found.append((head, envelope))
        }
        found.sort { $0.head.sequence > $1.head.sequence }
        var state = StoreState()
        switch anchor {
        case .keys:
            // Trust starts again from the pinned keys: key statements taken before are taken again.
            state.keyTrust = .init(pinned: pinnedKeys, version: 0, keys: pinnedKeys)
        case .root(let pin):
            // The root the keys are of is the floor the kept roots must prove again.
            state.rootTaken = keys.root.map { .init(pinned: pin.recorded, version: $0.version) }
        }
        state.installed = found.prefix(2).map { Self.release(of: $0.head) }
        if let newest = found.first {
            state.channels[channel] = .init(highestSequence: newest.head.sequence, headURL: headURL.absoluteString, etag: nil,
                                            head: newest.head, envelope: newest.envelope)
        }
        return state
    }

    /// Removes the bundles (and notes) the state does not name. An app still reading one keeps
    /// reading it: the system frees a removed file's bytes when the last reader closes it.
    func removeUnlisted(_ state: StoreState) {
        let listed = Set(state.installed.flatMap { [layout.bundle($0.sha256), notesPath($0.sha256), layout.headCopy($0.sha256)] })
        for name in StoreFiles.names(in: layout.bundles) where !listed.contains(layout.inBundles(name)) {
            StoreFiles.remove(layout.inBundles(name))
        }
    }
}
