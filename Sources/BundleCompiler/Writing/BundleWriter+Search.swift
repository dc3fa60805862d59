import CatalogContent
import CatalogModel
import GRDB

/// The search indexes: their rows, built on their own thread in a second scratch database;
/// the tables naming each row's entity, written with the tables; and the indexes' copy into
/// the new bundle.
extension BundleWriter {
    /// The FTS5 tables: schema.sql's `search` (the default language), and schema-3.sql's
    /// `search_translated` (each other language) and `search_letters` (every language's names,
    /// its own letters kept).
    static let searchIndexes = ["search", "search_translated", "search_letters"]

    /// The kinds of entity in the search index, in rowid order.
    enum SearchKind: String {
        case product, recipe, retailer
    }

    /// What the search indexes hold of one product, recipe or retailer: its name, its summary
    /// (none for a retailer), and its other texts.
    struct SearchTexts: Equatable {
        var name: String
        var summary: String
        var content: String

        init(_ product: Product) {
            (name, summary, content) = (product.name, product.summary, product.body.plainText)
        }

        init(_ recipe: Recipe) {
            let ingredients = recipe.ingredients.map(\.text).joined(separator: "\n")
            (name, summary, content) = (recipe.name, recipe.summary, ingredients + "\n\n" + recipe.method.plainText)
        }

        init(_ retailer: Retailer) {
            (name, summary, content) = (retailer.name, "", [retailer.address, retailer.openingHours, retailer.otherInfo ?? ""].joined(separator: "\n"))
        }
    }

    /// The search index's rows in rowid order: products, recipes and retailers, each in list
    /// order, so that rowid order is list order (the name tiers of `CatalogBundle.search` rely
    /// on it). The one order both writing threads follow: the index on one, `search_entries`
    /// on the other.
    private static func forEachSearchRow(_ lists: Lists, _ body: (_ rowid: Int, _ kind: SearchKind, _ index: Int) throws -> Void) rethrows {
        var rowid = 0
        for (kind, count) in [(SearchKind.product, lists.products.count), (.recipe, lists.recipes.count), (.retailer, lists.retailers.count)] {
            for index in 0..<count {
                rowid += 1
                try body(rowid, kind, index)
            }
        }
    }

    /// The search index: one row per product, recipe and retailer (`forEachSearchRow`).
    static func insertSearch(_ db: Database, _ lists: Lists) throws {
        let insertText = try SQLiteInsert(db, "INSERT INTO search (rowid, name, summary, content) VALUES (?, ?, ?, ?)")
        try forEachSearchRow(lists) { rowid, kind, index in
            let texts = searchTexts(lists, kind, index)
            try insertText(.integer(rowid), .text(texts.name), .text(texts.summary), .text(texts.content))
        }
    }

    /// What the search indexes hold of one entity of `lists`: its name, its summary (none for a
    /// retailer), and its other texts.
    private static func searchTexts(_ lists: Lists, _ kind: SearchKind, _ index: Int) -> SearchTexts {
        switch kind {
        case .product: SearchTexts(lists.products[index])
        case .recipe: SearchTexts(lists.recipes[index])
        case .retailer: SearchTexts(lists.retailers[index])
        }
    }

    /// The entity of one row of `lists`.
    private static func searchEntity(_ lists: Lists, _ kind: SearchKind, _ index: Int) -> String {
        switch kind {
        case .product: lists.products[index].id.rawValue
        case .recipe: lists.recipes[index].id.rawValue
        case .retailer: lists.retailers[index].id.rawValue
        }
    }

    /// The rows of schema 3's language indexes, in rowid order: for each language (the
    /// default's first, for `search_letters` only), its products, recipes and retailers in its
    /// list order. The one order both writing threads follow.
    private static func forEachLanguageRow(
        _ languages: [(language: LanguageCode, lists: Lists)],
        _ body: (_ rowid: Int, _ language: LanguageCode, _ lists: Lists, _ kind: SearchKind, _ index: Int) throws -> Void
    ) rethrows {
        var rowid = 0
        for (language, lists) in languages {
            try forEachSearchRow(lists) { _, kind, index in
                rowid += 1
                try body(rowid, language, lists, kind, index)
            }
        }
    }

