import Foundation
import GRDB

// The named queries behind every screen. SQL stays in this folder; callers get typed records.

extension CatalogBundle {
    /// The tab sections in tab order.
    public func sections() throws(CatalogBundleError) -> [SectionTab] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, icon FROM sections ORDER BY position").map { row in
                guard let kind = SectionKind(rawValue: row["id"]) else { throw DatabaseError(message: "unknown section \(row["id"] as String)") }
                return SectionTab(id: kind, title: row["title"], icon: ImageID(rawValue: row["icon"]))
            }
        }
    }

    /// The home screen, with the promotions running on `day`.
    public func home(on day: Day) throws(CatalogBundleError) -> HomeScreen {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT logo, image, image_alt, body_json FROM home WHERE id = 1") else {
                throw DatabaseError(message: "the bundle has no home page")
            }
            let promotions = try Row.fetchAll(db, sql: """
                SELECT * FROM promotions WHERE first_day <= ?1 AND last_day >= ?1 ORDER BY position
                """, arguments: [day.description]).map(Self.promotion)
            return HomeScreen(
                logo: ImageID(rawValue: row["logo"]), picture: Picture(image: ImageID(rawValue: row["image"]), alt: row["image_alt"]),
                body: try Self.richText(row["body_json"]), promotions: promotions)
        }
    }

    /// Product list rows in list order; `limit` rows from `offset` for paging.
    public func productRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [ProductRow] {
        try read { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM products WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(Self.productRow)
        }
    }

    /// A product's detail screen; nil if there is no such product.
    public func product(_ id: ProductID) throws(CatalogBundleError) -> ProductDetail? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, summary, body_json FROM products WHERE id = ?", arguments: [id.rawValue]) else {
                return nil
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM product_images WHERE product_id = ? ORDER BY position",
                                            arguments: [id.rawValue]).map(Self.picture)
            let recipes = try Row.fetchAll(db, sql: """
                SELECT r.id, r.name, r.summary, r.icon FROM recipe_products AS rp JOIN recipes AS r ON r.id = rp.recipe_id
                WHERE rp.product_id = ? ORDER BY r.position
                """, arguments: [id.rawValue]).map(Self.recipeRow)
            let retailers = try Self.retailerRows(
                db, where: "r.id IN (SELECT retailer_id FROM retailer_products WHERE product_id = ?)", arguments: [id.rawValue])
            return ProductDetail(
                id: id, name: row["name"], summary: row["summary"], body: try Self.richText(row["body_json"]), pictures: pictures,
                recipes: recipes, retailers: retailers)
        }
    }

    /// Recipe list rows in list order; `limit` rows from `offset` for paging.
    public func recipeRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [RecipeRow] {
        try read { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM recipes WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(Self.recipeRow)
        }
    }

    /// A recipe's detail screen; nil if there is no such recipe.
    public func recipe(_ id: RecipeID) throws(CatalogBundleError) -> RecipeDetail? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, summary, method_json FROM recipes WHERE id = ?", arguments: [id.rawValue]) else {
                return nil
            }
            let ingredients = try Row.fetchAll(db, sql: "SELECT text, product_id FROM recipe_ingredients WHERE recipe_id = ? ORDER BY position",
                                               arguments: [id.rawValue]).map { row in
                Ingredient(text: row["text"], product: (row["product_id"] as String?).map { ProductID(rawValue: $0) })
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM recipe_images WHERE recipe_id = ? ORDER BY position",
                                            arguments: [id.rawValue]).map(Self.picture)
            let products = try Row.fetchAll(db, sql: """
                SELECT p.id, p.name, p.summary, p.icon FROM recipe_products AS rp JOIN products AS p ON p.id = rp.product_id
                WHERE rp.recipe_id = ? ORDER BY p.position
                """, arguments: [id.rawValue]).map(Self.productRow)
            return RecipeDetail(
                id: id, name: row["name"], summary: row["summary"], ingredients: ingredients,
                method: try Self.richText(row["method_json"]), pictures: pictures, products: products)
        }
    }

    /// Retailer rows in list order; `limit` rows from `offset` for paging.
    public func retailerRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [RetailerRow] {
        try read { db in
            try Self.retailerRows(db, where: "r.position > ? AND r.position <= ?", arguments: [offset, offset + min(limit, Int(Int32.max))])
        }
    }

    /// The company screen.
    public func company() throws(CatalogBundleError) -> CompanyScreen {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT name, logo, body_json, web_address FROM company WHERE id = 1") else {
                throw DatabaseError(message: "the bundle has no company page")
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM company_images ORDER BY position").map(Self.picture)
            return CompanyScreen(name: row["name"], logo: ImageID(rawValue: row["logo"]), body: try Self.richText(row["body_json"]),
                                 pictures: pictures, webAddress: row["web_address"])
        }
    }

    /// An image's bytes, media type and size; nil if there is no such image.
    public func image(_ id: ImageID) throws(CatalogBundleError) -> StoredImage? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images WHERE sha256 = ?", arguments: [id.rawValue])
                .map { StoredImage(id: ImageID(rawValue: $0["sha256"]), mediaType: $0["media_type"], width: $0["width"], height: $0["height"], bytes: $0["bytes"]) }
        }
    }

    // MARK: Row mapping

    static func productRow(_ row: Row) -> ProductRow {
        ProductRow(id: ProductID(rawValue: row["id"]), name: row["name"], summary: row["summary"], icon: ImageID(rawValue: row["icon"]))
    }

    static func recipeRow(_ row: Row) -> RecipeRow {
        RecipeRow(id: RecipeID(rawValue: row["id"]), name: row["name"], summary: row["summary"], icon: ImageID(rawValue: row["icon"]))
    }

    static func picture(_ row: Row) -> Picture {
        Picture(image: ImageID(rawValue: row["image"]), alt: row["alt"])
    }

    static func promotion(_ row: Row) throws -> PromotionCard {
        guard let first = Day(row["first_day"] as String), let last = Day(row["last_day"] as String) else {
            throw DatabaseError(message: "a promotion's days are not YYYY-MM-DD")
        }
        let link: LinkTarget? = (row["link_product"] as String?).map { .product(ProductID(rawValue: $0)) }
            ?? (row["link_recipe"] as String?).map { .recipe(RecipeID(rawValue: $0)) }
        return PromotionCard(id: PromotionID(rawValue: row["id"]), title: row["title"], text: row["text"],
                             picture: Picture(image: ImageID(rawValue: row["image"]), alt: row["image_alt"]),
                             link: link, firstDay: first, lastDay: last)
    }

    /// Retailer rows matching a condition on `retailers AS r`, in list order, each with what it
    /// sells, in two queries whatever their number.
    static func retailerRows(_ db: Database, where condition: String, arguments: StatementArguments) throws -> [RetailerRow] {
        let rows = try Row.fetchAll(db, sql: "SELECT r.* FROM retailers AS r WHERE \(condition) ORDER BY r.position", arguments: arguments)
        var sells: [String: [ProductID]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT rp.retailer_id, rp.product_id FROM retailer_products AS rp JOIN retailers AS r ON r.id = rp.retailer_id
            WHERE \(condition) ORDER BY rp.retailer_id, rp.position
            """, arguments: arguments) {
            sells[row[0], default: []].append(ProductID(rawValue: row[1]))
        }
        return rows.map { row in
            let id: String = row["id"]
            let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
            return RetailerRow(
                id: RetailerID(rawValue: id), name: row["name"], logo: ImageID(rawValue: row["logo"]), address: row["address"],
                phone: row["phone"], openingHours: row["opening_hours"], otherInfo: row["other_info"], webAddress: row["web_address"],
                coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) } },
                sells: sells[id] ?? [])
        }
    }

    static func richText(_ json: String) throws -> RichText {
        try JSONDecoder().decode(RichText.self, from: Data(json.utf8))
    }
}
