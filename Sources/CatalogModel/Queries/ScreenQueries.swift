import Foundation
import GRDB

// The named queries behind every screen. SQL stays in this folder; each query turns rows into
// records with the records' own `init(row:)`, beside each record in Screens/.

extension BundleQuery where Value == [SectionTab] {
    /// The tab sections in tab order.
    package static func sections(_ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            texts.add("title", "s.title", kind: "'section'", entity: "s.id", field: "'title'")
            return try Row.fetchAll(db, sql: "SELECT s.id, s.icon, \(texts.select) FROM sections AS s \(texts.join) ORDER BY s.position")
                .map { try SectionTab(row: $0, reading: reading) }
        }
    }
}

extension BundleQuery where Value == HomeScreen {
    /// The home screen with the promotions running on `day`.
    static func home(on day: Day, _ reading: TextReading) -> Self {
        Self { db in try HomeScreen(db, reading: reading, promotions: try PromotionCard.fetchAll(db, on: day, reading: reading)) }
    }
}

/// The rows of the product or recipe list in `table` (aliased `e`), in the reading's list
/// order: `id`, `icon`, and `name` and `summary` read in `reading`. `condition` selects them;
/// it is given the expression of a row's position in that order (from 1), and may use the
/// tables `joining` names before `e` (ending in a join to it).
private func listRows<Record>(
    _ db: Database, _ reading: TextReading, table: String, kind: String, joining: String = "",
    where condition: (_ position: String) -> String, arguments: StatementArguments, limit: Int = Int(Int32.max),
    _ record: (Row, TextReading) throws -> Record
) throws -> [Record] {
    let order = reading.listOrder(of: kind, alias: "e", afterRows: !joining.isEmpty)
    var texts = TranslatedTexts(reading)
    texts.add("name", "e.name", kind: "'\(kind)'", entity: "e.id", field: "'name'")
    texts.add("summary", "e.summary", kind: "'\(kind)'", entity: "e.id", field: "'summary'")
    return try Row.fetchAll(db, sql: """
        SELECT e.id, e.icon, \(texts.select) FROM \(joining)\(table) AS e \(order.join) \(texts.join)
        WHERE \(condition(order.position)) ORDER BY \(order.position) LIMIT \(max(0, min(limit, Int(Int32.max))))
        """, arguments: arguments).map { try record($0, reading) }
}

extension BundleQuery where Value == [ProductRow] {
    /// Product list rows in list order, `limit` rows from `offset`.
    static func productRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try listRows(db, reading, table: "products", kind: "product", where: { "\($0) > ?" }, arguments: [offset], limit: limit,
                         ProductRow.init(row:reading:))
        }
    }
}

extension BundleQuery where Value == ProductDetail? {
    /// A product's detail screen; nil if there is no such product.
    static func product(_ id: ProductID, _ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            for (name, field) in [("name", "name"), ("summary", "summary"), ("body_json", "body")] {
                texts.add(name, "p.\(name)", kind: "'product'", entity: "p.id", field: "'\(field)'")
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT p.id, \(texts.select) FROM products AS p \(texts.join) WHERE p.id = ?",
                                             arguments: [id.rawValue]) else {
                return nil
            }
            let pictures = try BundleQuery<[Picture]>.pictures(of: "product", id.rawValue, reading).body(db)
            let recipes = try listRows(db, reading, table: "recipes", kind: "recipe", joining: "recipe_products AS rp CROSS JOIN ",
                                       where: { _ in "rp.recipe_id = e.id AND rp.product_id = ?" }, arguments: [id.rawValue], RecipeRow.init(row:reading:))
            let retailers = try RetailerRow.fetchAll(
                db, reading: reading, where: "r.id IN (SELECT retailer_id FROM retailer_products WHERE product_id = ?)", arguments: [id.rawValue])
            return ProductDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), body: try row.richText("body_json"),
                pictures: pictures, recipes: recipes, retailers: retailers,
                languages: try reading.languages(row, [.name: "name", .summary: "summary", .body: "body_json"]))
        }
    }
}

extension BundleQuery where Value == [Picture] {
    /// The pictures of a product or recipe, in order, their alt texts read in `reading`.
    static func pictures(of kind: String, _ id: String, _ reading: TextReading) -> Self {
        Self { db in
            var alts = TranslatedTexts(reading)
            alts.add("alt", "i.alt", kind: "'\(kind)'", entity: "i.\(kind)_id", field: "'picture:' || i.position")
            return try Row.fetchAll(db, sql: """
                SELECT i.image, \(alts.select) FROM \(kind)_images AS i \(alts.join) WHERE i.\(kind)_id = ? ORDER BY i.position
                """, arguments: [id]).map { try Picture(row: $0, reading: reading) }
        }
    }
}

extension BundleQuery where Value == [RecipeRow] {
    /// Recipe list rows in list order, `limit` rows from `offset`.
    static func recipeRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            try listRows(db, reading, table: "recipes", kind: "recipe", where: { "\($0) > ?" }, arguments: [offset], limit: limit,
                         RecipeRow.init(row:reading:))
        }
    }
}