    /// `search_translated`: each other language's texts, as its readers see them.
    static func insertTranslatedSearch(_ db: Database, _ translated: TranslatedLists) throws {
        let insertText = try SQLiteInsert(db, "INSERT INTO search_translated (rowid, name, summary, content) VALUES (?, ?, ?, ?)")
        try forEachLanguageRow(translated.languages) { rowid, _, lists, kind, index in
            let texts = searchTexts(lists, kind, index)
            try insertText(.integer(rowid), .text(texts.name), .text(texts.summary), .text(texts.content))
        }
    }

    /// `search_letters`: every language's names, folded but for the language's own letters.
    static func insertLetterSearch(_ db: Database, default first: (LanguageCode, Lists), _ translated: TranslatedLists) throws {
        let insertName = try SQLiteInsert(db, "INSERT INTO search_letters (rowid, name) VALUES (?, ?)")
        try forEachLanguageRow([first] + translated.languages) { rowid, language, lists, kind, index in
            try insertName(.integer(rowid), .text(SearchLetters.folded(searchTexts(lists, kind, index).name, language: language.rawValue)))
        }
    }

    /// `search_translated_entries` and `search_letters_entries`, which name the entity and
    /// language behind each row of the two indexes.
    static func insertLanguageSearchEntries(_ db: Database, default first: (LanguageCode, Lists), _ translated: TranslatedLists) throws {
        for (table, languages) in [("search_translated_entries", translated.languages), ("search_letters_entries", [first] + translated.languages)] {
            let insertEntry = try SQLiteInsert(db, "INSERT INTO \(table) (rowid, kind, entity_id, language) VALUES (?, ?, ?, ?)")
            try forEachLanguageRow(languages) { rowid, language, lists, kind, index in
                try insertEntry(.integer(rowid), .text(kind.rawValue), .text(searchEntity(lists, kind, index)), .text(language.rawValue))
            }
        }
    }

    /// `search_entries`, which names the entity behind each row of the search index. Written
    /// with the tables rather than with the index: the index is the longer of the two threads.
    static func insertSearchEntries(_ db: Database, _ lists: Lists) throws {
        let insertEntry = try SQLiteInsert(db, "INSERT INTO search_entries (rowid, kind, entity_id) VALUES (?, ?, ?)")
        try forEachSearchRow(lists) { rowid, kind, index in
            try insertEntry(.integer(rowid), .text(kind.rawValue), .text(searchEntity(lists, kind, index)))
        }
    }

    /// Copies the search index built in the scratch database at `path` into the new bundle
    /// file at `bundle`, whose `search` table is still empty. FTS5 keeps an index in ordinary
    /// "shadow" tables (`search_data`, `search_idx`, `search_docsize`, `search_config`; a
    /// contentless table has no `search_content`), so copying them row for row, between two
    /// databases made by the same schema and the same SQLite library, copies the index.
    ///
    /// The rows go in in key order, in one transaction, with nothing deleted but the few rows
    /// an empty index starts with: the file stays compact (no free pages) and the same rows
    /// give the same bytes. No journal and no syncing: the file is not published yet, and a
    /// failure removes it. The checks after this open the file afresh; a test runs FTS5's own
    /// integrity check on a built bundle.
    static func copySearchIndex(_ indexes: [String], from path: String, into bundle: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.label = "digno.bundle"
        configuration.prepareDatabase { db in
            // Journal mode OFF is not recorded in the file, which stays in DELETE mode.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
        }
        let queue = try DatabaseQueue(path: bundle, configuration: configuration)
        try queue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS built", arguments: [path])
            try db.inTransaction {
                for table in indexes.flatMap({ index in ["data", "idx", "docsize", "config"].map { "\(index)_\($0)" } }) {
                    try db.execute(sql: "DELETE FROM main.\(table)")
                    // The memory budget the index was built with is left out of `search`'s
                    // configuration, as it always was; the languages' indexes have kept theirs
                    // since schema 3 came (a bundle of it is frozen in FixtureBundleTests), and
                    // it is a constant of the compiler, the same on every machine. Only writing
                    // reads it, and a bundle is never written.
                    let filter = table == "search_config" ? " WHERE k <> 'hashsize'" : ""
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM built.\(table)\(filter)")
                }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE built")
        }
        try queue.close()
    }
}
