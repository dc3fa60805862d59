import Foundation

// Stand-ins for BackgroundTasks, which exists on iOS alone, so that the DocC article's
// background refresh (UpdatingArticleTests) is compiled and run here: the same type and member
// names and the signatures the article calls, and a scheduler that records what it is asked
// and launches a registered task when a test says so, as iOS would. What they cannot show: that
// iOS runs the task at all (it decides when, and not in the Simulator), the real types'
// `Sendable` annotations (the article imports BackgroundTasks with `@preconcurrency`, which
// these, declared in the tests' own module, cannot reproduce: they are `@unchecked Sendable`),
// and the Info.plist keys iOS requires.

class BGTaskRequest: @unchecked Sendable {
    let identifier: String
    var earliestBeginDate: Date?

    init(identifier: String) {
        self.identifier = identifier
    }
}

final class BGAppRefreshTaskRequest: BGTaskRequest, @unchecked Sendable {}

class BGTask: @unchecked Sendable {
    let identifier: String
    var expirationHandler: (() -> Void)?
    private let lock = NSLock()
    private var completions: [Bool] = []
    /// What `setTaskCompleted(success:)` was told, each time (iOS wants it once).
    var completed: [Bool] { lock.withLock { completions } }

    init(identifier: String) {
        self.identifier = identifier
    }

    func setTaskCompleted(success: Bool) {
        lock.withLock { completions.append(success) }
    }
}

final class BGAppRefreshTask: BGTask, @unchecked Sendable {}

final class BGTaskScheduler: @unchecked Sendable {
    static let shared = BGTaskScheduler()

    private let lock = NSLock()
    private var handlers: [String: (BGTask) -> Void] = [:]
    private var requests: [BGTaskRequest] = []

    /// As iOS's: false when the identifier is registered already.
    @discardableResult
    func register(forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void) -> Bool {
        lock.withLock {
            guard handlers[identifier] == nil else { return false }
            handlers[identifier] = launchHandler
            return true
        }
    }

    func submit(_ taskRequest: BGTaskRequest) throws {
        lock.withLock { requests.append(taskRequest) }
    }

    // For the tests: what iOS would know and do.

    /// The requests submitted, oldest first.
    var submitted: [BGTaskRequest] { lock.withLock { requests } }

    /// Runs the task registered for `identifier`, as iOS does at a time of its choosing.
    func launch(_ identifier: String) -> BGAppRefreshTask? {
        guard let handler = lock.withLock({ handlers[identifier] }) else { return nil }
        let task = BGAppRefreshTask(identifier: identifier)
        handler(task)
        return task
    }
}
