import CatalogContent
import CatalogModel
import Foundation
import GRDB

/// Runs `digno inspect`'s checks on one bundle file, in the order that keeps each safe: the
/// file before SQLite opens it, the identity and the schema before any table is read, and
/// every query under `QueryBound`, so that no bundle can crash or hang the inspection.
struct BundleInspector {
    var path: String
    var manifestPath: String?

    /// The entity tables whose rows are counted.
    static let countedTables = ["products", "recipes", "retailers", "promotions", "images", "recipe_products", "retailer_products"]

    func inspect() throws(BundleInspection.Failure) -> BundleInspection {
        switch BundleFileCheck.failure(at: path) {
        case .missing: throw .missing(path)
        case .notAFile(let reason), .damaged(let reason): throw .notABundle(path, reason: reason)
        case .notSQLite: throw .notABundle(path, reason: BundleFailure(.notSQLite, "it is not an SQLite database"))
        case nil: break
        }
        let manifest = try ManifestComparison.load(explicit: manifestPath, besideBundle: path)
        guard let digest = BundleFileDigest.sha256(path: path) else { throw .notABundle(path, reason: BundleFailure(.unreadable, "it cannot be read to the end")) }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: CatalogBundle.configuration(label: "digno inspect"))
        } catch {
            throw .notABundle(path, reason: BundleFailure(error))
        }
        defer { try? queue.close() }
        var inspection = BundleInspection(
            file: path, bytes: digest.bytes, sha256: digest.hex, manifest: manifest?.path, schemaVersion: 0, info: [:], counts: [:],
            tableBytes: [:], imageBytes: 0, problems: [])
        do {
            try queue.read { db in try QueryBound.wholeFile(bytes: digest.bytes).run(db) { db in try examine(db, into: &inspection) } }
        } catch let failure as BundleInspection.Failure {
            throw failure
        } catch let error as CatalogBundleError {
            throw .notABundle(path, reason: BundleFailure(error))
        } catch {
            inspection.problems.append("the checks stopped: \(BundleFailure(error))")
        }
        if let manifest {
            inspection.problems += manifest.problems(bundle: inspection)
        }
        return inspection
    }

    /// The checks inside the file, each recorded in `inspection`.
    private func examine(_ db: Database, into inspection: inout BundleInspection) throws {
        do {
            try CatalogBundle.checkIdentity(db, path: path)
        } catch {
            switch error {
            case .notABundle(_, let reason):
                throw BundleInspection.Failure.notABundle(path, reason: reason)
            case .newerSchema(_, let found, let supported):
                throw BundleInspection.Failure.notABundle(path, reason: BundleFailure(.other, "its schema version \(found) is newer than the \(supported) this digno reads"))
            case .fileMissing, .damaged, .cancelled:
                throw error
            }
        }
        inspection.schemaVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        // Only informative: a page dbstat cannot read is for the integrity check to name.
        inspection.tableBytes = (try? Self.tableBytes(db)) ?? [:]
        // Only the file's structure is read until the schema is known to be a bundle's: a view
        // in a table's place, or a trigger, would run with every query of it.
        let differences = try BundleSchemaDefinition.differences(in: db, version: inspection.schemaVersion)
        if !differences.isEmpty {
            inspection.problems += differences.map { "schema: \($0)" }
            inspection.problems.append("the other checks were not run: the schema is not a bundle's, so no table can be read safely")
            return
        }
        inspection.problems += try Self.headerProblems(db, version: inspection.schemaVersion)
        inspection.info = try Self.info(db)
        for table in Self.countedTables + (inspection.schemaVersion >= 4 ? ["renditions"] : []) {
            inspection.counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        }
        inspection.imageBytes = try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(bytes)), 0) FROM images") ?? 0
        if inspection.schemaVersion >= 4 {
            inspection.imageBytes += try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(bytes)), 0) FROM renditions") ?? 0
        }
        inspection.problems += try StoredValueChecks.integrityProblems(db, bytes: inspection.bytes)
        inspection.problems += try StoredValueChecks.typeProblems(db, version: inspection.schemaVersion)
        do {
            _ = try ReleaseInfo(db, schemaVersion: inspection.schemaVersion)
        } catch {
            inspection.problems.append("\(error)")
        }
        inspection.problems += try BundleChecks.ruleProblems(in: db)
        if inspection.problems.isEmpty {
            inspection.problems += appReadingProblems(contentDigest: inspection.info["content_digest"] ?? "", bytes: inspection.bytes)
        }
    }

    /// What the app meets reading every screen of the bundle through CatalogModel, which
    /// decodes each value as the app does (rich text from its JSON, days, ids, coordinates).
    /// Run last, on a bundle that passed every other check: it is the one that reads each
    /// row's values rather than their storage.
    private func appReadingProblems(contentDigest: String, bytes: Int) -> [String] {
        // The integrity check above is a superset of the quick check CatalogBundle runs first.
        let trust = InMemoryTrustStore()
        trust.markVerified("\(contentDigest):\(bytes)")
        do {
            let bundle = try CatalogBundle(path: path, trust: trust)
            try bundle.readEveryScreen(on: bundle.release.releaseDate)
            // And every promotion, on whatever day it runs: the whole catalogue, as the rules read it.
            _ = try bundle.catalog()
            return []
        } catch {
            switch error {
            case .damaged(_, let reason): return ["the app cannot read it: \(reason)"]
            default: return ["the app cannot read it: \(error)"]
            }
        }
    }

    /// Schema cookie and text encoding: what the header says of how the file was made.
    private static func headerProblems(_ db: Database, version: Int) throws -> [String] {
        var problems: [String] = []
        let cookie = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        let expected = BundleSchema.schemaCookie(version: version)
        if cookie != expected {
            problems.append("schema: its schema cookie (PRAGMA schema_version) is \(cookie), not the \(expected) a build writes: its schema was changed after the build")
        }
        let encoding = try String.fetchOne(db, sql: "PRAGMA encoding") ?? "?"
        if encoding != "UTF-8" { problems.append("its text encoding is \(encoding), not UTF-8") }
        return problems
    }

    /// The `bundle_info` entries, each read as what it may be.
    private static func info(_ db: Database) throws -> [String: String] {
        var info: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info") {
            info[BundleChecks.shown(try row.value("key"))] = BundleChecks.shown(try row.value("value"))
        }
        return info
    }

    /// Bytes per table, indexes counted with their table, from SQLite's `dbstat`, which reads
    /// the file's pages and none of its views or triggers.
    private static func tableBytes(_ db: Database) throws -> [String: Int] {
        var bytes: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT coalesce(m.tbl_name, d.name) AS owner, sum(d.pgsize) AS bytes
            FROM dbstat AS d LEFT JOIN sqlite_schema AS m ON m.name = d.name GROUP BY owner
            """) {
            bytes[BundleChecks.shown(try row.value("owner"))] = (try? row.value("bytes", as: Int.self)) ?? 0
        }
        return bytes
    }
}
