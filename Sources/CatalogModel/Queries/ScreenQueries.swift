import Foundation
import GRDB

// The named queries behind every screen. SQL stays in this folder; each query turns rows into
// records with the records' own `init(row:)`, beside each record in Screens/.

extension BundleQuery where Value == [SectionTab] {
    /// The tab sections in tab order.
    package static func sections(_ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            texts.add(.title, of: "s", kind: "\("section")", entity: "s.id")
            return try SQLRequest<Row>(literal: "SELECT s.id, s.icon, \(literal: texts.select) FROM sections AS s \(literal: texts.join) ORDER BY s.position")
                .fetchAll(db).map { try SectionTab(row: $0, reading: reading) }
        }
    }
}

extension BundleQuery where Value == HomeScreen {
    /// The home screen with the promotions running on `day`.
    static func home(on day: Day, _ reading: TextReading) -> Self {
        Self { db in try HomeScreen(db, reading: reading, promotions: try PromotionCard.fetchAll(db, on: day, reading: reading)) }
    }
}

/// The rows of the product or recipe list of `kind` (its table aliased `e`), in the reading's
/// list order: `id`, `icon`, and `name` and `summary` read in `reading`. `condition` selects
/// them, its values bound; it is given the expression of a row's position in that order (from
/// 1), and may use the tables `joining` names before `e` (ending in a join to it).
private func listRows<Record>(
    _ db: Database, _ reading: TextReading, kind: ListKind, joining: SQL = "",
    where condition: (_ position: SQL) -> SQL, limit: Int = Int(Int32.max),
    _ record: (Row, TextReading) throws -> Record
) throws -> [Record] {
    let order = reading.listOrder(of: kind.rawValue, alias: "e", afterRows: !joining.isEmpty)
    var texts = TranslatedTexts(reading)
    for text in [TranslatedColumn.name, .summary] { texts.add(text, of: "e", kind: "\(kind.rawValue)", entity: "e.id") }
    return try SQLRequest<Row>(literal: """
        SELECT e.id, e.icon, \(literal: texts.select) FROM \(literal: joining)\(sql: kind.table) AS e \(literal: order.join) \(literal: texts.join)
        WHERE \(literal: condition(order.position)) ORDER BY \(literal: order.position) LIMIT \(max(0, min(limit, Int(Int32.max))))
        """).fetchAll(db).map { try record($0, reading) }
}

/// The two lists of entities with pictures and their own screens: their kind in `translations`
/// and `list_positions`, and their tables' names (identifiers, which SQL cannot bind).
enum ListKind: String {
    case product, recipe

    /// The entities' table.
    var table: String { rawValue + "s" }
    /// Their pictures' table, whose owner column is `<kind>_id`.
    var images: String { rawValue + "_images" }
    var owner: String { rawValue + "_id" }
}

extension BundleQuery where Value == [ProductRow] {
    /// Product list rows in list order, `limit` rows from `offset`.
    static func productRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            // Positions run 1...n without gaps, so a page is a range of the position index.
            try listRows(db, reading, kind: .product, where: { "\(literal: $0) > \(offset)" }, limit: limit, ProductRow.init(row:reading:))
        }
    }
}

extension BundleQuery where Value == ProductDetail? {
    /// A product's detail screen; nil if there is no such product.
    static func product(_ id: ProductID, _ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            let translated: [TranslatedColumn] = [.name, .summary, .body]
            for text in translated { texts.add(text, of: "p", kind: "\("product")", entity: "p.id") }
            guard let row = try SQLRequest<Row>(literal: "SELECT p.id, \(literal: texts.select) FROM products AS p \(literal: texts.join) WHERE p.id = \(id.rawValue)")
                .fetchOne(db) else {
                return nil
            }
            let pictures = try BundleQuery<[Picture]>.pictures(of: .product, id.rawValue, reading).body(db)
            let recipes = try listRows(db, reading, kind: .recipe, joining: "recipe_products AS rp CROSS JOIN ",
                                       where: { _ in "rp.recipe_id = e.id AND rp.product_id = \(id.rawValue)" }, RecipeRow.init(row:reading:))
            let retailers = try RetailerRow.fetchAll(
                db, reading: reading, where: "r.id IN (SELECT retailer_id FROM retailer_products WHERE product_id = \(id.rawValue))")
            return ProductDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), body: try row.richText("body_json"),
                pictures: pictures, recipes: recipes, retailers: retailers,
                languages: try reading.languages(row, translated))
        }
    }
}

