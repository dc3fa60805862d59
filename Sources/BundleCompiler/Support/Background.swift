import Foundation

/// Work started on its own thread now, whose outcome `wait()` returns later: two independent
/// parts of a build run on the two cores at once. `Failure` is what the work may throw;
/// `Never` for work that cannot fail.
final class Background<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the worker thread before it signals `done`, read only after `wait`
    // has seen that signal: the semaphore orders the two accesses.
    private var outcome: Result<Value, Failure>?

    init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        let thread = Thread { [self] in
            outcome = Result(catching: work)
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Blocks until the work is done; its value, or the error it threw. Several threads may
    /// wait, each in turn passing the signal on.
    func wait() throws(Failure) -> Value {
        done.wait()
        done.signal()
        return try outcome!.get()
    }
}
