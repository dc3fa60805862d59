import GRDB
import GRDBSQLite

/// A bound on the work one read of a bundle may do, so that no bundle can make a query spin:
/// a view with a recursive CTE, or damage that makes SQLite loop, ends in an error rather than
/// a hang. SQLite calls a connection's progress handler every `interval` instructions of its
/// virtual machine and interrupts the statement when the handler says so
/// (https://www.sqlite.org/c3ref/progress_handler.html).
///
/// Counted in instructions rather than seconds, so that a bound holds the same on a slow phone
/// and a fast laptop, and a test of it is repeatable. Written by hand: GRDB offers
/// `interrupt()`, which needs a second thread and a clock, but no progress handler.
package struct QueryBound: Sendable {
    /// The most virtual-machine instructions one read may run.
    package var instructions: Int

    /// How often SQLite calls the handler, in instructions.
    static let interval: Int32 = 1_000

    /// The bound every read of `CatalogBundle` runs under: 200 million instructions, about 3 s
    /// of SQLite's work on the development machine (a recursive CTE counting to 20 million
    /// takes 320 million in 4.8 s). Measured on a bundle of 100,000 entities (172 MB): the
    /// first open's `quick_check` takes 6.1 million, a search matching every name 1.5 million,
    /// every retailer row with what it sells 1 million; so the bound leaves room for bundles
    /// some 30 times larger.
    package static let standard = QueryBound(instructions: 200_000_000)

    /// A bound for work that reads a whole file, as `digno inspect`'s checks together do:
    /// the standard bound and 5,000 instructions more for each 16 KiB of the file. They take
    /// about 30 million instructions on the 100,000-entity bundle (the integrity check of its
    /// copy 15 million, the foreign key check 3.3 million), 2,900 for each of its 10,520 pages.
    package static func wholeFile(bytes: Int) -> QueryBound {
        QueryBound(instructions: standard.instructions + bytes / 16_384 * 5_000)
    }

    package init(instructions: Int) {
        self.instructions = instructions
    }

    /// Runs `body` with the bound on `db`'s connection; a statement that reaches it fails with
    /// `SQLITE_INTERRUPT`.
    package func run<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        let remaining = Remaining(max(1, instructions / Int(Self.interval)))
        let connection = db.sqliteConnection
        sqlite3_progress_handler(connection, Self.interval, { context in
            guard let context else { return 1 }
            let remaining = Unmanaged<Remaining>.fromOpaque(context).takeUnretainedValue()
            remaining.calls -= 1
            return remaining.calls < 0 ? 1 : 0
        }, Unmanaged.passUnretained(remaining).toOpaque())
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        return try withExtendedLifetime(remaining) { try body(db) }
    }

    /// Whether an error is SQLite's for a statement this bound stopped.
    package static func stopped(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
    }

    /// The reason a stopped read gives.
    package var reason: String {
        "a query did not finish within \(instructions / 1_000_000) million steps: the bundle's schema or data makes it loop"
    }
}

/// The handler calls left to a read; the progress handler's context.
private final class Remaining {
    var calls: Int
    init(_ calls: Int) { self.calls = calls }
}
