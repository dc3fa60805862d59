import Foundation

/// The continuations of `releases()`' streams.
final class ReleaseListeners: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<BundleStore.Release>.Continuation] = [:]

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
