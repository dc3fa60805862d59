import GRDB

/// The search index: its rows, built on their own thread in a second scratch database;
/// `search_entries`, written with the tables; and the index's copy into the new bundle.
extension BundleWriter {
    /// The kinds of entity in the search index, in rowid order.
    private enum SearchKind: String {
        case product, recipe, retailer
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
            switch kind {
            case .product:
                let product = lists.products[index]
                try insertText(.integer(rowid), .text(product.name), .text(product.summary), .text(product.body.plainText))
            case .recipe:
                let recipe = lists.recipes[index]
                let ingredients = recipe.ingredients.map(\.text).joined(separator: "\n")
                try insertText(.integer(rowid), .text(recipe.name), .text(recipe.summary), .text(ingredients + "\n\n" + recipe.method.plainText))
            case .retailer:
                let retailer = lists.retailers[index]
                let content = [retailer.address, retailer.openingHours, retailer.otherInfo ?? ""].joined(separator: "\n")
                try insertText(.integer(rowid), .text(retailer.name), .text(""), .text(content))
            }
        }
    }

    /// `search_entries`, which names the entity behind each row of the search index. Written
    /// with the tables rather than with the index: the index is the longer of the two threads.
    static func insertSearchEntries(_ db: Database, _ lists: Lists) throws {
        let insertEntry = try SQLiteInsert(db, "INSERT INTO search_entries (rowid, kind, entity_id) VALUES (?, ?, ?)")
        try forEachSearchRow(lists) { rowid, kind, index in
            let id: String
            switch kind {
            case .product: id = lists.products[index].id.rawValue
            case .recipe: id = lists.recipes[index].id.rawValue
            case .retailer: id = lists.retailers[index].id.rawValue
            }
            try insertEntry(.integer(rowid), .text(kind.rawValue), .text(id))
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
    static func copySearchIndex(from path: String, into bundle: String) throws {
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
                for table in ["search_data", "search_idx", "search_docsize", "search_config"] {
                    try db.execute(sql: "DELETE FROM main.\(table)")
                    // The memory budget of the build is a setting of this machine, not of the bundle.
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
