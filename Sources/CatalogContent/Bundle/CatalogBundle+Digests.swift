import CatalogModel
import Crypto
import Foundation
import GRDB

/// The ids of a bundle's three lists in list order, each with a SHA-256 of its rows: what
/// `digno diff` compares first, so that only the entities that differ are read whole.
package struct ListDigests: Sendable, Equatable {
    package struct List: Sendable, Equatable {
        /// The ids in list order.
        package var ids: [String] = []
        /// Each entity's rows (its own and its pictures, ingredients or products, and in a
        /// bundle of schema 3 its translations), all columns but its list position, hashed.
        package var digests: [String: Data] = [:]
    }

    package var products = List()
    package var recipes = List()
    package var retailers = List()
}

extension CatalogBundle {
    /// The digests of every product, recipe and retailer, in one read of their tables.
    package func listDigests() throws(CatalogBundleError) -> ListDigests {
        // Schema 3's translations of each entity, in their primary key's order.
        let hasTranslations = release.schemaVersion >= 3
        // The kind is a bound value; the alias, one of the queries' own.
        @Sendable func translations(_ kind: String, _ alias: String) -> SQL {
            guard hasTranslations else { return "" }
            return """
                 || ';' || coalesce((SELECT group_concat(quote(t.language) || ',' || quote(t.field) || ',' || quote(t.text), ';') \
                FROM translations AS t WHERE t.kind = \(kind) AND t.entity_id = \(sql: alias).id), '')
                """
        }
        return try read(BundleQuery { db in
            ListDigests(
                products: try Self.digests(db, sql: """
                    SELECT p.id, quote(p.name) || ',' || quote(p.summary) || ',' || quote(p.icon) || ',' || quote(p.body_json) || ';' ||
                      coalesce((SELECT group_concat(quote(i.position) || ',' || quote(i.image) || ',' || quote(i.alt), ';')
                                FROM product_images AS i WHERE i.product_id = p.id), '')\(literal: translations("product", "p"))
                    FROM products AS p ORDER BY p.position
                    """),
                recipes: try Self.digests(db, sql: """
                    SELECT r.id, quote(r.name) || ',' || quote(r.summary) || ',' || quote(r.icon) || ',' || quote(r.method_json) || ';' ||
                      coalesce((SELECT group_concat(quote(i.position) || ',' || quote(i.image) || ',' || quote(i.alt), ';')
                                FROM recipe_images AS i WHERE i.recipe_id = r.id), '') || ';' ||
                      coalesce((SELECT group_concat(quote(g.position) || ',' || quote(g.text) || ',' || quote(g.product_id), ';')
                                FROM recipe_ingredients AS g WHERE g.recipe_id = r.id), '')\(literal: translations("recipe", "r"))
                    FROM recipes AS r ORDER BY r.position
                    """),
                retailers: try Self.digests(db, sql: """
                    SELECT r.id, quote(r.name) || ',' || quote(r.logo) || ',' || quote(r.address) || ',' || quote(r.phone) || ',' ||
                      quote(r.opening_hours) || ',' || quote(r.other_info) || ',' || quote(r.web_address) || ',' ||
                      quote(r.latitude) || ',' || quote(r.longitude) || ';' ||
                      coalesce((SELECT group_concat(quote(s.position) || ',' || quote(s.product_id), ';')
                                FROM retailer_products AS s WHERE s.retailer_id = r.id), '')\(literal: translations("retailer", "r"))
                    FROM retailers AS r ORDER BY r.position
                    """))
        })
    }

    /// Each row's id and the SHA-256 of its text, in order. `group_concat` takes the child rows
    /// in the order of their primary key index, (owner, position), the same for both bundles
    /// under one SQLite.
    private static func digests(_ db: Database, sql: SQL) throws -> ListDigests.List {
        var list = ListDigests.List()
        let rows = try SQLRequest<Row>(literal: sql).fetchCursor(db)
        while let row = try rows.next() {
            let id = try row.slug("id")
            let text: String = row[1] ?? ""
            list.ids.append(id)
            list.digests[id] = Data(SHA256.hash(data: Data(text.utf8)))
        }
        return list
    }

    /// Every picture's SHA-256.
    package func pictureSHA256s() throws(CatalogBundleError) -> Set<String> {
        try read(BundleQuery { db in Set(try String.fetchAll(db, sql: "SELECT sha256 FROM images")) })
    }

    /// The pictures' bytes, each rendition once, as the bundle stores them: its `images`, and
    /// from schema 4 its `renditions`.
    package func pictureByteCount() throws(CatalogBundleError) -> Int {
        let ladder = release.schemaVersion >= 4
        return try read(BundleQuery { db in
            try (Int.fetchOne(db, sql: "SELECT coalesce(sum(byte_count), 0) FROM images") ?? 0)
                + (ladder ? try Int.fetchOne(db, sql: "SELECT coalesce(sum(byte_count), 0) FROM renditions") ?? 0 : 0)
        })
    }
}
