import GRDB

/// Why a bundle could not be opened or read. Each case says what a person can do about it; what
/// is wrong with the file is kept as it was found (``BundleFailure``), its code for a program to
/// compare.
public enum CatalogBundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no file at the path.
    case fileMissing(path: String)
    /// The file is not a Café Digno bundle (not SQLite, or another application's database).
    case notABundle(path: String, reason: BundleFailure)
    /// The bundle was made for a newer schema than this library reads.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file is a bundle but damaged: truncated, corrupted, or failing its checks.
    case damaged(path: String, reason: BundleFailure)
    /// The task that asked was cancelled (a search replaced by the next keystroke, a screen
    /// left): nothing is wrong with the bundle, and nothing need be shown.
    case cancelled

    /// A message for a person.
    public var description: String {
        switch self {
        case .fileMissing(let path):
            "no bundle at '\(path)'"
        case .notABundle(let path, let reason):
            "'\(path)' is not a Café Digno bundle: \(reason)"
        case .newerSchema(let path, let found, let supported):
            "'\(path)' has schema version \(found), newer than the \(supported) this app reads; update the app"
        case .damaged(let path, let reason):
            "'\(path)' is damaged (\(reason)); download or install the bundle again"
        case .cancelled:
            "the read was cancelled"
        }
    }

    /// What is wrong with the file, for `notABundle` and `damaged`.
    public var failure: BundleFailure? {
        switch self {
        case .notABundle(_, let failure), .damaged(_, let failure): failure
        case .fileMissing, .newerSchema, .cancelled: nil
        }
    }
}
