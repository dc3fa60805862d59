import CatalogModel
import Foundation

// An installed bundle is the signed one, always: flash that flips a bit inside a text leaves
// SQLite's structure whole, so opening the file (and `quick_check`) still passes, and only the
// file's SHA-256 tells. Hashing costs a read of the whole file (170 MB at 100,000 entities), so
// each store instance hashes each installed bundle once, at its first update: an app makes one
// store per launch, and updates in the background after launch.

extension BundleStore {
    /// Whether the installed release's file still has the SHA-256 and size it was installed
    /// under: true or false when it was read to the end, nil when it could not be (a read
    /// error, or the file kept from the app while the device is locked), which says nothing of
    /// its bytes. Hashed once per store instance; a bundle this instance installed was checked
    /// as it arrived.
    func holdsSignedBytes(_ release: Release) -> Bool? {
        if hashedBundles.contains(release.sha256) { return true }
        guard let found = BundleFileDigest.sha256(path: layout.bundle(release.sha256)) else { return nil }
        guard found.hex == release.sha256, found.bytes == release.bytes else { return false }
        hashedBundles.insert(release.sha256)
        return true
    }

    /// Removes each installed bundle whose bytes are no longer the signed ones, so that
    /// `current()` stops serving it and falls back to the other one or the seed, and the
    /// update repairs it (from a delta on a bundle it still holds, or whole). Before the head is
    /// fetched: an app that is offline stops serving a damaged bundle too.
    func removeDecayedBundles(_ state: StoreState) {
        for release in state.installed where StoreFiles.size(layout.bundle(release.sha256)) != nil {
            if holdsSignedBytes(release) == false { StoreFiles.remove(layout.bundle(release.sha256)) }
        }
    }
}

extension BundleStore {
    /// Tells the store that `bundle`, which `current()` gave, met damage while the app read it
    /// (a query or a screen threw `CatalogBundleError.damaged`). The store hashes its file again:
    /// when the bytes are no longer the signed ones, it stops serving it at once, so that
    /// `current()` gives the previous release, or else the seed, and the next `update()` fetches
    /// it again (from a delta on a bundle it still holds, or whole), as for a bundle found
    /// decayed at launch. Open the bundle again with `current()` afterwards.
    ///
    /// Returns whether the store stopped serving it: false when the file still has its signed
    /// bytes or could not be read to the end (the damage is not in the file: a read the system
    /// refused, such as a locked phone's), and for a bundle the store did not install (the
    /// seed). Waits for an update in progress (it holds the store's folder).
    @discardableResult
    public func reportDamage(in bundle: CatalogBundle) async throws(BundleStoreError) -> Bool {
        let lock = try await StoreLock(folder)
        defer { withExtendedLifetime(lock) {} }
        guard let state = try? StoreState.load(layout.state),
              let release = state.installed.first(where: { layout.bundle($0.sha256) == bundle.path }) else { return false }
        // Hashed again whatever this instance found before: the damage may be newer.
        guard let found = BundleFileDigest.sha256(path: bundle.path) else { return false }
        guard found.hex != release.sha256 || found.bytes != release.bytes else { return false }
        hashedBundles.remove(release.sha256)
        StoreFiles.remove(bundle.path)
        return true
    }
}
