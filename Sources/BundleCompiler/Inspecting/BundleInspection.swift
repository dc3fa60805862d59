import CatalogModel
import Foundation
import GRDB

/// What `digno inspect` reports about a bundle file: its release, its contents, the space each
/// table takes, and the result of every check the compiler runs before publishing.
public struct BundleInspection: Codable, Equatable, Sendable {
    /// The file as given.
    public var file: String
    /// The file's size in bytes.
    public var bytes: Int
    /// The schema version (`PRAGMA user_version`).
    public var schemaVersion: Int
    /// The `bundle_info` entries: release version and date, content digest, generator, brand.
    public var info: [String: String]
    /// Rows per entity table.
    public var counts: [String: Int]
    /// Bytes used per table, indexes included (from SQLite's `dbstat`).
    public var tableBytes: [String: Int]
    /// The bytes of the stored images themselves.
    public var imageBytes: Int
    /// Every failed check; empty when the bundle is sound.
    public var problems: [String]

    /// Whether every check passed.
    public var isSound: Bool { problems.isEmpty }

    /// Why a file could not be inspected at all.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case notABundle(String, reason: String)

        public var description: String {
            switch self {
            case .missing(let path): "'\(path)' does not exist"
            case .notABundle(let path, let reason): "'\(path)' is not a readable Café Digno bundle: \(reason)"
            }
        }
    }

    /// Inspects the bundle at `path`, opened read-only.
    public static func inspect(_ path: String) throws(Failure) -> BundleInspection {
        switch BundleFileCheck.problem(at: path) {
        case .missing: throw .missing(path)
        case .notAFile(let reason), .damaged(let reason): throw .notABundle(path, reason: reason)
        case .notSQLite: throw .notABundle(path, reason: "it is not an SQLite database")
        case nil: break
        }
        guard let size = AtomicFile.size(path) else { throw .missing(path) }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                guard applicationID == BundleSchema.applicationID else {
                    throw Failure.notABundle(path, reason: "its application id is \(CatalogBundle.hex(applicationID)), not a Café Digno bundle's \(CatalogBundle.hex(BundleSchema.applicationID)) ('CDBG')")
                }
                let info = try Dictionary(Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info").map { ($0[0] as String, $0[1] as String) },
                                          uniquingKeysWith: { first, _ in first })
                var counts: [String: Int] = [:]
                for table in ["products", "recipes", "retailers", "promotions", "images", "recipe_products", "retailer_products"] {
                    counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
                }
                var tableBytes: [String: Int] = [:]
                let pages = try Row.fetchAll(db, sql: """
                    SELECT coalesce(m.tbl_name, d.name) AS owner, sum(d.pgsize) AS bytes
                    FROM dbstat AS d LEFT JOIN sqlite_master AS m ON m.name = d.name GROUP BY owner
                    """)
                for row in pages { tableBytes[row["owner"] as String] = row["bytes"] as Int }
                return BundleInspection(
                    file: path, bytes: size, schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, info: info,
                    counts: counts, tableBytes: tableBytes,
                    imageBytes: try Int.fetchOne(db, sql: "SELECT coalesce(sum(byte_count), 0) FROM images") ?? 0,
                    problems: try BundleChecks.problems(in: db))
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .notABundle(path, reason: "\(error)")
        }
    }

    /// The inspection for a person to read.
    public var text: String {
        var lines = [
            "file: \(file) (\(bytes) bytes)",
            "release: \(info["release_version"] ?? "?") of \(info["release_date"] ?? "?")",
            "schema version: \(schemaVersion)",
            "content digest: \(info["content_digest"] ?? "?")",
            "generator: \(info["generator"] ?? "?")",
            "counts: " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "),
            "images: \(imageBytes) bytes of image data",
            "space by table:",
        ]
        lines += tableBytes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "  \($0.key): \($0.value) bytes" }
        lines.append(problems.isEmpty ? "checks: integrity, foreign keys, relations: ok" : "checks FAILED:")
        lines += problems.map { "  \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The inspection as JSON, keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
