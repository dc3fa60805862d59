import CBuildTuning
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

    /// The memory FTS5 may hold pending index entries in before it writes a segment.
    static let searchHashBytes = 256 << 20

    /// Products, recipes and retailers in list order: the order of their positions, of their
    /// rows, and of the search index's rowids.
    struct Lists: Sendable {
        var products: [Product]
        var recipes: [Recipe]
        var retailers: [Retailer]

        /// The catalogue's lists in list order (`ListOrder`): products on another core while
        /// recipes and retailers are ordered on this one.
        init(ordering catalog: Catalog) {
            let products = Background<[Product], Never> {
                ListOrder.ordered(catalog.products, id: \.id.rawValue, name: \.name, position: \.position)
            }
            recipes = ListOrder.ordered(catalog.recipes, id: \.id.rawValue, name: \.name, position: \.position)
            retailers = ListOrder.ordered(catalog.retailers, id: \.id.rawValue, name: \.name, position: \.position)
            self.products = products.wait()
        }
    }

    /// Writes the bundle into the new file `bundle`, using scratch databases at `scratch` and
    /// at `scratch` with `-search` added, both removed before this returns. `compacting` is
    /// called when the tables are written and their copy into `bundle` begins. The caller
    /// removes `bundle` if this throws.
    func write(into bundle: String, scratch path: String, compacting: () -> Void) throws(BuildError) {
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
        let searchBuild = Background { [lists] () throws -> Void in
            let queue = try Self.openScratch(searchPath)
            try queue.inDatabase { db in
                try db.execute(sql: BundleSchema.sql)
                // FTS5 keeps new index entries in memory until this many bytes (default
                // 1 MiB), then writes a segment; segments are merged later. A large budget
                // writes the whole index as one segment at commit: no merges, and
                // 'optimize' has nothing to do. Not copied into the bundle.
                try db.execute(sql: "INSERT INTO search (search, rank) VALUES ('hashsize', \(Self.searchHashBytes))")
                try db.inTransaction {
                    try Self.insertSearch(db, lists)
                    return .commit
                }
                try db.execute(sql: "INSERT INTO search (search) VALUES ('optimize')")
            }
            try queue.close()
        }
        // The search thread is always waited for, even when this one fails, so that it never
        // writes to its file after the file is removed.
        let tables = Result { () throws -> Background<Void, Never> in
            let queue = try Self.openScratch(path)
            do {
                try queue.inDatabase { db in
                    try db.execute(sql: BundleSchema.sql)
                    try db.execute(sql: "INSERT INTO bundle_info (key, value) VALUES ('generator', ?)",
                                   arguments: ["digno \(CompilerVersion.number) (SQLite \(CompilerVersion.sqliteVersion))"])
                    try db.inTransaction {
                        try insertAll(db, lists)
                        try Self.insertSearchEntries(db, lists)
                        return .commit
                    }
                    // VACUUM INTO copies both into the bundle's header.
                    try db.execute(sql: "PRAGMA user_version = \(BundleSchema.version)")
                    try db.execute(sql: "PRAGMA application_id = \(BundleSchema.applicationID)")
                    compacting()
                    // VACUUM INTO keeps the source's page size unless one is set first.
                    try db.execute(sql: "PRAGMA page_size = \(BundleSchema.pageSize)")
                    try db.execute(sql: "VACUUM INTO ?", arguments: [bundle])
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
            try Self.copySearchIndex(from: searchPath, into: bundle)
        } catch let error as BuildError {
            throw error
        } catch {
            throw Self.buildError(error, writing: bundle)
        }
    }

    /// A failure while writing: a row that breaks a constraint is a defect of the compiler
    /// (validation should have refused its content); anything else, such as a full disk, is
    /// the output's.
    static func buildError(_ error: any Error, writing bundle: String) -> BuildError {
        let (code, message): (Int32?, String?) = switch error {
        case let failure as SQLiteInsert.Failure: (failure.code, failure.message)
        case let failure as DatabaseError: (failure.extendedResultCode.rawValue, failure.message)
        default: (nil, nil)
        }
        guard let code else { return .output(path: bundle, reason: "\(error)") }
        if ResultCode(rawValue: code).primaryResultCode == .SQLITE_CONSTRAINT { return .bundleCheckFailed("\(error)") }
        // SQLite's message, in words a person running a build can act on; not the statement
        // it was running (a whole CREATE TABLE, for a disk that filled up early).
        let said = message ?? "SQLite error \(code)"
        let reason = switch ResultCode(rawValue: code).primaryResultCode {
        case .SQLITE_FULL: "the disk is full (\(said)); free some space and build again"
        case .SQLITE_CANTOPEN: "a file cannot be created in its folder (\(said)); check that the folder is writable"
        case .SQLITE_READONLY: "its folder or file system is read-only (\(said))"
        case .SQLITE_IOERR: "the disk reported an error (\(said)); check the disk and build again"
        default: message.map { "\($0) (SQLite error \(code))" } ?? said
        }
        return .output(path: bundle, reason: reason)
    }

    /// SQLite's memory statistics off, once, before this process opens its first database
    /// (afterwards SQLite refuses the change, and the build is only slower).
    private static let quietAllocator: Int32 = digno_sqlite_disable_memory_statistics()

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
    private static func copySearchIndex(from path: String, into bundle: String) throws {
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

    // MARK: Rows

    /// A rich text's two stored forms.
    private struct TextForms {
        var json: [UInt8]
        var plain: String

        init(_ text: RichText) {
            json = RichTextJSON.utf8(text)
            plain = text.plainText
        }
    }

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
    private static func insertSearch(_ db: Database, _ lists: Lists) throws {
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
    private static func insertSearchEntries(_ db: Database, _ lists: Lists) throws {
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

    /// `entities` sorted by id: the order in which their rows go into the tables keyed by
    /// their id (`product_images`, `recipe_ingredients`, `retailer_products`…), so that each
    /// insert lands at the end of its B-tree rather than somewhere in the middle. Only the
    /// speed depends on it: `VACUUM INTO` copies rows in key order whatever order they went in.
    /// Entity tables themselves keep list order, which is their rowid order in the bundle.
    private static func inIDOrder<Entity>(_ entities: [Entity], id: (Entity) -> String) -> LazyMapSequence<[Int], Entity> {
        // Byte order, which is the order of SQLite's BINARY collation.
        var ids = ByteKeys(capacity: entities.count, averageLength: 24)
        for entity in entities { ids.append(id(entity).utf8) }
        return ids.sortedIndices().lazy.map { entities[$0] }
    }

    private func insertAll(_ db: Database, _ lists: Lists) throws {
        func image(_ reference: ImageReference) -> String { images.sha256(of: reference) }
        func insert(_ sql: String) throws -> SQLiteInsert { try SQLiteInsert(db, sql) }

        let insertInfo = try insert("INSERT INTO bundle_info (key, value) VALUES (?, ?)")
        for (key, value) in info.sorted(by: { $0.key < $1.key }) { try insertInfo(.text(key), .text(value)) }

        let insertImage = try insert("INSERT INTO images (sha256, media_type, width, height, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?)")
        for (sha256, stored) in images.bySHA256.sorted(by: { $0.key < $1.key }) {
            try insertImage(.text(sha256), .text(stored.header.format.rawValue), .integer(stored.header.width), .integer(stored.header.height),
                            .integer(stored.bytes.count), .blob(stored.bytes))
        }

        let insertSection = try insert("INSERT INTO sections (id, position, title, icon) VALUES (?, ?, ?, ?)")
        for (index, section) in catalog.sections.enumerated() {
            try insertSection(.text(section.id.rawValue), .integer(index + 1), .text(section.title), .text(image(section.icon)))
        }

        let insertProduct = try insert("INSERT INTO products (id, position, name, summary, icon, body_json, body_text) VALUES (?, ?, ?, ?, ?, ?, ?)")
        let insertProductImage = try insert("INSERT INTO product_images (product_id, position, image, alt) VALUES (?, ?, ?, ?)")
        for (index, product) in lists.products.enumerated() {
            let id = product.id.rawValue
            let text = TextForms(product.body)
            try insertProduct(.text(id), .integer(index + 1), .text(product.name), .text(product.summary), .text(image(product.icon)),
                              .utf8(text.json), .text(text.plain))
        }
        for product in Self.inIDOrder(lists.products, id: \.id.rawValue) {
            for (index, picture) in product.images.enumerated() {
                try insertProductImage(.text(product.id.rawValue), .integer(index + 1), .text(image(picture)), .text(picture.alt ?? ""))
            }
        }

        let insertRecipe = try insert("INSERT INTO recipes (id, position, name, summary, icon, method_json, method_text) VALUES (?, ?, ?, ?, ?, ?, ?)")
        let insertRecipeImage = try insert("INSERT INTO recipe_images (recipe_id, position, image, alt) VALUES (?, ?, ?, ?)")
        let insertIngredient = try insert("INSERT INTO recipe_ingredients (recipe_id, position, text, product_id) VALUES (?, ?, ?, ?)")
        let insertRecipeProduct = try insert("INSERT INTO recipe_products (recipe_id, product_id) VALUES (?, ?)")
        for (index, recipe) in lists.recipes.enumerated() {
            let id = recipe.id.rawValue
            let text = TextForms(recipe.method)
            try insertRecipe(.text(id), .integer(index + 1), .text(recipe.name), .text(recipe.summary), .text(image(recipe.icon)),
                             .utf8(text.json), .text(text.plain))
        }
        for recipe in Self.inIDOrder(lists.recipes, id: \.id.rawValue) {
            let id = recipe.id.rawValue
            for (index, picture) in recipe.images.enumerated() {
                try insertRecipeImage(.text(id), .integer(index + 1), .text(image(picture)), .text(picture.alt ?? ""))
            }
            for (index, ingredient) in recipe.ingredients.enumerated() {
                try insertIngredient(.text(id), .integer(index + 1), .text(ingredient.text), .text(ingredient.product?.rawValue))
            }
            for product in recipe.productIDs { try insertRecipeProduct(.text(id), .text(product.rawValue)) }
        }

        let insertRetailer = try insert("""
            INSERT INTO retailers (id, position, name, logo, address, phone, opening_hours, other_info, web_address, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertSells = try insert("INSERT INTO retailer_products (retailer_id, product_id, position) VALUES (?, ?, ?)")
        for (index, retailer) in lists.retailers.enumerated() {
            let id = retailer.id.rawValue
            try insertRetailer(
                .text(id), .integer(index + 1), .text(retailer.name), .text(image(retailer.logo)), .text(retailer.address), .text(retailer.phone),
                .text(retailer.openingHours), .text(retailer.otherInfo), .text(retailer.webAddress), .real(retailer.coordinate?.latitude),
                .real(retailer.coordinate?.longitude))
        }
        for retailer in Self.inIDOrder(lists.retailers, id: \.id.rawValue) {
            let id = retailer.id.rawValue
            var seen = Set<ProductID>()
            for product in retailer.sells where seen.insert(product).inserted {
                try insertSells(.text(id), .text(product.rawValue), .integer(seen.count))
            }
        }

        let home = catalog.home
        let homeText = TextForms(home.body)
        try insert("INSERT INTO home (id, logo, image, image_alt, body_json, body_text) VALUES (1, ?, ?, ?, ?, ?)")(
            .text(image(home.logo)), .text(image(home.image)), .text(home.image.alt ?? ""), .utf8(homeText.json), .text(homeText.plain))
        let insertPromotion = try insert("""
            INSERT INTO promotions (id, position, title, text, image, image_alt, first_day, last_day, link_product, link_recipe)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, promotion) in home.promotions.enumerated() {
            var product: String?, recipe: String?
            switch promotion.link {
            case .product(let id)?: product = id.rawValue
            case .recipe(let id)?: recipe = id.rawValue
            case nil: break
            }
            try insertPromotion(
                .text(promotion.id.rawValue), .integer(index + 1), .text(promotion.title), .text(promotion.text), .text(image(promotion.image)),
                .text(promotion.image.alt ?? ""), .text(promotion.firstDay.description), .text(promotion.lastDay.description), .text(product), .text(recipe))
        }

        let company = catalog.company
        let companyText = TextForms(company.body)
        try insert("INSERT INTO company (id, name, logo, body_json, body_text, web_address) VALUES (1, ?, ?, ?, ?, ?)")(
            .text(company.name), .text(image(company.logo)), .utf8(companyText.json), .text(companyText.plain), .text(company.webAddress))
        let insertCompanyImage = try insert("INSERT INTO company_images (position, image, alt) VALUES (?, ?, ?)")
        for (index, picture) in company.images.enumerated() {
            try insertCompanyImage(.integer(index + 1), .text(image(picture)), .text(picture.alt ?? ""))
        }
    }
}
