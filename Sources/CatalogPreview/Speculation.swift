import Foundation

/// A check of the content begun on a thread of its own as soon as a save is heard, while the
/// watcher waits for the quiet spell after it (`FolderEvents.wait(timeout:first:)`).
final class Speculation: @unchecked Sendable {
    // @unchecked Sendable: `checked` and `duration` are written once, before `done` is
    // signalled, and read after it.
    private let done = DispatchSemaphore(value: 0)
    private var checked: PreviewBuilder.Checked?
    private var duration = Duration.zero

    init(_ check: @escaping @Sendable () -> PreviewBuilder.Checked) {
        let thread = Thread { [self] in
            let started = ContinuousClock.now
            checked = check()
            duration = ContinuousClock.now - started
            done.signal()
        }
        thread.name = "digno preview: checking a save"
        thread.start()
    }

    /// How long the check took, once `wait` has returned.
    var took: Duration { duration }

    /// The check, once it is done.
    func wait() -> PreviewBuilder.Checked {
        done.wait()
        done.signal()
        return checked ?? .failed(.failed(PreviewBuilder.panel(failure: "the check did not finish"), text: ""))
    }
}
