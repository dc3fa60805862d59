import GRDB

/// What is wrong with a bundle file, kept as it was found rather than flattened into words: a
/// code that a program compares (`code`), SQLite's extended result code when SQLite failed
/// (`sqliteCode`: `SQLITE_CORRUPT` is 11, `SQLITE_NOTADB` 26, `SQLITE_IOERR_SHORT_READ` 522),
/// the column holding a value that is not what it may be (`column`), and words for a person
/// (`description`).
public struct BundleFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure, stable across releases of this library.
    public enum Code: String, Hashable, Sendable {
        /// A folder, a named pipe, a device, or a file that cannot be read.
        case notAFile
        /// Not an SQLite database.
        case notSQLite
        /// An SQLite database of another application (its `application_id`).
        case applicationID
        /// A bundle of a schema older than any this library reads.
        case olderSchema
        /// The file ends inside its 100-byte header.
        case header
        /// In WAL mode: a bundle never is.
        case journalMode
        /// A non-empty `-journal` file beside it: a program was changing it and stopped.
        case journal
        /// Its size is not its header's page count times its page size.
        case size
        /// It cannot be read to the end.
        case unreadable
        /// Its SHA-256 is not the one expected.
        case digest
        /// Its tables, views, triggers or indexes are not its schema version's.
        case schema
        /// SQLite's `quick_check` found its structure broken.
        case integrity
        /// SQLite failed to read it (`sqliteCode` says how).
        case sqlite
        /// A stored value is not what its column may hold (`column` names it).
        case value
        /// A read did not finish within the bound of SQLite steps: the data makes it loop.
        case queryBound
        /// What it holds contradicts itself (a screen shows an image it does not hold).
        case content
        /// An error of another kind, kept in words.
        case other
    }

    public let code: Code
    /// SQLite's extended result code, when SQLite failed.
    public let sqliteCode: Int32?
    /// The column of the value, for `.value`.
    public let column: String?
    /// What is wrong, in words.
    public let message: String

    public var description: String { message }

    package init(_ code: Code, _ message: String, sqliteCode: Int32? = nil, column: String? = nil) {
        self.code = code
        self.message = message
        self.sqliteCode = sqliteCode
        self.column = column
    }

    /// The failure an error met while reading a bundle shows: the query bound's, SQLite's (with
    /// its result code), a stored value's (with its column), or one found already.
    package init(_ error: any Error, bound: QueryBound = .standard) {
        let database = error as? DatabaseError
        if QueryBound.stopped(error) {
            self.init(.queryBound, bound.reason, sqliteCode: database?.extendedResultCode.rawValue)
        } else if let database {
            self.init(.sqlite, (database.message ?? "SQLite error \(database.resultCode.rawValue)").showingInvisibles,
                      sqliteCode: database.extendedResultCode.rawValue)
        } else if let value = error as? BundleValueError {
            self.init(.value, value.description, column: value.column)
        } else if let failure = error as? BundleFailure {
            self = failure
        } else if let bundle = error as? CatalogBundleError, let failure = bundle.failure {
            self = failure
        } else {
            self.init(.other, "\(error)")
        }
    }
}
