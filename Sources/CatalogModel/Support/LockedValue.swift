import Foundation

/// A value shared between threads, read and changed only inside `withLock`: the one lock type
/// of the client libraries' shared state. Shaped like swift-nio's `NIOLockedValueBox`, which
/// CatalogModel and CatalogStore cannot depend on (they build with Foundation, GRDB and
/// swift-crypto alone); `Synchronization.Mutex` would do, but needs iOS 18 and macOS 15. Like
/// that box, it is Sendable only where its value is: a value that is not cannot leave the
/// thread it was made on through it.
package final class LockedValue<Value> {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, which it may change, while no other thread can.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

// @unchecked Sendable: `value` is touched only inside `withLock`, under `lock`, and is itself
// Sendable, so what `withLock` hands out may cross threads.
extension LockedValue: @unchecked Sendable where Value: Sendable {}

extension LockedValue where Value: Sendable {
    /// The value as it is now.
    package var current: Value { withLock { $0 } }
}