extension BundleQuery where Value == [Picture] {
    /// The pictures of a product or recipe, in order, their alt texts read in `reading`.
    static func pictures(of kind: ListKind, _ id: String, _ reading: TextReading) -> Self {
        Self { db in
            var alts = TranslatedTexts(reading)
            alts.add(.pictureAlt, of: "i", kind: "\(kind.rawValue)", entity: "i.\(sql: kind.owner)")
            return try SQLRequest<Row>(literal: """
                SELECT i.image, \(literal: alts.select) FROM \(sql: kind.images) AS i \(literal: alts.join) \
                WHERE i.\(sql: kind.owner) = \(id) ORDER BY i.position
                """).fetchAll(db).map { try Picture(row: $0, reading: reading) }
        }
    }
}

extension BundleQuery where Value == [RecipeRow] {
    /// Recipe list rows in list order, `limit` rows from `offset`.
    static func recipeRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            try listRows(db, reading, kind: .recipe, where: { "\(literal: $0) > \(offset)" }, limit: limit, RecipeRow.init(row:reading:))
        }
    }
}

extension BundleQuery where Value == RecipeDetail? {
    /// A recipe's detail screen; nil if there is no such recipe.
    static func recipe(_ id: RecipeID, _ reading: TextReading) -> Self {
        Self { db in
            var texts = TranslatedTexts(reading)
            let translated: [TranslatedColumn] = [.name, .summary, .method]
            for text in translated { texts.add(text, of: "r", kind: "\("recipe")", entity: "r.id") }
            guard let row = try SQLRequest<Row>(literal: "SELECT r.id, \(literal: texts.select) FROM recipes AS r \(literal: texts.join) WHERE r.id = \(id.rawValue)")
                .fetchOne(db) else {
                return nil
            }
            var lines = TranslatedTexts(reading)
            lines.add(.ingredientLine, of: "i", kind: "\("recipe")", entity: "i.recipe_id")
            let ingredients = try SQLRequest<Row>(literal: """
                SELECT i.product_id, \(literal: lines.select) FROM recipe_ingredients AS i \(literal: lines.join) \
                WHERE i.recipe_id = \(id.rawValue) ORDER BY i.position
                """).fetchAll(db).map { try Ingredient(row: $0, reading: reading) }
            let pictures = try BundleQuery<[Picture]>.pictures(of: .recipe, id.rawValue, reading).body(db)
            let products = try listRows(db, reading, kind: .product, joining: "recipe_products AS rp CROSS JOIN ",
                                        where: { _ in "rp.product_id = e.id AND rp.recipe_id = \(id.rawValue)" }, ProductRow.init(row:reading:))
            return RecipeDetail(
                id: id, name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"), ingredients: ingredients,
                method: try row.richText("method_json"), pictures: pictures, products: products,
                languages: try reading.languages(row, translated))
        }
    }
}

extension BundleQuery where Value == [RetailerRow] {
    /// Retailer rows in list order, `limit` rows from `offset`.
    static func retailerRows(offset: Int, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            let position = reading.listOrder(of: "retailer", alias: "r").position
            let (end, overflow) = offset.addingReportingOverflow(min(limit, Int(Int32.max)))
            return try RetailerRow.fetchAll(db, reading: reading, where: "\(literal: position) > \(offset) AND \(literal: position) <= \(overflow ? Int.max : end)",
                                            byPosition: true)
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
