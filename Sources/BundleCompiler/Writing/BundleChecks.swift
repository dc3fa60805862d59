import CatalogModel
import Crypto
import Foundation
import GRDB

/// The checks a bundle passes before it is published: SQLite's own integrity and foreign key
/// checks, the marks of a Café Digno bundle, and the 1..* rules, which no constraint can state,
/// checked again in SQL as a second line of defence behind the catalogue rules.
enum BundleChecks {
    /// Named queries that must return no rows.
    static let relationRules: [(name: String, sql: String)] = [
        ("a product no recipe uses", "SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM recipe_products)"),
        ("a recipe that uses no product", "SELECT id FROM recipes WHERE id NOT IN (SELECT recipe_id FROM recipe_products)"),
        ("a retailer that sells nothing", "SELECT id FROM retailers WHERE id NOT IN (SELECT retailer_id FROM retailer_products)"),
        ("no products", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM products)"),
        ("no recipes", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM recipes)"),
        ("no retailers", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM retailers)"),
        ("not exactly five sections", "SELECT 1 WHERE (SELECT count(*) FROM sections) <> 5"),
        ("no home page", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM home)"),
        ("no company page", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM company)"),
        ("not one search entry per product, recipe and retailer", """
            SELECT 1 WHERE (SELECT count(*) FROM search_entries)
                <> (SELECT count(*) FROM products) + (SELECT count(*) FROM recipes) + (SELECT count(*) FROM retailers)
            """),
        ("a search entry for an unknown entity", """
            SELECT kind || ' ' || entity_id FROM search_entries
            WHERE (kind = 'product' AND entity_id NOT IN (SELECT id FROM products))
               OR (kind = 'recipe' AND entity_id NOT IN (SELECT id FROM recipes))
               OR (kind = 'retailer' AND entity_id NOT IN (SELECT id FROM retailers))
            """),
        // FTS5 keeps one row per indexed document in search_docsize, keyed by rowid.
        ("a search entry without indexed text", "SELECT rowid FROM search_entries WHERE rowid NOT IN (SELECT id FROM search_docsize)"),
        ("indexed text without a search entry", "SELECT id FROM search_docsize WHERE id NOT IN (SELECT rowid FROM search_entries)"),
    ]