extension BundleQuery where Value == RecipeDetail? {
    /// A recipe's detail screen; nil if there is no such recipe.
    static func recipe(_ id: RecipeID, _ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            for (name, field) in [("name", "name"), ("summary", "summary"), ("method_json", "method")] {
                texts.add(name, "r.\(name)", kind: "'recipe'", entity: "r.id", field: "'\(field)'")
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT r.id, \(texts.select) FROM recipes AS r \(texts.join) WHERE r.id = ?",
                                             arguments: [id.rawValue]) else {
                return nil
            }
            var lines = TranslatedTexts(reading)
            lines.add("text", "i.text", kind: "'recipe'", entity: "i.recipe_id", field: "'ingredient:' || i.position")
            let ingredients = try Row.fetchAll(db, sql: """
                SELECT i.product_id, \(lines.select) FROM recipe_ingredients AS i \(lines.join) WHERE i.recipe_id = ? ORDER BY i.position
                """, arguments: [id.rawValue]).map { try Ingredient(row: $0, reading: reading) }
            let pictures = try BundleQuery<[Picture]>.pictures(of: "recipe", id.rawValue, reading).body(db)
            let products = try listRows(db, reading, table: "products", kind: "product", joining: "recipe_products AS rp CROSS JOIN ",
                                        where: { _ in "rp.product_id = e.id AND rp.recipe_id = ?" }, arguments: [id.rawValue], ProductRow.init(row:reading:))
            return RecipeDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), ingredients: ingredients,
                method: try row.richText("method_json"), pictures: pictures, products: products,
                languages: try reading.languages(row, [.name: "name", .summary: "summary", .method: "method_json"]))
        }
    }
}

extension BundleQuery where Value == [RetailerRow] {
    /// Retailer rows in list order, `limit` rows from `offset`.
    static func retailerRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            let position = reading.listOrder(of: "retailer", alias: "r").position
            let (end, overflow) = offset.addingReportingOverflow(min(limit, Int(Int32.max)))
            return try RetailerRow.fetchAll(db, reading: reading, where: "\(position) > ? AND \(position) <= ?",
                                            arguments: [offset, overflow ? Int.max : end], byPosition: true)
        }
    }
}

extension BundleQuery where Value == CompanyScreen {
    /// The company screen.
    static func company(_ reading: TextReading) -> Self { Self { db in try CompanyScreen(db, reading: reading) } }
}

extension BundleQuery where Value == StoredImage? {
    /// An image's bytes, media type and size; nil if there is no such image.
    static func image(_ id: ImageID) -> Self {
        Self { db in
            try Row.fetchOne(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images WHERE sha256 = ?", arguments: [id.rawValue])
                .map(StoredImage.init(row:))
        }
    }

    /// The rendition of `id` that `ImageRendition.best(among:width:scale:)` picks, with its
    /// bytes, in one read; `ladder`: the bundle has schema 4's `renditions`.
    static func image(_ id: ImageID, width: Double, scale: Double, ladder: Bool) -> Self {
        Self { db in
            let renditions = try BundleQuery<[ImageRendition]>.renditions(of: id, ladder: ladder).body(db)
            guard let chosen = ImageRendition.best(among: renditions, width: width, scale: scale) else { return nil }
            return try image(chosen).body(db)
        }
    }

    /// The bytes of `rendition`: a row of `renditions`, or the picture's own in `images`.
    static func image(_ rendition: ImageRendition) -> Self {
        Self { db in
            if rendition.id == rendition.image { return try Row.fetchOne(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images WHERE sha256 = ?",
                                                                         arguments: [rendition.id.rawValue]).map(StoredImage.init(row:)) }
            return try Row.fetchOne(db, sql: """
                SELECT sha256, media_type, width, height, bytes FROM renditions WHERE image = ? AND media_type = ? AND width = ?
                """, arguments: [rendition.image.rawValue, rendition.format.mediaType, rendition.width]).map(StoredImage.init(row:))
        }
    }
}

extension BundleQuery where Value == [ImageRendition] {
    /// A picture's renditions, widest first, the picture's own image first of those as wide;
    /// `ladder`: the bundle has schema 4's `renditions`.
    static func renditions(of image: ImageID, ladder: Bool) -> Self {
        Self { db in
            let own = try Row.fetchAll(db, sql: "SELECT sha256, sha256 AS image, media_type, width, height, byte_count FROM images WHERE sha256 = ?",
                                       arguments: [image.rawValue]).map(ImageRendition.init(row:))
            guard ladder, !own.isEmpty else { return own }
            let others = try Row.fetchAll(db, sql: """
                SELECT sha256, image, media_type, width, height, byte_count FROM renditions WHERE image = ? ORDER BY width DESC, media_type
                """, arguments: [image.rawValue]).map(ImageRendition.init(row:))
            return (own + others).enumerated().sorted { ($1.element.width, $0.offset) < ($0.element.width, $1.offset) }.map(\.element)
        }
    }
}

extension BundleQuery where Value == ScreenContent? {
    /// The content of one route on `today`; nil when the route's product or recipe is not there.
    /// A list holds the rows at the positions in `rows` (from 0, in list order), all by default.
    static func content(of route: Route, today: Day, rows: Range<Int> = 0..<Int.max, _ reading: TextReading) -> Self {
        let offset = max(0, rows.lowerBound), limit = max(0, rows.upperBound - offset)
        return Self { db in
            switch route {
            case .home: .home(try BundleQuery<HomeScreen>.home(on: today, reading).body(db))
            case .products: .productList(try BundleQuery<[ProductRow]>.productRows(offset: offset, limit: limit, reading).body(db))
            case .product(let id): try BundleQuery<ProductDetail?>.product(id, reading).body(db).map(ScreenContent.product)
            case .recipes: .recipeList(try BundleQuery<[RecipeRow]>.recipeRows(offset: offset, limit: limit, reading).body(db))
            case .recipe(let id): try BundleQuery<RecipeDetail?>.recipe(id, reading).body(db).map(ScreenContent.recipe)
            case .retailers: .retailerList(try BundleQuery<[RetailerRow]>.retailerRows(offset: offset, limit: limit, reading).body(db))
            case .company: .company(try BundleQuery<CompanyScreen>.company(reading).body(db))
            }
        }
    }
}
