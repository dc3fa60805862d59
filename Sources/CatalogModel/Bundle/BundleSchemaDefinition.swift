import Foundation
import GRDB

/// The schema a bundle of each readable version has, exactly: `schema.sql` (version 2),
/// `schema.sql` then `schema-3.sql` (version 3), and those then `schema-4.sql` (version 4),
/// embedded at build time. The compiler creates a
/// bundle's tables from them; a reader checks a bundle's `sqlite_schema` against its version's
/// before reading anything else, so that no extra table, view, trigger or index, and no table
/// replaced by a view, can change what a query does.
package enum BundleSchemaDefinition {
    /// The SQL that creates every table of schema 2, `schema.sql`.
    package static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)
    /// What schema 3 adds to it, `schema-3.sql`: the catalogue's languages.
    package static let languagesSQL = String(decoding: PackageResources.schema_3_sql, as: UTF8.self)
    /// What schema 4 adds to schema 3, `schema-4.sql`: the pictures' renditions.
    package static let renditionsSQL = String(decoding: PackageResources.schema_4_sql, as: UTF8.self)

    /// The SQL that creates every table of `version` (2, 3 or 4).
    package static func sql(version: Int) -> String {
        ([sql] + (version >= 3 ? [languagesSQL] : []) + (version >= 4 ? [renditionsSQL] : [])).joined(separator: "\n")
    }

    /// One row of `sqlite_schema`, without its root page (which depends on the file's layout).
    package struct Object: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// `table`, `index`, `view` or `trigger`.
        package var type: String
        /// Its name.
        package var name: String
        /// The table it belongs to (its own name for a table).
        package var table: String
        /// The SQL that created it; nil for the indexes SQLite makes for UNIQUE and PRIMARY KEY.
        package var sql: String?

        package static func < (a: Object, b: Object) -> Bool {
            (a.name, a.type, a.table, a.sql ?? "") < (b.name, b.type, b.table, b.sql ?? "")
        }

        /// Such as "table 'products'".
        package var description: String { "\(type) '\(name.showingInvisibles)'" }
    }

    /// The objects each version's SQL creates, as SQLite records them: found by running it on
    /// an empty database in memory, so that the SQL FTS5 writes for its own tables is this
    /// SQLite's.
    package static let expectedObjectsByVersion: [Int: Result<[Object], DatabaseError>] = {
        var byVersion: [Int: Result<[Object], DatabaseError>] = [:]
        for version in CatalogBundle.readableSchemaVersions {
            do {
                let queue = try DatabaseQueue()
                byVersion[version] = .success(try queue.write { db in
                    try db.execute(sql: sql(version: version))
                    return try objects(in: db)
                })
            } catch let error as DatabaseError {
                byVersion[version] = .failure(error)
            } catch {
                byVersion[version] = .failure(DatabaseError(message: "\(error)"))
            }
        }
        return byVersion
    }()

    /// The objects `version`'s SQL creates.
    package static func expectedObjects(version: Int) throws -> [Object] {
        guard let objects = expectedObjectsByVersion[version] else { throw DatabaseError(message: "no schema version \(version)") }
        return try objects.get()
    }

    /// The objects of a database's `sqlite_schema`, sorted, each value read as what it may be.
    package static func objects(in db: Database) throws -> [Object] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema").map { row in
            Object(type: try row.value("type"), name: try row.value("name"), table: try row.value("tbl_name"), sql: try row.value("sql"))
        }.sorted()
    }

    /// How a database's schema differs from the expected one, in words, at most `limit` of
    /// them; empty when it is exactly the expected one.
    package static func differences(in db: Database, version: Int, limit: Int = 10) throws -> [String] {
        let expected = try expectedObjects(version: version)
        let found = try objects(in: db)
        let expectedByName = Dictionary(expected.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Names in sqlite_schema are unique, so the first of a name is the only one.
        let foundByName = Dictionary(found.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for object in expected {
            guard let other = foundByName[object.name] else {
                differences.append("\(object) is missing")
                continue
            }
            if other.type != object.type {
                differences.append("'\(object.name.showingInvisibles)' is a \(other.type.showingInvisibles), not a \(object.type)")
            } else if other != object {
                differences.append("\(object) is not defined as schema version \(version) defines it")
            }
        }
        for object in found where expectedByName[object.name] == nil {
            differences.append("an extra \(object), which a bundle does not have")
        }
        return differences.count > limit ? differences.prefix(limit) + ["and \(differences.count - limit) more"] : differences
    }
}
