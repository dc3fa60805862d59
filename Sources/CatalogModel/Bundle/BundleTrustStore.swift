import Foundation

/// Remembers which bundle files passed their `quick_check`, so that the check runs once per
/// file rather than at every launch. A file is named by its content digest and size. An app
/// can keep the store in its preferences.
public protocol BundleTrustStore: Sendable {
    /// Whether the bundle file so named has been checked.
    func isVerified(_ identity: String) -> Bool
    /// Records that the bundle file so named passed its check.
    func markVerified(_ identity: String)
}

/// A trust store that lasts as long as the process.
public final class InMemoryTrustStore: BundleTrustStore, @unchecked Sendable {
    /// The process-wide store, the default.
    public static let shared = InMemoryTrustStore()
    private let lock = NSLock()
    private var verified: Set<String> = []

    /// An empty store.
    public init() {}

    public func isVerified(_ identity: String) -> Bool {
        lock.withLock { verified.contains(identity) }
    }

    public func markVerified(_ identity: String) {
        lock.withLock { _ = verified.insert(identity) }
    }
}
