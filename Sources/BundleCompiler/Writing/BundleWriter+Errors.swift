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
        guard let code else { return .output(path: bundle, reason: "\(error)") }
        if ResultCode(rawValue: code).primaryResultCode == .SQLITE_CONSTRAINT { return .bundleCheckFailed("\(error)") }
        // SQLite's message, in words a person running a build can act on; not the statement
        // it was running (a whole CREATE TABLE, for a disk that filled up early).
        let said = message ?? "SQLite error \(code)"
        let reason = switch ResultCode(rawValue: code).primaryResultCode {
        case .SQLITE_FULL: "the disk is full (\(said)); free some space and build again"
        case .SQLITE_CANTOPEN: "a file cannot be created in its folder (\(said)); check that the folder is writable"
        case .SQLITE_READONLY: "its folder or file system is read-only (\(said))"
        case .SQLITE_IOERR: "the disk reported an error (\(said)); check the disk and build again"
        default: message.map { "\($0) (SQLite error \(code))" } ?? said
        }
        return .output(path: bundle, reason: reason)
    }
}
