import Foundation

/// Runs the preview listener's tasks on three threads of its own rather than on Swift's
/// cooperative pool, so that the preview answers however busy the pool is: in a process whose
/// other work holds the pool's threads for seconds (a test suite's synchronous tests; an app
/// embedding the server), requests waited for it, up to URLSession's 60 s. Written by hand: no
/// package here provides a `TaskExecutor` on threads.
final class ListenerExecutor: TaskExecutor, @unchecked Sendable {
    // Under `condition`: the jobs waiting, in order.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Starts `threads` threads, which live as long as the process: the listener's are few and
    /// idle between requests.
    init(threads: Int = 3, name: String = "digno preview listener") {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    /// The one executor every preview listener of the process uses.
    static let shared = ListenerExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func run() {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
