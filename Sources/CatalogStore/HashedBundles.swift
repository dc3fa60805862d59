import CatalogModel
import Foundation

/// The SHA-256s of the installed bundles a store instance has hashed and found whole.
final class HashedBundles: Sendable {
    private let hashes = LockedValue<Set<String>>([])

    func contains(_ sha256: String) -> Bool { hashes.withLock { $0.contains(sha256) } }
    func insert(_ sha256: String) { _ = hashes.withLock { $0.insert(sha256) } }
    func remove(_ sha256: String) { _ = hashes.withLock { $0.remove(sha256) } }
}
