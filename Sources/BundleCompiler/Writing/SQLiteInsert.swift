import GRDB
import GRDBSQLite

/// One prepared INSERT on the scratch database's connection, bound with SQLite's C API.
///
/// Written by hand on purpose: a 100,000-entity build runs about 700,000 inserts, and GRDB's
/// `Statement.execute(arguments:)` converts every value to a `DatabaseValue` and checks the
/// arguments on every call, which cost about as much as SQLite's own work. Here a value goes
/// from the Swift string straight to `sqlite3_bind_text`. Used inside `BundleWriter`'s one transaction
/// and a preview's patch (`BundleRows`), on the thread that owns the connection.
final class SQLiteInsert {
    /// A value to bind.
    enum Value {
        case text(String)
        /// Text given as UTF-8 bytes the caller knows to be valid.
        case utf8([UInt8])
        case integer(Int)
        case real(Double)
        case blob([UInt8])
        case null

        static func text(_ value: String?) -> Value { value.map(Value.text) ?? .null }
        static func real(_ value: Double?) -> Value { value.map(Value.real) ?? .null }
    }

    /// An SQLite error, with the statement it came from.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var sql: String
        var description: String { "SQLite error \(code): \(message) (in \(sql))" }
    }

    private let connection: OpaquePointer
    private let statement: OpaquePointer
    private let sql: String

    init(_ db: Database, _ sql: String) throws(Failure) {
        guard let connection = db.sqliteConnection else { throw Failure(code: SQLITE_MISUSE, message: "the database is closed", sql: sql) }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw Failure(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.connection = connection
        self.statement = statement
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds `values` to the parameters in order, runs the insert and resets the statement.
    /// Always inlined, so that the optimizer can keep the variadic array on the stack rather
    /// than allocating one per row.
    @inline(__always)
    func callAsFunction(_ values: Value...) throws(Failure) {
        try run(values)
    }

    /// Binds `values` to the parameters in order, runs the statement (an insert, or any other
    /// that returns no rows) and resets it.
    @inline(__always)
    func run(_ values: [Value]) throws(Failure) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .text(let text):
                // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
                code = text.withCString { sqlite3_bind_text(statement, index, $0, Int32(text.utf8.count), SQLITE_TRANSIENT) }
            case .utf8(let bytes):
                // An empty array may have no storage; SQLite wants a pointer even for no bytes.
                code = bytes.isEmpty ? sqlite3_bind_text(statement, index, "", 0, SQLITE_TRANSIENT)
                    : bytes.withUnsafeBytes { sqlite3_bind_text(statement, index, $0.baseAddress!.assumingMemoryBound(to: CChar.self), Int32($0.count), SQLITE_TRANSIENT) }
            case .integer(let number): code = sqlite3_bind_int64(statement, index, Int64(number))
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            try check(code)
        }
        let stepped = sqlite3_step(statement)
        defer { sqlite3_reset(statement) }
        if stepped != SQLITE_DONE { try check(stepped) }
    }

    private func check(_ code: Int32) throws(Failure) {
        guard code != SQLITE_OK else { return }
        throw Failure(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}

/// SQLite's "copy the value now" destructor, which the C macro SQLITE_TRANSIENT is.
private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
