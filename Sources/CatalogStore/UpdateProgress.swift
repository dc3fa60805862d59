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
        /// The bundle is whole and is being checked: first its SHA-256 against the signed one,
        /// `received` the bytes checked so far (reported from 0, each hundredth: half a second
        /// for a bundle of 400 MB); then, once `received` is its size, opened as the app will
        /// open it (its identity, schema and `quick_check`), with no report in between. `file`
        /// is `.bundle`.
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

    /// The SHA-256 of the release's bundle at `path` (`total` bytes), told to the progress
    /// closure as `.verifying` from 0 and at each new hundredth of the bytes read.
    static func checkedDigest(path: String, total: Int) -> (hex: String, bytes: Int)? {
        guard let report = progress else { return BundleFileDigest.sha256(path: path) }
        report(UpdateProgress(file: .bundle, received: 0, total: total, phase: .verifying))
        var told = 0
        return BundleFileDigest.sha256(path: path) { read in
            let hundredth = total > 0 ? Int(Double(min(read, total)) / Double(total) * 100) : 100
            guard hundredth > told, read < total else { return }
            told = hundredth
            report(UpdateProgress(file: .bundle, received: read, total: total, phase: .verifying))
        }
    }
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