    /// Schema 3's rules for its languages' tables (a language's code is checked by the
    /// foreign key from every row that names one).
    static let languageRules: [(name: String, sql: String)] = [
        ("no default language", "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM languages WHERE position = 1)"),
        ("languages not numbered from 1", "SELECT code FROM languages WHERE position > (SELECT count(*) FROM languages)"),
        ("a translation into the default language", """
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations
            WHERE language = (SELECT code FROM languages WHERE position = 1)
            """),
        // Each kind's rows read on their own, by the primary key's first column, and each
        // answered by primary-key lookups: a picture or line by its owner and the position the
        // field names (a correlated list of every 'picture:N' took 2 s at 100,000 entities in
        // three languages; one CASE over every kind read the whole table and took 2.6 s of its
        // 1 million translations, this 1.5 s). The same rows as the CASE, kind by kind, and
        // last any kind the bundle cannot have.
        ("a translation of an entity or field the bundle does not have", """
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'company' AND NOT (entity_id = '' AND (field IN ('name', 'body')
                OR (field GLOB 'picture:[12]' AND EXISTS (SELECT 1 FROM company_images WHERE position = CAST(substr(field, 9) AS INTEGER)))))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'home' AND NOT (entity_id = '' AND field IN ('body', 'image_alt'))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'product' AND NOT (EXISTS (SELECT 1 FROM products WHERE id = entity_id)
                AND (field IN ('name', 'summary', 'body') OR (field GLOB 'picture:[12]' AND EXISTS (SELECT 1 FROM product_images
                    WHERE product_id = entity_id AND position = CAST(substr(field, 9) AS INTEGER)))))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'promotion'
                AND NOT (field IN ('title', 'text', 'image_alt') AND EXISTS (SELECT 1 FROM promotions WHERE id = entity_id))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'recipe' AND NOT (EXISTS (SELECT 1 FROM recipes WHERE id = entity_id)
                AND (field IN ('name', 'summary', 'method')
                    OR (field GLOB 'picture:[12]' AND EXISTS (SELECT 1 FROM recipe_images
                        WHERE recipe_id = entity_id AND position = CAST(substr(field, 9) AS INTEGER)))
                    OR (field GLOB 'ingredient:[1-9]*' AND EXISTS (SELECT 1 FROM recipe_ingredients
                        WHERE recipe_id = entity_id AND position = CAST(substr(field, 12) AS INTEGER)))))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'retailer'
                AND NOT ((field = 'hours' AND EXISTS (SELECT 1 FROM retailers WHERE id = entity_id))
                    OR (field = 'info' AND EXISTS (SELECT 1 FROM retailers WHERE id = entity_id AND other_info IS NOT NULL)))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE kind = 'section'
                AND NOT (field = 'title' AND EXISTS (SELECT 1 FROM sections WHERE id = entity_id))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations
            WHERE kind IS NULL OR kind NOT IN ('company', 'home', 'product', 'promotion', 'recipe', 'retailer', 'section')
            """),
        ("a rich text translation that is not rich text", """
            SELECT kind || ' ' || entity_id || ' ' || field FROM translations WHERE field IN ('body', 'method') AND NOT json_valid(text)
            """),
        // Each entity once per language is the UNIQUE constraint; every entity, a count of the
        // rows that name one.
        ("a language whose lists do not hold every entity once", """
            SELECT l.code FROM languages l WHERE l.position > 1 AND (
                (SELECT count(*) FROM list_positions p WHERE p.kind = 'product' AND p.language = l.code
                    AND EXISTS (SELECT 1 FROM products WHERE id = p.entity_id)) <> (SELECT count(*) FROM products)
                OR (SELECT count(*) FROM list_positions p WHERE p.kind = 'recipe' AND p.language = l.code
                    AND EXISTS (SELECT 1 FROM recipes WHERE id = p.entity_id)) <> (SELECT count(*) FROM recipes)
                OR (SELECT count(*) FROM list_positions p WHERE p.kind = 'retailer' AND p.language = l.code
                    AND EXISTS (SELECT 1 FROM retailers WHERE id = p.entity_id)) <> (SELECT count(*) FROM retailers)
                OR (SELECT count(*) FROM list_positions p WHERE p.language = l.code)
                    <> (SELECT count(*) FROM products) + (SELECT count(*) FROM recipes) + (SELECT count(*) FROM retailers))
            """),
        ("a list position in the default language", """
            SELECT DISTINCT language FROM list_positions WHERE language = (SELECT code FROM languages WHERE position = 1)
            """),
        // The languages' search indexes: every entity once per language (the default's too for
        // the names), each row with its indexed text.
        ("a language whose search does not hold every entity once", """
            SELECT l.code FROM languages l WHERE l.position > 1
                AND (SELECT count(*) FROM search_translated_entries e WHERE e.language = l.code)
                    <> (SELECT count(*) FROM products) + (SELECT count(*) FROM recipes) + (SELECT count(*) FROM retailers)
            UNION ALL
            SELECT l.code FROM languages l
            WHERE (SELECT count(*) FROM search_letters_entries e WHERE e.language = l.code)
                    <> (SELECT count(*) FROM products) + (SELECT count(*) FROM recipes) + (SELECT count(*) FROM retailers)
            """),
        ("a language's search entry for an unknown entity or in the default language", """
            SELECT kind || ' ' || entity_id || ' ' || language FROM search_translated_entries
            WHERE language = (SELECT code FROM languages WHERE position = 1)
               OR (kind = 'product' AND entity_id NOT IN (SELECT id FROM products))
               OR (kind = 'recipe' AND entity_id NOT IN (SELECT id FROM recipes))
               OR (kind = 'retailer' AND entity_id NOT IN (SELECT id FROM retailers))
            UNION ALL
            SELECT kind || ' ' || entity_id || ' ' || language FROM search_letters_entries
            WHERE (kind = 'product' AND entity_id NOT IN (SELECT id FROM products))
               OR (kind = 'recipe' AND entity_id NOT IN (SELECT id FROM recipes))
               OR (kind = 'retailer' AND entity_id NOT IN (SELECT id FROM retailers))
            """),
        ("a language's search rows outside its run", """
            SELECT e.rowid FROM search_letters_entries e JOIN languages l ON l.code = e.language
            WHERE e.rowid NOT BETWEEN (l.position - 1) * (SELECT max(rowid) FROM search_entries) + 1
                                  AND l.position * (SELECT max(rowid) FROM search_entries)
            UNION ALL
            SELECT e.rowid FROM search_translated_entries e JOIN languages l ON l.code = e.language
            WHERE e.rowid NOT BETWEEN (l.position - 2) * (SELECT max(rowid) FROM search_entries) + 1
                                  AND (l.position - 1) * (SELECT max(rowid) FROM search_entries)
            """),
    ]

    /// Schema 3's rule for its languages' search indexes against the rows naming their
    /// entities: run on every bundle, since each older schema's copy of the indexes is made on
    /// its own (`BundleWriter.copySearchIndex`), where `languageRules` run on the newest alone
    /// (`BundleBuilder.sealTemporary`).
    static let languageSearchRules: [(name: String, sql: String)] = [
        ("a language's search entry without indexed text, or text without an entry", """
            SELECT rowid FROM search_translated_entries WHERE rowid NOT IN (SELECT id FROM search_translated_docsize)
            UNION ALL SELECT id FROM search_translated_docsize WHERE id NOT IN (SELECT rowid FROM search_translated_entries)
            UNION ALL SELECT rowid FROM search_letters_entries WHERE rowid NOT IN (SELECT id FROM search_letters_docsize)
            UNION ALL SELECT id FROM search_letters_docsize WHERE id NOT IN (SELECT rowid FROM search_letters_entries)
            """),
    ]

