import CatalogModel
import GRDB

/// A failure while writing, as the `BuildError` a person running the build sees.
extension BundleWriter {
    /// A failure while writing: a row that breaks a constraint is a defect of the compiler
    /// (validation should have refused its content); anything else, such as a full disk, is
    /// the output's.
    static func buildError(_ error: any Error, writing bundle: String) -> BuildError {
        let (code, message): (Int32?, String?) = switch error {
        case let failure as SQLiteInsert.Failure: (failure.code, failure.message)
        case let failure as DatabaseError: (failure.extendedResultCode.rawValue, failure.message)
        default: (nil, nil)
        }
        guard let code else { return .output(path: bundle, reason: "the bundle cannot be written", cause: ErrorCause(error)) }
        // SQLite's message, in words a person running a build can act on; not the statement
        // it was running (a whole CREATE TABLE, for a disk that filled up early).
        let cause = ErrorCause(code: "sqlite:\(code)", message: message ?? "SQLite error \(code)")
        let primary = ResultCode(rawValue: code).primaryResultCode
        if primary == .SQLITE_CONSTRAINT { return .bundleCheckFailed("a row breaks a constraint", cause: cause) }
        let reason = switch primary {
        case .SQLITE_FULL: "the disk is full; free some space and build again"
        case .SQLITE_CANTOPEN: "a file cannot be created in its folder; check that the folder is writable"
        case .SQLITE_READONLY: "its folder or file system is read-only"
        case .SQLITE_IOERR: "the disk reported an error; check the disk and build again"
        default: "SQLite failed (error \(code))"
        }
        return .output(path: bundle, reason: reason, cause: cause)
    }
}
