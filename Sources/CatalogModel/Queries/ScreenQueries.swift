import Foundation
import GRDB

// The named queries behind every screen. SQL stays in this folder; each query turns rows into
// records with the records' own `init(row:)`, beside each record in Screens/.

extension BundleQuery where Value == [SectionTab] {
    /// The tab sections in tab order.
    package static var sections: Self {
        Self { db in try Row.fetchAll(db, sql: "SELECT id, title, icon FROM sections ORDER BY position").map(SectionTab.init(row:)) }
    }
}

extension BundleQuery where Value == HomeScreen {
    /// The home screen with the promotions running on `day`.
    static func home(on day: Day) -> Self {
        Self { db in
            let promotions = try Row.fetchAll(db, sql: """
                SELECT * FROM promotions WHERE first_day <= ?1 AND last_day >= ?1 ORDER BY position
                """, arguments: [day.description]).map(PromotionCard.init(row:))
            return try HomeScreen(db, promotions: promotions)
        }
    }
}

extension BundleQuery where Value == [ProductRow] {
    /// Product list rows in list order, `limit` rows from `offset`.
    static func productRows(offset: Int, limit: Int) -> Self {
        Self { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM products WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(ProductRow.init(row:))
        }
    }
}

extension BundleQuery where Value == ProductDetail? {
    /// A product's detail screen; nil if there is no such product.
    static func product(_ id: ProductID) -> Self {
        Self { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, summary, body_json FROM products WHERE id = ?", arguments: [id.rawValue]) else {
                return nil
            }
            let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM product_images WHERE product_id = ? ORDER BY position",
                                            arguments: [id.rawValue]).map { try Picture(row: $0) }
            let recipes = try Row.fetchAll(db, sql: """
                SELECT r.id, r.name, r.summary, r.icon FROM recipe_products AS rp JOIN recipes AS r ON r.id = rp.recipe_id
                WHERE rp.product_id = ? ORDER BY r.position
                """, arguments: [id.rawValue]).map(RecipeRow.init(row:))
            let retailers = try RetailerRow.fetchAll(
                db, where: "r.id IN (SELECT retailer_id FROM retailer_products WHERE product_id = ?)", arguments: [id.rawValue])
            return ProductDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), body: try row.richText("body_json"),
                pictures: pictures, recipes: recipes, retailers: retailers)
        }
    }
}

extension BundleQuery where Value == [RecipeRow] {
    /// Recipe list rows in list order, `limit` rows from `offset`.
    static func recipeRows(offset: Int, limit: Int) -> Self {
        Self { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try Row.fetchAll(db, sql: "SELECT id, name, summary, icon FROM recipes WHERE position > ? ORDER BY position LIMIT ?",
                             arguments: [offset, min(limit, Int(Int32.max))]).map(RecipeRow.init(row:))
        }
    }
}

extension BundleQuery where Value == RecipeDetail? {
    /// A recipe's detail screen; nil if there is no such recipe.
    static func recipe(_ id: RecipeID) -> Self {
        Self { db in
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
}

extension BundleQuery where Value == [RetailerRow] {
    /// Retailer rows in list order, `limit` rows from `offset`.
    static func retailerRows(offset: Int, limit: Int) -> Self {
        Self { db in
            try RetailerRow.fetchAll(db, where: "r.position > ? AND r.position <= ?", arguments: [offset, offset + min(limit, Int(Int32.max))])
        }
    }
}

extension BundleQuery where Value == CompanyScreen {
    /// The company screen.
    static var company: Self { Self { db in try CompanyScreen(db) } }
}

extension BundleQuery where Value == StoredImage? {
    /// An image's bytes, media type and size; nil if there is no such image.
    static func image(_ id: ImageID) -> Self {
        Self { db in
            try Row.fetchOne(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images WHERE sha256 = ?", arguments: [id.rawValue])
                .map(StoredImage.init(row:))
        }
    }
}

extension BundleQuery where Value == ScreenContent? {
    /// The content of one route on `today`; nil when the route's product or recipe is not there.
    /// A list holds the rows at the positions in `rows` (from 0, in list order), all by default.
    static func content(of route: Route, today: Day, rows: Range<Int> = 0..<Int.max) -> Self {
        let offset = max(0, rows.lowerBound), limit = max(0, rows.upperBound - offset)
        return Self { db in
            switch route {
            case .home: .home(try BundleQuery<HomeScreen>.home(on: today).body(db))
            case .products: .productList(try BundleQuery<[ProductRow]>.productRows(offset: offset, limit: limit).body(db))
            case .product(let id): try BundleQuery<ProductDetail?>.product(id).body(db).map(ScreenContent.product)
            case .recipes: .recipeList(try BundleQuery<[RecipeRow]>.recipeRows(offset: offset, limit: limit).body(db))
            case .recipe(let id): try BundleQuery<RecipeDetail?>.recipe(id).body(db).map(ScreenContent.recipe)
            case .retailers: .retailerList(try BundleQuery<[RetailerRow]>.retailerRows(offset: offset, limit: limit).body(db))
            case .company: .company(try BundleQuery<CompanyScreen>.company.body(db))
            }
        }
    }
}