    /// A value as a problem quotes it.
    static func shown(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text.showingInvisibles
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }

    /// Every problem found, as short descriptions; empty when the bundle is sound.
    static func problems(in db: Database) throws -> [String] {
        try integrityProblems(in: db) + ruleProblems(in: db)
    }

    /// What schema 3's language rules find (none for an earlier schema): the build runs them
    /// on a thread of their own. `searchOnly`: only `languageSearchRules`, for a bundle whose
    /// other rows are another bundle's, checked there.
    static func languageProblems(in db: Database, searchOnly: Bool = false) throws -> [String] {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        return version >= 3 ? try problems(of: (searchOnly ? [] : languageRules) + languageSearchRules, in: db) : []
    }

    /// The rules that return rows, each with the first few, read as whatever they hold: an id,
    /// a rowid, or NULL in a damaged bundle.
    private static func problems(of rules: [(name: String, sql: String)], in db: Database) throws -> [String] {
        try rules.compactMap { rule in
            let rows = try DatabaseValue.fetchAll(db, sql: rule.sql + " LIMIT 5")
            return rows.isEmpty ? nil : "\(rule.name): \(rows.map(Self.shown).joined(separator: ", "))"
        }
    }

    /// What SQLite's `integrity_check` finds: the costliest check, which reads every page.
    /// The build runs it on one thread and `ruleProblems` on another.
    static func integrityProblems(in db: Database) throws -> [String] {
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        return integrity == ["ok"] ? [] : ["integrity_check: " + integrity.joined(separator: "; ")]
    }

    /// What the foreign key check, the relation rules and the marks of a bundle find.
    static func ruleProblems(in db: Database, languages: Bool = true) throws -> [String] {
        var problems: [String] = []
        let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        if !foreignKeys.isEmpty {
            problems.append("foreign_key_check: " + foreignKeys.prefix(5).map { row in
                let table = (try? row.value("table", as: String?.self)) ?? nil, parent = (try? row.value("parent", as: String?.self)) ?? nil
                let rowid = (try? row.value("rowid", as: Int64?.self)) ?? nil
                return "\(table ?? "?") row \(rowid.map(String.init) ?? "?") → \(parent ?? "?")"
            }.joined(separator: "; "))
        }
        problems += try Self.problems(of: relationRules, in: db)
        // The objects its schema version defines, no more and no fewer: an older schema's
        // bundle is derived from the newest's by dropping tables (`BundleWriter`), and its
        // language rules are not run again (`BundleBuilder.sealTemporary`), which would have
        // failed on a missing table.
        if let version = try Int.fetchOne(db, sql: "PRAGMA user_version"), BundleSchema.writableVersions.contains(version) {
            problems += try BundleSchemaDefinition.differences(in: db, version: version).map { "schema \(version): \($0)" }
        }
        if languages { problems += try languageProblems(in: db) }
        // Each image is addressed by the SHA-256 of its bytes, and each rendition of schema 4
        // records its own: a flipped bit inside one passes SQLite's checks, since a BLOB's
        // bytes are not checked by anything else.
        let damagedImages = try mismatchedDigests(db, table: "images")
        if !damagedImages.isEmpty {
            problems.append("images whose bytes do not match their SHA-256: \(damagedImages.prefix(5).joined(separator: ", "))")
        }
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'renditions')") == true {
            let damagedRenditions = try mismatchedDigests(db, table: "renditions")
            if !damagedRenditions.isEmpty {
                problems.append("renditions whose bytes do not match their SHA-256: \(damagedRenditions.prefix(5).joined(separator: ", "))")
            }
        }
        // The marks of a bundle, checked as every reader of it checks them.
        do {
            try CatalogBundle.checkIdentity(db, path: "")
        } catch {
            switch error {
            case .newerSchema(_, let found, _): problems.append("user_version is \(found)")
            case .notABundle(_, let reason), .damaged(_, let reason): problems.append(reason.message)
            case .fileMissing, .cancelled: break
            }
        }
        return problems
    }

    /// The rows of `table` (`images` or `renditions`) whose bytes do not have the SHA-256 their
    /// `sha256` column records, named by its first characters (or their rowid). One row at a
    /// time: a cursor, not every blob in memory at once. Each value is read as what it may be:
    /// a damaged bundle holds anything.
    private static func mismatchedDigests(_ db: Database, table: String) throws -> [String] {
        var mismatched: [String] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, sha256, bytes FROM \(table)")
        while let row = try rows.next() {
            let key = (try? row.value("sha256", as: String.self)) ?? ""
            let bytes = try? row.value("bytes", as: Data.self)
            if bytes.map({ SHA256.hash(data: $0).hexString }) != key {
                mismatched.append(key.isEmpty ? "row \((try? row.value("rowid", as: Int64.self)) ?? 0)" : String(key.prefix(12)).showingInvisibles)
            }
        }
        return mismatched
    }
}
