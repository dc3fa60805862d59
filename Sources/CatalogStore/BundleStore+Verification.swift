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
        if verifiedBundles.contains(release.sha256) { return true }
        guard let found = BundleFileDigest.sha256(path: bundlePath(release.sha256)) else { return nil }
        guard found.hex == release.sha256, found.bytes == release.bytes else { return false }
        verifiedBundles.insert(release.sha256)
        return true
    }

    /// Removes each installed bundle whose bytes are no longer the signed ones, so that
    /// `current()` stops serving it and falls back to the other one or the seed, and the
    /// update repairs it (from a delta on a bundle it still holds, or whole). Before the head is
    /// fetched: an app that is offline stops serving a damaged bundle too.
    func removeDecayedBundles(_ state: StoreState) {
        for release in state.installed where StoreFiles.size(bundlePath(release.sha256)) != nil {
            if holdsSignedBytes(release) == false { StoreFiles.remove(bundlePath(release.sha256)) }
        }
    }
}

/// The SHA-256s of the installed bundles a store instance has hashed and found whole.
final class VerifiedBundles: @unchecked Sendable {
    // @unchecked Sendable: `hashes` is read and written under `lock`.
    private let lock = NSLock()
    private var hashes: Set<String> = []

    func contains(_ sha256: String) -> Bool { lock.withLock { hashes.contains(sha256) } }
    func insert(_ sha256: String) { _ = lock.withLock { hashes.insert(sha256) } }
}
