import CatalogContent
import CatalogModel
import Foundation
import GRDB

/// The preview's own bundle: written whole once, then kept open and patched in place from one
/// valid catalogue to the next (`BundlePatch`), in one transaction each: the changed entities'
/// rows deleted and inserted again, their search rows deleted with the texts they were indexed
/// with (which the last catalogue holds) and inserted with the new, the pictures no longer
/// used removed and the new ones added. It never publishes: no compaction, integrity check or
/// hash. What cannot be patched (other languages, another schema, a failed patch: a damaged
/// file) is written whole again, and `patch(to:)` says so.
///
/// The database is in WAL mode while it is patched, so that a page being read never waits for a
/// patch nor a patch for a page: readers open it with `CatalogBundle(patchedAt:)`.
package final class PatchableBundle: @unchecked Sendable {
    // @unchecked Sendable: every stored property below is read and written under `lock`
    // (`patch(to:)`, `close()` and `path` take it; the private methods run inside them).
    private let lock = NSLock()
    /// The folder its files are in.
    package let folder: String
    /// The database's path: a new one each time it is written whole (`preview-1.sqlite`,
    /// `preview-2.sqlite`…), never the same name for another file, so that a reader still at
    /// the one before (and at its `-wal` and `-shm` files, which SQLite finds by name) is never
    /// led into the new one's. The caller removes the old files once no reader is at them
    /// (`files(ofBundle:)`).
    package var path: String { lock.withLock { currentPath } }
    private var currentPath: String
    /// The bundle schema written.
    package let schemaVersion: Int
    private var queue: DatabaseQueue?
    private var content: WrittenContent?
    private var written = 0

    /// What a patch did.
    package enum Outcome: Equatable, Sendable {
        /// Nothing a bundle holds changed.
        case unchanged
        /// Patched: how many entities' rows were written again (changed, added, removed or
        /// moved in their list), how many search rows, and
        /// whether the lists were ordered again.
        case patched(entities: Int, searchRows: Int, reordered: Bool)
        /// Written whole, and why (nil: the first time).
        case rebuilt(reason: String?)
    }

    /// A bundle of `schemaVersion` in `folder`, not written yet: the first `patch(to:)` writes it
    /// whole.
    package init(folder: String, schemaVersion: Int = BundleSchema.version) {
        self.folder = folder
        self.schemaVersion = schemaVersion
        currentPath = Self.path(in: folder, number: 0)
    }

    private static func path(in folder: String, number: Int) -> String {
        folder + "/preview-\(number).sqlite"
    }

    /// A database's files: itself and, while it is open in WAL mode, its `-wal` and `-shm`.
    package static func files(ofBundle path: String) -> [String] {
        [path, path + "-wal", path + "-shm"]
    }

    /// Makes the bundle hold `report`'s catalogue (a valid report's): patched when it can be,
    /// else written whole. A failed patch leaves the bundle as it was, and it is written whole.
    package func patch(to report: ValidationReport) throws(BuildError) -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        return try patchLocked(to: report)
    }

    private func patchLocked(to report: ValidationReport) throws(BuildError) -> Outcome {
        guard report.isValid, let validated = report.catalog else { throw .contentInvalid(errors: max(report.errorCount, 1)) }
        let catalog = schemaVersion >= 3 ? validated : validated.defaultLanguageOnly
        let images = BundleImages(pictures: report.pictures)
        let info = BundleBuilder.info(catalog, schema: schemaVersion, digest: ContentDigest.compute(files: report.fileDigests, images: images),
                                      releaseVersion: nil)
        guard let queue, let content else {
            try write(catalog, images: images, info: info)
            return .rebuilt(reason: nil)
        }
        let reason: String
        do {
            let (patch, next) = try BundlePatch.between(content, catalog, images: images, info: info, schema: schemaVersion)
            guard !patch.isEmpty else {
                self.content = next
                return .unchanged
            }
            do {
                try queue.inTransaction { db in
                    try Self.apply(patch, db, from: content, to: next, schema: schemaVersion)
                    return .commit
                }
                self.content = next
                return .patched(entities: Set(patch.inserted.map(\.entity) + patch.deleted).count, searchRows: patch.searchRows.reduce(0) { $0 + $1.rows.count },
                                reordered: patch.reordered)
            } catch {
                reason = "the patch failed (\(error))"
            }
        } catch {
            reason = error.description
        }
        try write(catalog, images: images, info: info)
        return .rebuilt(reason: reason)
    }

    /// Closes the database; the next `patch(to:)` writes it whole.
    package func close() {
        lock.withLock { closeLocked() }
    }

    private func closeLocked() {
        try? queue?.close()
        queue = nil
        content = nil
    }

    /// Writes the bundle whole, as a build writes it, into a new file (the next number), and
    /// opens it for patching. A failure leaves the file before as it was, and the next patch
    /// writes whole again.
    private func write(_ catalog: Catalog, images: BundleImages, info: [String: String]) throws(BuildError) {
        closeLocked()
        let lists = BundleWriter.Lists(ordering: catalog)
        let writer = BundleWriter(catalog: catalog, lists: lists, images: images, info: info, schemaVersion: schemaVersion)
        let path = Self.path(in: folder, number: written + 1)
        let temporary = AtomicFile.temporaryPath(for: path)
        try? AtomicFile.remove(temporary)
        do {
            try writer.write(into: temporary, scratch: AtomicFile.scratchPath(for: path)) { _ in }
            guard rename(temporary, path) == 0 else {
                throw BuildError.output(path: path, reason: "the new bundle could not be put in place", cause: ErrorCause(errno: errno))
            }
            written += 1
            currentPath = path
            var configuration = Configuration()
            // Checked as a build checks them, once the patch's rows are in: not at each insert
            // (a patch deletes an entity before inserting it again, in any order).
            configuration.foreignKeysEnabled = false
            configuration.label = "digno.patchable"
            configuration.prepareDatabase { db in
                // Never published, so never synced: a crash leaves a bundle written whole again.
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF")
            }
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as BuildError {
            try? AtomicFile.remove(temporary)
            throw error
        } catch {
            try? AtomicFile.remove(temporary)
            throw BuildError.output(path: path, reason: "\(error)")
        }
        content = WrittenContent(catalog: catalog, images: images, info: info, orders: WrittenContent.orders(of: catalog))
    }

    /// Carries `patch` out in `db`'s open transaction.
    private static func apply(_ patch: BundlePatch, _ db: Database, from old: WrittenContent, to new: WrittenContent, schema: Int) throws {
        let rows = BundleRows(db, images: new.images, schemaVersion: schema)
        for (key, value) in patch.info {
            try rows.deleteInfo(key)
            try rows.info(key, value)
        }
        for entity in patch.deleted { try rows.delete(entity) }
        for sha256 in patch.picturesRemoved { try rows.deletePicture(sha256) }
        for sha256 in patch.picturesAdded { try rows.picture(sha256) }
        let catalog = new.catalog
        let entities = EntitiesByID(catalog)
        let others = catalog.languages.translated
        for placed in patch.inserted {
            let reference = placed.entity
            let entity: any ContentEntity
            switch reference.kind {
            case .catalog: continue
            case .section:
                guard let section = catalog.sections.first(where: { $0.id.rawValue == reference.id }) else { continue }
                try rows.section(section, position: placed.position)
                entity = section
            case .home:
                try rows.home(catalog.home)
                entity = catalog.home
            case .promotion:
                guard let promotion = catalog.home.promotions.first(where: { $0.id.rawValue == reference.id }) else { continue }
                try rows.promotion(promotion, position: placed.position)
                entity = promotion
            case .company:
                try rows.company(catalog.company)
                entity = catalog.company
            case .product:
                guard let product = entities.product(reference.id) else { continue }
                try rows.product(product, position: placed.position)
                try rows.productPictures(product)
                entity = product
            case .recipe:
                guard let recipe = entities.recipe(reference.id) else { continue }
                try rows.recipe(recipe, position: placed.position)
                try rows.recipeParts(recipe)
                entity = recipe
            case .retailer:
                guard let retailer = entities.retailer(reference.id) else { continue }
                try rows.retailer(retailer, position: placed.position)
                try rows.retailerSells(retailer)
                entity = retailer
            }
            if schema >= 3 { try rows.translations(of: reference, entity, into: others) }
        }
        // Rows keyed by place: every old one deleted before any new one goes in, so that an
        // entity moving up never meets itself further down.
        for row in patch.listPositions {
            if let old = row.old { try rows.deleteListPosition(old.kind, language: old.language, position: row.place) }
        }
        for row in patch.listPositions {
            if let new = row.new { try rows.listPosition(new.kind, language: new.language, position: row.place, id: new.id) }
        }
        try patchSearch(patch.searchRows, db, old: old, new: new, newEntities: entities)
    }

    /// Deletes each changed search row with the texts it was indexed with, and its entry, then
    /// inserts the new ones.
    private static func patchSearch(_ changes: [(index: String, rows: [BundlePatch.PlacedRow<WrittenContent.SearchRow>])], _ db: Database,
                                    old: WrittenContent, new: WrittenContent, newEntities after: EntitiesByID) throws {
        let before = EntitiesByID(old.catalog)
        let chains = Dictionary(new.orders.map { ($0.language, $0.chain) }, uniquingKeysWith: { first, _ in first })
        func chain(_ row: WrittenContent.SearchRow) -> [LanguageCode] { chains[row.language] ?? [row.language] }
        for (index, rows) in changes where !rows.isEmpty {
            let letters = index == "search_letters"
            let columns = letters ? "name" : "name, summary, content"
            let values = letters ? "?" : "?, ?, ?"
            let entries = index == "search" ? "search_entries" : index + "_entries"
            let deleteText = try db.cachedStatement(sql: "INSERT INTO \(index) (\(index), rowid, \(columns)) VALUES ('delete', ?, \(values))")
            let insertText = try db.cachedStatement(sql: "INSERT INTO \(index) (rowid, \(columns)) VALUES (?, \(values))")
            let deleteEntry = try db.cachedStatement(sql: "DELETE FROM \(entries) WHERE rowid = ?")
            let insertEntry = try db.cachedStatement(sql: index == "search"
                ? "INSERT INTO search_entries (rowid, kind, entity_id) VALUES (?, ?, ?)"
                : "INSERT INTO \(entries) (rowid, kind, entity_id, language) VALUES (?, ?, ?, ?)")
            for row in rows {
                guard let oldRow = row.old else { continue }
                guard let texts = before.texts(of: oldRow, chain: chain(oldRow), index: index) else {
                    throw PatchFailure("the search row \(row.place) of \(index) names \(oldRow.kind.rawValue) '\(oldRow.id)', which the last catalogue lacks")
                }
                try deleteText.execute(arguments: [row.place] + StatementArguments(texts))
                if row.new != oldRow { try deleteEntry.execute(arguments: [row.place]) }
            }
            for row in rows {
                guard let newRow = row.new else { continue }
                guard let texts = after.texts(of: newRow, chain: chain(newRow), index: index) else {
                    throw PatchFailure("the search row \(row.place) of \(index) names \(newRow.kind.rawValue) '\(newRow.id)', which the catalogue lacks")
                }
                try insertText.execute(arguments: [row.place] + StatementArguments(texts))
                guard row.old != newRow else { continue }
                try insertEntry.execute(arguments: index == "search" ? [row.place, newRow.kind.rawValue, newRow.id]
                    : [row.place, newRow.kind.rawValue, newRow.id, newRow.language.rawValue])
            }
        }
    }

    /// A patch that found the bundle other than its last catalogue says.
    struct PatchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
