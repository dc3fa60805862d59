import Foundation
import GRDB

// The named queries behind every screen. SQL stays in this folder; callers get typed records.

extension CatalogBundle {
    /// The tab sections in tab order.
    public func sections() throws(CatalogBundleError) -> [SectionTab] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, icon FROM sections ORDER BY position").map(SectionTab.init(row:))
        }
    }

    /// The home screen, with the promotions running on `day`.
    public func home(on day: Day) throws(CatalogBundleError) -> HomeScreen {
        try read { db in
            let row = try Self.homeRow(db)
            let promotions = try Row.fetchAll(db, sql: """
                SELECT * FROM promotions WHERE first_day <= ?1 AND last_day >= ?1 ORDER BY position
                """, arguments: [day.description]).map(PromotionCard.init(row:))
            return HomeScreen(logo: try row.imageID("logo"), picture: try Picture(row: row, alt: "image_alt"),
                              body: try row.richText("body_json"), promotions: promotions)
        }
    }

    /// Product list rows in list order; `limit` rows from `offset` for paging.
    public func productRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [ProductRow] {
        try read { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM products WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(ProductRow.init(row:))
        }
    }

    /// A product's detail screen; nil if there is no such product.
    public func product(_ id: ProductID) throws(CatalogBundleError) -> ProductDetail? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, summary, body_json FROM products WHERE id = ?", arguments: [id.rawValue]) else {
                return nil
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM product_images WHERE product_id = ? ORDER BY position",
                                            arguments: [id.rawValue]).map { try Picture(row: $0) }
            let recipes = try Row.fetchAll(db, sql: """
                SELECT r.id, r.name, r.summary, r.icon FROM recipe_products AS rp JOIN recipes AS r ON r.id = rp.recipe_id
                WHERE rp.product_id = ? ORDER BY r.position
                """, arguments: [id.rawValue]).map(RecipeRow.init(row:))
            let retailers = try Self.retailerRows(
                db, where: "r.id IN (SELECT retailer_id FROM retailer_products WHERE product_id = ?)", arguments: [id.rawValue])
            return ProductDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), body: try row.richText("body_json"), pictures: pictures,
                recipes: recipes, retailers: retailers)
        }
    }

    /// Recipe list rows in list order; `limit` rows from `offset` for paging.
    public func recipeRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [RecipeRow] {
        try read { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM recipes WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(RecipeRow.init(row:))
        }
    }

    /// A recipe's detail screen; nil if there is no such recipe.
    public func recipe(_ id: RecipeID) throws(CatalogBundleError) -> RecipeDetail? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, summary, method_json FROM recipes WHERE id = ?", arguments: [id.rawValue]) else {
                return nil
            }
            let ingredients = try Row.fetchAll(db, sql: "SELECT text, product_id FROM recipe_ingredients WHERE recipe_id = ? ORDER BY position",
                                               arguments: [id.rawValue]).map(Ingredient.init(row:))
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM recipe_images WHERE recipe_id = ? ORDER BY position",
                                            arguments: [id.rawValue]).map { try Picture(row: $0) }
            let products = try Row.fetchAll(db, sql: """
                SELECT p.id, p.name, p.summary, p.icon FROM recipe_products AS rp JOIN products AS p ON p.id = rp.product_id
                WHERE rp.recipe_id = ? ORDER BY p.position
                """, arguments: [id.rawValue]).map(ProductRow.init(row:))
            return RecipeDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), ingredients: ingredients,
                method: try row.richText("method_json"), pictures: pictures, products: products)
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
                throw BundleValueError("it has no company page")
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM company_images ORDER BY position").map { try Picture(row: $0) }
            return CompanyScreen(name: try row.nonEmptyText("name"), logo: try row.imageID("logo"), body: try row.richText("body_json"),
                                 pictures: pictures, webAddress: try row.nonEmptyText("web_address"))
        }
    }

    /// An image's bytes, media type and size; nil if there is no such image.
    public func image(_ id: ImageID) throws(CatalogBundleError) -> StoredImage? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images WHERE sha256 = ?", arguments: [id.rawValue])
                .map(StoredImage.init(row:))
        }
    }

    /// The home page's one row.
    static func homeRow(_ db: Database) throws -> Row {
        guard let row = try Row.fetchOne(db, sql: "SELECT logo, image, image_alt, body_json FROM home WHERE id = 1") else {
            throw BundleValueError("it has no home page")
        }
        return row
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
            sells[try row.slug("retailer_id"), default: []].append(ProductID(rawValue: try row.slug("product_id")))
        }
        return try rows.map { row in try RetailerRow(row: row, sells: sells[try row.slug("id")] ?? []) }
    }
}
