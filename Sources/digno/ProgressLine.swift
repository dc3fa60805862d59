import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shows what a long build is doing, on one line of standard error that is rewritten in place:
/// only on a terminal, only once the build has taken more than a second, and never with
/// `--quiet`. Cleared before anything else is printed.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let started = ContinuousClock.now
    private var stage = ""
    private var shown = false
    private var timer: DispatchSourceTimer?

    init(enabled: Bool) {
        guard enabled, isatty(STDERR_FILENO) == 1 else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "digno.progress"))
        timer.schedule(deadline: .now() + 1, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// The stage that just started.
    func update(_ stage: String) {
        lock.withLock { self.stage = stage }
    }

    /// Writes `text` to standard error above the progress line, which comes back on the next tick.
    func writeAbove(_ text: String) {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Stops and erases the line.
    func finish() {
        timer?.cancel()
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }

    private func draw() {
        lock.withLock {
            let elapsed = (ContinuousClock.now - started).components.seconds
            FileHandle.standardError.write(Data("\r\u{1B}[Kdigno: \(stage)… \(elapsed) s".utf8))
            shown = true
        }
    }
}
