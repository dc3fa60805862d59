import CatalogModel
import Foundation
import GRDB

/// What `digno inspect` checks of the stored values that SQLite does not check in a file
/// opened read-only.
enum StoredValueChecks {
    /// `PRAGMA integrity_check`, and FTS5's integrity check of the search index, on a copy of
    /// the bundle in memory. Opened read-only, SQLite
    /// 3.40's integrity check does not test CHECK constraints (`sqlite3 -readonly` says ok of a
    /// name that is empty); on a writable connection it tests them and every NOT NULL. The
    /// copy is page for page (SQLite's backup), so every other finding is the file's own. It
    /// costs memory the size of the bundle, for as long as the check runs. Run only on a bundle
    /// whose schema is exactly `schema.sql`.
    static func integrityProblems(_ db: Database, bytes: Int) throws -> [String] {
        let copy = try DatabaseQueue()
        defer { try? copy.close() }
        return try copy.writeWithoutTransaction { memory in
            try db.backup(to: memory)
            // The CHECK constraints call json_valid(), which SQLite 3.40 refuses to run from a
            // schema it does not trust. This schema is trusted: it was checked to be exactly
            // schema.sql before the copy, so it has no view or trigger to run anything else.
            try memory.execute(sql: "PRAGMA trusted_schema = ON")
            return try QueryBound.wholeFile(bytes: bytes).run(memory) { memory in
                var problems: [String] = []
                let result = try DatabaseValue.fetchAll(memory, sql: "PRAGMA integrity_check").map(BundleChecks.shown)
                if result != ["ok"] {
                    problems.append("integrity_check: " + result.prefix(10).joined(separator: "; ") + (result.count > 10 ? "; and \(result.count - 10) more" : ""))
                }
                // SQLite 3.40's integrity check does not look inside FTS5's tables (3.44 does);
                // FTS5's own check compares the index with itself and its row counts.
                let indexes = try String.fetchAll(memory, sql: """
                    SELECT name FROM sqlite_schema WHERE name IN ('search', 'search_translated', 'search_letters') ORDER BY rowid
                    """)
                for index in indexes {
                    do {
                        try memory.execute(sql: "INSERT INTO \(index) (\(index), rank) VALUES ('integrity-check', 1)")
                    } catch {
                        problems.append("the search index \(index): \(BundleFailure(error))")
                    }
                }
                return problems
            }
        }
    }

    /// Every column whose values are not all of its declared type: text in an INTEGER column,
    /// an integer or a BLOB in a TEXT one, NULL where the column is NOT NULL. The tables are
    /// not STRICT, so SQLite stores whatever it is given; a reader that trusts the declared
    /// type misreads such a value. One scan per table.
    static func typeProblems(_ db: Database, version: Int) throws -> [String] {
        var problems: [String] = []
        for table in try tables(db, version: version) {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\" FROM pragma_table_info(?)", arguments: [table]).compactMap {
                row -> (name: String, allowed: [String])? in
                let name: String = try row.value("name"), type: String = try row.value("type"), notNull: Int = try row.value("notnull")
                guard let stored = storedType[type.uppercased()] else { return nil }
                return (name, notNull == 1 ? [stored] : [stored, "null"])
            }
            guard !columns.isEmpty else { continue }
            let sums = columns.map { column in
                "sum(typeof(\(quoted(column.name))) NOT IN (\(column.allowed.map { "'\($0)'" }.joined(separator: ", "))))"
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT \(sums.joined(separator: ", ")) FROM \(quoted(table))") else { continue }
            for (index, column) in columns.enumerated() {
                let wrong = (try? row.decode(Int?.self, atIndex: index)) ?? nil
                guard let wrong, wrong > 0 else { continue }
                let kind = column.allowed.count == 1 ? "\(column.allowed[0])" : "\(column.allowed[0]) or NULL"
                problems.append("column types: \(table).\(column.name) holds \(wrong) \(wrong == 1 ? "value" : "values") that \(wrong == 1 ? "is" : "are") not \(kind)")
            }
        }
        return problems
    }

    /// What `typeof()` gives for a value of each declared type.
    private static let storedType = ["TEXT": "text", "INTEGER": "integer", "REAL": "real", "BLOB": "blob"]

    /// The ordinary tables of the expected schema, the search index's own included.
    private static func tables(_ db: Database, version: Int) throws -> [String] {
        try BundleSchemaDefinition.expectedObjects(version: version)
            .filter { $0.type == "table" && !($0.sql ?? "").hasPrefix("CREATE VIRTUAL") }
            .map(\.name)
    }

    /// An identifier quoted for SQL.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
