import Foundation

/// The continuations of `releases()`' streams: one set per store folder in the process, so
/// that every `BundleStore` on a folder (the app's, a background refresh's) hears what any of
/// them installs.
final class ReleaseListeners: @unchecked Sendable {
    // @unchecked Sendable: `continuations` and `byFolder` are used under their locks only.
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<BundleStore.Release>.Continuation] = [:]

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var byFolder: [String: ReleaseListeners] = [:]

    /// The listeners of the store folder at `path` (its absolute, standardized path, links
    /// resolved: two spellings of one folder are one).
    static func of(folder path: String) -> ReleaseListeners {
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return registryLock.withLock {
            if let listeners = byFolder[key] { return listeners }
            let listeners = ReleaseListeners()
            byFolder[key] = listeners
            return listeners
        }
    }

    func add() -> AsyncStream<BundleStore.Release> {
        let (stream, continuation) = AsyncStream<BundleStore.Release>.makeStream()
        let id = UUID()
        lock.withLock { continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func announce(_ release: BundleStore.Release) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(release) }
    }
}
