import CatalogModel
import Foundation

/// How far an update has come, for a progress bar: given to `update(progress:)`'s closure as
/// the bytes arrive (at most about once per hundredth of the file), then once as the downloaded
/// bundle is verified, and once as the update ends having installed it.
public struct UpdateProgress: Sendable, Equatable {
    /// What is being downloaded.
    public enum File: Sendable, Equatable {
        /// The release's bundle.
        case bundle
        /// A delta that makes the release's bundle from one the store holds (a fraction of
        /// the bundle's size).
        case delta
    }

    /// Where the update is.
    public enum Phase: Sendable, Equatable {
        /// Bytes arriving: `received` of `total`.
        case downloading
        /// The bundle is whole and is being opened as the app will open it (its identity,
        /// schema and `quick_check`): a second or more for a bundle of hundreds of megabytes,
        /// with no report in between. `file` is `.bundle`, `received` its size.
        case verifying
        /// Installed: `update()` returns next. The last report.
        case done
    }

    public var file: File
    /// The bytes of the file in the store so far (a resumed download counts what it had).
    public var received: Int
    /// The file's size, as the signed head declares it.
    public var total: Int
    /// Downloading, verifying or done.
    public var phase: Phase

    public init(file: File, received: Int, total: Int, phase: Phase = .downloading) {
        self.file = file
        self.received = received
        self.total = total
        self.phase = phase
    }

    /// `received` over `total`, from 0 to 1, for `ProgressView(value:)`.
    public var fraction: Double {
        total > 0 ? min(1, Double(received) / Double(total)) : 1
    }
}

extension BundleStore {
    /// The closure of the `update(progress:)` running in this task, read where a download
    /// starts (a task-local value: the steps between need not pass it on).
    @TaskLocal static var progress: (@Sendable (UpdateProgress) -> Void)?
}

/// Counts a download's bytes and tells the closure, if there is one, at each new hundredth
/// and at the end. The transport's callbacks come one at a time, but from its own thread.
final class ProgressReporter: Sendable {
    private let report: (@Sendable (UpdateProgress) -> Void)?
    private let file: UpdateProgress.File
    private let total: Int
    /// The bytes received, and the hundredth last told.
    private let counts = LockedValue((received: 0, told: -1))

    init(_ report: (@Sendable (UpdateProgress) -> Void)?, _ file: UpdateProgress.File, total: Int) {
        self.report = report
        self.file = file
        self.total = total
    }

    /// The download (re)starts at `offset`.
    func reach(_ offset: Int) {
        update { $0 = offset }
    }

    func add(_ count: Int) {
        update { $0 += count }
    }

    private func update(_ change: (inout Int) -> Void) {
        guard let report else { return }
        let (file, total) = (file, total)
        let progress: UpdateProgress? = counts.withLock { counts in
            change(&counts.received)
            let hundredth = total > 0 ? Int(Double(min(counts.received, total)) / Double(total) * 100) : 100
            guard hundredth != counts.told || counts.received == total else { return nil }
            counts.told = hundredth
            return UpdateProgress(file: file, received: counts.received, total: total)
        }
        if let progress { report(progress) }
    }
}
