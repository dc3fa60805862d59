import CatalogModel
import ChannelFormat
import Foundation

// Carrying out an update: the lock, the state and the head, then the plan (`UpdatePlan`, the
// decision as a value) and the parts that do it: fetching and installing, and recording what
// was installed. `update()` and `update(progress:)` in BundleStore.swift call it.

extension BundleStore {
    /// One update: the lock, the state, the head; then the plan (`UpdatePlan`), carried out.
    func updateOnce() async throws(BundleStoreError) -> UpdateOutcome {
        try StoreFiles.makeFolder(folder)
        let lock = try await StoreLock(folder)
        defer { withExtendedLifetime(lock) {} }
        try StoreFiles.repairFolder(layout.bundles)
        try StoreFiles.repairFolder(layout.staging)
        var state = try loadState()
        removeDecayedBundles(state)
        let (head, root) = try await fetchHead(&state)
        let seed = seed, trust = trust
        let plan = UpdatePlan.decide(UpdatePlan.Facts(
            head: head, root: root.map { ($0.version, $0.root.expires) }, now: now(), installed: state.installed,
            refusedBundle: state.channels[channel]?.refusedBundle,
            opens: opens, holdsSignedBytes: holdsSignedBytes,
            seedRelease: { seed.flatMap { try? CatalogBundle(path: $0, trust: trust).release } }))
        switch plan {
        case .rootExpired(let version, let expired):
            throw .refused(.rootExpired(version: version, expired: expired))
        case .expired(let version, let expired):
            return .expired(releaseVersion: version, expired: expired)
        case .schemaNotSupported(let version, let schema, let supported):
            return .schemaNotSupported(releaseVersion: version, schemaVersion: schema, supported: supported)
        case .upToDate(let current):
            try await tidyUp(current, head: head, state)
            return .upToDate(releaseVersion: current.releaseVersion)
        case .seedIsCurrent(let version):
            return .upToDate(releaseVersion: version)
        case .refusedBefore(let sha256):
            throw .refused(.refusedBefore(sha256: sha256))
        case .reinstall(let release):
            return try await record(release, head: head, state: &state, fromDelta: nil, repair: false, finished: nil)
        case .fetch(let release, let repair):
            // Damaged on the disk since it was installed: not served while it is fetched again.
            if repair { StoreFiles.remove(layout.bundle(release.sha256)) }
            let (fromDelta, finished) = try await fetchAndInstall(release, head: head, state: &state)
            return try await record(release, head: head, state: &state, fromDelta: fromDelta, repair: repair, finished: finished)
        }
    }

    /// Nothing new: a store from before heads were kept beside their bundles gets its copy (a
    /// look at the folder, not a read), files no release names go, and notes that could not be
    /// fetched at the install are tried again.
    private func tidyUp(_ current: Release, head: ChannelHead, _ state: StoreState) async throws(BundleStoreError) {
        if StoreFiles.size(layout.headCopy(current.sha256)) == nil { try keepHead(of: current, state) }
        removeUnlisted(state)
        if let notes = head.notes, !FileManager.default.fileExists(atPath: notesPath(current.sha256)) {
            await fetchNotes(notes.json, for: current)
        }
    }

    /// Fetches the head's bundle (from a delta when one applies, or whole), verifies and
    /// installs it; the delta's source, if one was used, and the last progress report to give.
    /// A refusal is remembered, so that every launch does not download the same bad bytes.
    private func fetchAndInstall(_ release: Release, head: ChannelHead, state: inout StoreState) async throws(BundleStoreError) -> (String?, UpdateProgress) {
        do {
            try checkRoom(for: head.bundle, have: StoreFiles.size(layout.part(release.sha256)) ?? 0)
            var fromDelta: String?
            switch try await applyDelta(head, installed: state.installed) {
            case .applied(let from): fromDelta = from
            case .failed(let path, let cause):
                // Counted now, so that a full download that fails too still shows it.
                state.deltaReport.fallbacks += 1
                state.deltaReport.lastFailure = path + ": " + cause.message
                state.deltaReport.lastFailureCode = cause.code
                try state.save(layout.state)
            case .none: break
            }
            if fromDelta == nil { try await download(head.bundle) }
            let whole = UpdateProgress(file: .bundle, received: head.bundle.bytes, total: head.bundle.bytes, phase: .verifying)
            Self.progress?(whole)
            try install(release)
            // Its SHA-256 was checked when it was whole (`checkedDigest`).
            hashedBundles.insert(release.sha256)
            return (fromDelta, UpdateProgress(file: .bundle, received: whole.received, total: whole.total, phase: .done))
        } catch {
            if case .refused = error {
                state.channels[channel]?.refusedBundle = release.sha256
                try? state.save(layout.state)
            }
            throw error
        }
    }

    /// Records `release` as installed (its head kept beside it, the one before it kept as the
    /// previous), fetches its notes, and tells the app: a new release is announced and
    /// `.installed`; a repair is neither (`.repaired`, its notes those it had).
    private func record(_ release: Release, head: ChannelHead, state: inout StoreState, fromDelta: String?, repair: Bool,
                        finished: UpdateProgress?) async throws(BundleStoreError) -> UpdateOutcome {
        try keepHead(of: release, state)
        // The release the app had, for the notes since it: read only when something is installed
        // (not on the path of "nothing new").
        let had = state.installed.first?.releaseVersion ?? seed.flatMap { try? CatalogBundle(path: $0, trust: trust).release.releaseVersion }
        let previous = state.installed.first { $0.sha256 != release.sha256 }
        state.installed = [release] + (previous.map { [$0] } ?? [])
        if fromDelta != nil { state.deltaReport.applied += 1 }
        state.deltaReport.lastInstalledFrom = fromDelta
        try state.save(layout.state)
        removeUnlisted(state)
        if repair {
            // Its notes are the ones it had (fetched again only if they were never fetched).
            if let notes = head.notes, !FileManager.default.fileExists(atPath: notesPath(release.sha256)) {
                await fetchNotes(notes.json, for: release)
            }
            finished.map { Self.progress?($0) }
            return .repaired(release)
        }
        if let notes = Self.notes(of: head, since: had) { await fetchNotes(notes.json, for: release) }
        listeners.announce(release)
        finished.map { Self.progress?($0) }
        return .installed(release)
    }
}
