import Foundation

/// How the preview ended, once the server has stopped (nil) or failed to start (why).
final class PreviewFinished: @unchecked Sendable {
    // @unchecked Sendable: `isClaimed` is read and written under `lock`; the stream is Sendable.
    private let lock = NSLock()
    private var isClaimed = false
    // Holds the first outcome given until the command reads it; later ones are dropped.
    private let (outcomes, continuation) = AsyncStream.makeStream(of: CommandFailed?.self, bufferingPolicy: .bufferingOldest(1))

    /// True for the first caller only: the one that goes on to stop the server.
    func claim() -> Bool {
        lock.withLock {
            defer { isClaimed = true }
            return !isClaimed
        }
    }

    /// The first outcome given is the command's.
    func finish(_ failure: CommandFailed?) {
        continuation.yield(failure)
    }

    /// Waits for the first outcome.
    func outcome() async -> CommandFailed? {
        for await outcome in outcomes { return outcome }
        return nil
    }
}
