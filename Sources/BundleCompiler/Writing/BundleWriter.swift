import CBuildTuning
import CatalogContent
import CatalogModel
import Foundation
import GRDB

/// Writes a validated catalogue into a new bundle file, in two parts on the two cores.
///
/// - The tables go into a scratch database (a file beside the output, with no journal and no
///   syncing: it is thrown away), which `VACUUM INTO` then copies, compacted, into the new
///   file. A file rather than memory keeps a 100,000-entity build's peak memory down by the
///   size of the bundle. `VACUUM INTO` writes pages in a canonical order, so the same content
///   gives the same bytes whatever order rows were inserted in.
/// - The search index, the costliest part (tokenizing every text), is built meanwhile in a
///   second scratch database with the same schema, and its tables are copied straight into
///   the new file once the tables are in it (see `copySearchIndex`). Copying it there rather
///   than into the first scratch database lets the compaction run beside the indexing, and
///   writes the index once instead of twice.
struct BundleWriter: Sendable {
    let catalog: Catalog
    let lists: Lists
    let images: BundleImages
    let info: [String: String]
    /// The schema to write: 4, 3 (no `renditions`: one rendition per picture, as the compiler
    /// wrote it before schema 4), or 2 (schema.sql's tables alone, the default language's
    /// texts, as the compiler wrote it before schema 3).
    var schemaVersion = BundleSchema.version
    /// Older schemas written beside it from the same rows, each into its file, newest first:
    /// each older schema's tables are a part of the newer one's, with the same rows (schema 3
    /// is schema 4 without `renditions`; schema 2, schema 3 without the languages' tables),
    /// so they are derived from the scratch databases rather than written again
    /// (`deriveOlderSchemas`).
    var olderSchemas: [(schema: Int, bundle: String)] = []

    /// The search indexes of the schema written.
    var searchIndexes: [String] { Self.searchIndexes(schema: schemaVersion) }

    /// The search indexes of a schema.
    static func searchIndexes(schema: Int) -> [String] { schema >= 3 ? searchIndexes : ["search"] }

    /// The memory FTS5 may hold pending index entries in before it writes a segment.
    static let searchHashBytes = 256 << 20

    /// Products, recipes and retailers in list order: the order of their positions, of their
    /// rows, and of the search index's rowids.
    struct Lists: Sendable {
        var products: [Product]
        var recipes: [Recipe]
        var retailers: [Retailer]

        /// The catalogue's lists in `language`'s list order (`ListOrder`): products on another
        /// core while recipes and retailers are ordered on this one.
        init(ordering catalog: Catalog, language: String = "fi") {
            let products = Background<[Product], Never> {
                ListOrder.ordered(catalog.products, id: \.id.rawValue, name: \.name, position: \.position, language: language)
            }
            recipes = ListOrder.ordered(catalog.recipes, id: \.id.rawValue, name: \.name, position: \.position, language: language)
            retailers = ListOrder.ordered(catalog.retailers, id: \.id.rawValue, name: \.name, position: \.position, language: language)
            self.products = products.wait()
        }

        init(products: [Product], recipes: [Recipe], retailers: [Retailer]) {
            self.products = products
            self.recipes = recipes
            self.retailers = retailers
        }

        /// Each kind's ids in list order, by the kind's name in `list_positions` and the
        /// search entries.
        var ids: [(kind: String, ids: [String])] {
            [("product", products.map(\.id.rawValue)), ("recipe", recipes.map(\.id.rawValue)), ("retailer", retailers.map(\.id.rawValue))]
        }
    }

    /// The lists as each language but the default reads them: its texts (falling back where
    /// not translated), in its list order. What `list_positions` and the languages' search
    /// indexes are written from.
    struct TranslatedLists: Sendable {
        var languages: [(language: LanguageCode, lists: Lists)]

        init(languages: [(language: LanguageCode, lists: Lists)]) {
            self.languages = languages
        }

        init(_ catalog: Catalog) {
            languages = catalog.languages.translated.map { language in
                (language, Lists(ordering: catalog.translated(to: language), language: language.rawValue))
            }
        }
    }

