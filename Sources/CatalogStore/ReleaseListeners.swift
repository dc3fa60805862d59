import CatalogModel
import Foundation

/// The continuations of `releases()`' streams: one set per store folder in the process, so
/// that every `BundleStore` on a folder (the app's, a background refresh's) hears what any of
/// them installs.
final class ReleaseListeners: Sendable {
    private let continuations = LockedValue<[UUID: AsyncStream<BundleStore.Release>.Continuation]>([:])

    private static let byFolder = LockedValue<[String: ReleaseListeners]>([:])

    /// The listeners of the store folder at `path` (its absolute, standardized path, links
    /// resolved: two spellings of one folder are one).
    static func of(folder path: String) -> ReleaseListeners {
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return byFolder.withLock { byFolder in
            if let listeners = byFolder[key] { return listeners }
            let listeners = ReleaseListeners()
            byFolder[key] = listeners
            return listeners
        }
    }

    func add() -> AsyncStream<BundleStore.Release> {
        let (stream, continuation) = AsyncStream<BundleStore.Release>.makeStream()
        let id = UUID()
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func announce(_ release: BundleStore.Release) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(release) }
    }
}