    /// Writes the bundle into the new file `bundle`, using scratch databases at `scratch` and
    /// at `scratch` with `-search` added, both removed before this returns. `progress` hears,
    /// in words, when the tables are written and their copy into `bundle` begins, and when each
    /// older schema's bundle is derived. The caller removes `bundle` if this throws.
    func write(into bundle: String, scratch path: String, progress: (String) -> Void) throws(BuildError) {
        _ = Self.quietAllocator
        // What parsing freed, back to the system before the page caches and the search
        // index's memory are taken: it keeps a 100,000-entity build's peak under 400 MB.
        digno_release_free_memory()
        let searchPath = path + "-search"
        try AtomicFile.remove(path)
        try AtomicFile.remove(searchPath)
        defer {
            try? AtomicFile.remove(path)
            try? AtomicFile.remove(searchPath)
        }
        // Each other language's lists, made beside the default's search index and tables.
        let languages = schemaVersion >= 3
        let schemaSQL = BundleSchemaDefinition.sql(version: schemaVersion)
        let translatedLists = Background { [catalog] in languages ? TranslatedLists(catalog) : TranslatedLists(languages: []) }
        let defaultLanguage = catalog.languages.defaultLanguage
        let searchIndexes = searchIndexes
        let searchBuild = Background { [lists] () throws -> Void in
            let queue = try Self.openScratch(searchPath)
            try queue.inDatabase { db in
                try db.execute(sql: schemaSQL)
                // FTS5 keeps new index entries in memory until this many bytes (default
                // 1 MiB), then writes a segment; segments are merged later. A large budget
                // writes the whole index as one segment at commit: no merges, and
                // 'optimize' has nothing to do. Not copied into the bundle.
                for index in searchIndexes {
                    try db.execute(sql: "INSERT INTO \(index) (\(index), rank) VALUES ('hashsize', \(Self.searchHashBytes))")
                }
                try db.inTransaction {
                    try Self.insertSearch(db, lists)
                    if languages {
                        let translated = translatedLists.wait()
                        try Self.insertTranslatedSearch(db, translated)
                        try Self.insertLetterSearch(db, default: (defaultLanguage, lists), translated)
                    }
                    return .commit
                }
                for index in searchIndexes {
                    try db.execute(sql: "INSERT INTO \(index) (\(index)) VALUES ('optimize')")
                }
            }
            try queue.close()
        }
        // The search thread is always waited for, even when this one fails, so that it never
        // writes to its file after the file is removed.
        let tables = Result { () throws -> Background<Void, Never> in
            let queue = try Self.openScratch(path)
            do {
                try queue.inDatabase { db in
                    try db.execute(sql: schemaSQL)
                    try db.execute(sql: "INSERT INTO bundle_info (key, value) VALUES ('generator', ?)",
                                   arguments: ["digno \(CompilerVersion.number) (SQLite \(CompilerVersion.sqliteVersion))"])
                    try db.inTransaction {
                        try insertAll(db, lists)
                        try Self.insertSearchEntries(db, lists)
                        let translated = translatedLists.wait()
                        if languages {
                            try insertLanguages(db, translated)
                            try Self.insertLanguageSearchEntries(db, default: (defaultLanguage, lists), translated)
                        }
                        return .commit
                    }
                    // VACUUM INTO copies both into the bundle's header.
                    try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
                    try db.execute(sql: "PRAGMA application_id = \(BundleSchema.applicationID)")
                    progress("compacting into \(bundle)")
                    // VACUUM INTO keeps the source's page size unless one is set first.
                    try db.execute(sql: "PRAGMA page_size = \(BundleSchema.pageSize)")
                    try db.execute(sql: "VACUUM INTO ?", arguments: [bundle])
                    try deriveOlderSchemas(db, progress: progress)
                }
            } catch {
                try? queue.close()
                throw error
            }
            // Closed and removed beside the search index's copy: removing it is the disk's
            // work, not a core's.
            return Background {
                try? queue.close()
                try? AtomicFile.remove(path)
            }
        }
        let search = Result { try searchBuild.wait() }
        do {
            let discarded = try tables.get()
            defer { discarded.wait() }
            try search.get()
            try Self.copySearchIndex(searchIndexes, from: searchPath, into: bundle)
            // The same index for each older schema: its indexes are the newer one's, of the
            // same lists (the default language's order).
            for older in olderSchemas {
                try Self.copySearchIndex(Self.searchIndexes(schema: older.schema), from: searchPath, into: older.bundle)
            }
        } catch let error as BuildError {
            throw error
        } catch {
            throw Self.buildError(error, writing: bundle)
        }
    }

    /// Writes each older schema's bundle from the tables' scratch database once the newest
    /// one is copied out of it: the tables the older schema lacks dropped, its version in
    /// `bundle_info` and the header, and the schema cookie it has when written on its own (one
    /// more than its SQL's statements, `BundleSchema.schemaCookie`), then `VACUUM INTO`, which
    /// writes the same bytes as a build of that schema alone: the same rows, and the same
    /// tables in the same order. Before this, each schema was written from the catalogue again,
    /// its rows inserted and its texts indexed for search once more.
    private func deriveOlderSchemas(_ db: Database, progress: (String) -> Void) throws {
        for older in olderSchemas.sorted(by: { $0.schema > $1.schema }) {
            progress("deriving schema \(older.schema)'s bundle")
            let kept = Set(try BundleSchemaDefinition.expectedObjects(version: older.schema).filter { $0.type == "table" }.map(\.name))
            // Virtual tables first: dropping one drops its own tables.
            let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
            for row in tables {
                let name: String = row["name"], sql: String = row["sql"] ?? ""
                if !kept.contains(name), sql.hasPrefix("CREATE VIRTUAL TABLE") { try db.execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)") }
            }
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'") where !kept.contains(name) {
                try db.execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
            }
            try db.execute(sql: "UPDATE bundle_info SET value = ? WHERE key = 'schema_version'", arguments: [String(older.schema)])
            try db.execute(sql: "PRAGMA user_version = \(older.schema)")
            try db.execute(sql: "PRAGMA schema_version = \(BundleSchema.schemaCookie(version: older.schema) - 1)")
            try db.execute(sql: "VACUUM INTO ?", arguments: [older.bundle])
        }
    }

    /// SQLite's memory statistics off, once, before this process opens its first database
    /// (afterwards SQLite refuses the change, and the build is only slower).
    static let quietAllocator: Int32 = digno_sqlite_disable_memory_statistics()

    /// A scratch database: no journal, no syncing, a 16 MiB page cache (two are open at once,
    /// beside the whole catalogue and the search index's memory), and 64 KiB pages, which
    /// took a tenth off writing the rows and copying them out. The bundle's own page size is
    /// set before `VACUUM INTO`; the same rows give the same bundle whatever page size they
    /// came from.
    private static func openScratch(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        // Foreign keys and CHECK constraints are checked once, on the finished bundle, rather
        // than on each of the inserts: `PRAGMA foreign_key_check` and `PRAGMA integrity_check`
        // (which tests every CHECK and NOT NULL) in `BundleChecks`. Testing them at insert time
        // too took a third of the tables' writing time, most of it `json_valid` parsing every
        // body. NOT NULL and UNIQUE are still enforced as rows go in.
        configuration.foreignKeysEnabled = false
        configuration.label = "digno.scratch"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384; PRAGMA ignore_check_constraints = ON")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
