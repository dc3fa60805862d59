import CatalogContent
import CatalogModel
import GRDB

/// A bundle's rows, every table's but the search indexes', one entity at a time: the prepared
/// statements that insert an entity's rows and delete them again. The writer inserts every
/// entity with them (`BundleWriter.insertAll`); the preview's patches delete and insert the
/// entities that changed (`BundlePatcher`). Used on the thread that owns the connection.
final class BundleRows {
    let images: BundleImages
    let schemaVersion: Int
    private let db: Database
    /// The statements, prepared once each when first used, by their SQL's address (a literal's
    /// is fixed): a build runs hundreds of thousands, and hashing the SQL's text each time would
    /// cost more than the lookup.
    private var prepared: [UnsafeRawPointer: SQLiteInsert] = [:]

    init(_ db: Database, images: BundleImages, schemaVersion: Int) {
        self.db = db
        self.images = images
        self.schemaVersion = schemaVersion
    }

    /// Runs `sql` with `values` (an insert, or a delete: `SQLiteInsert` runs any statement).
    private func run(_ sql: StaticString, _ values: SQLiteInsert.Value...) throws {
        let key = UnsafeRawPointer(sql.utf8Start)
        let statement: SQLiteInsert
        if let known = prepared[key] {
            statement = known
        } else {
            statement = try SQLiteInsert(db, sql.description)
            prepared[key] = statement
        }
        try statement.run(values)
    }

    /// A rich text's two stored forms.
    private struct TextForms {
        var json: [UInt8]
        var plain: String

        init(_ text: RichText) {
            json = RichTextJSON.utf8(text)
            plain = text.plainText
        }
    }

    private func image(_ reference: ImageReference) -> SQLiteInsert.Value { .text(images.sha256(of: reference)) }

    // MARK: The release and the pictures

    func info(_ key: String, _ value: String) throws {
        try run("INSERT INTO bundle_info (key, value) VALUES (?, ?)", .text(key), .text(value))
    }

    func deleteInfo(_ key: String) throws {
        try run("DELETE FROM bundle_info WHERE key = ?", .text(key))
    }

    /// A distinct picture's row in `images`, and from schema 4 its ladder's in `renditions`.
    func picture(_ sha256: String) throws {
        guard let stored = images.bySHA256[sha256] else { return }
        try run("INSERT INTO images (sha256, media_type, width, height, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?)",
                .text(sha256), .text(stored.format.mediaType), .integer(stored.width), .integer(stored.height),
                .integer(stored.bytes.count), .blob(stored.bytes))
        guard schemaVersion >= 4 else { return }
        for rendition in images.ladders[sha256] ?? [] {
            try run("INSERT INTO renditions (image, media_type, width, height, sha256, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    .text(sha256), .text(rendition.format.rawValue), .integer(rendition.width), .integer(rendition.height),
                    .text(rendition.sha256), .integer(rendition.bytes.count), .blob(rendition.bytes))
        }
    }

    func deletePicture(_ sha256: String) throws {
        if schemaVersion >= 4 { try run("DELETE FROM renditions WHERE image = ?", .text(sha256)) }
        try run("DELETE FROM images WHERE sha256 = ?", .text(sha256))
    }

    // MARK: The entities

    func section(_ section: Section, position: Int) throws {
        try run("INSERT INTO sections (id, position, title, icon) VALUES (?, ?, ?, ?)",
                .text(section.id.rawValue), .integer(position), .text(section.title), image(section.icon))
    }

    /// A product's row, at `position` in the list.
    func product(_ product: Product, position: Int) throws {
        let text = TextForms(product.body)
        try run("INSERT INTO products (id, position, name, summary, icon, body_json, body_text) VALUES (?, ?, ?, ?, ?, ?, ?)",
                .text(product.id.rawValue), .integer(position), .text(product.name), .text(product.summary), image(product.icon),
                .utf8(text.json), .text(text.plain))
    }

    /// A product's pictures' rows.
    func productPictures(_ product: Product) throws {
        for (index, picture) in product.images.enumerated() {
            try run("INSERT INTO product_images (product_id, position, image, alt) VALUES (?, ?, ?, ?)",
                    .text(product.id.rawValue), .integer(index + 1), image(picture), .text(picture.alt ?? ""))
        }
    }

    /// A recipe's row, at `position` in the list.
    func recipe(_ recipe: Recipe, position: Int) throws {
        let text = TextForms(recipe.method)
        try run("INSERT INTO recipes (id, position, name, summary, icon, method_json, method_text) VALUES (?, ?, ?, ?, ?, ?, ?)",
                .text(recipe.id.rawValue), .integer(position), .text(recipe.name), .text(recipe.summary), image(recipe.icon),
                .utf8(text.json), .text(text.plain))
    }

    /// A recipe's pictures', ingredient lines' and products' rows.
    func recipeParts(_ recipe: Recipe) throws {
        let id = recipe.id.rawValue
        for (index, picture) in recipe.images.enumerated() {
            try run("INSERT INTO recipe_images (recipe_id, position, image, alt) VALUES (?, ?, ?, ?)",
                    .text(id), .integer(index + 1), image(picture), .text(picture.alt ?? ""))
        }
        for (index, ingredient) in recipe.ingredients.enumerated() {
            try run("INSERT INTO recipe_ingredients (recipe_id, position, text, product_id) VALUES (?, ?, ?, ?)",
                    .text(id), .integer(index + 1), .text(ingredient.text), .text(ingredient.product?.rawValue))
        }
        for product in recipe.productIDs {
            try run("INSERT INTO recipe_products (recipe_id, product_id) VALUES (?, ?)", .text(id), .text(product.rawValue))
        }
    }

    /// A retailer's row, at `position` in the list.
    func retailer(_ retailer: Retailer, position: Int) throws {
        try run("""
            INSERT INTO retailers (id, position, name, logo, address, phone, opening_hours, other_info, web_address, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .text(retailer.id.rawValue), .integer(position), .text(retailer.name), image(retailer.logo), .text(retailer.address),
            .text(retailer.phone), .text(retailer.openingHours), .text(retailer.otherInfo), .text(retailer.webAddress),
            .real(retailer.coordinate?.latitude), .real(retailer.coordinate?.longitude))
    }

    /// What a retailer sells, each product once, in the editor's order.
    func retailerSells(_ retailer: Retailer) throws {
        var seen = Set<ProductID>()
        for product in retailer.sells where seen.insert(product).inserted {
            try run("INSERT INTO retailer_products (retailer_id, product_id, position) VALUES (?, ?, ?)",
                    .text(retailer.id.rawValue), .text(product.rawValue), .integer(seen.count))
        }
    }

    /// The home's row (its promotions are entities of their own).
    func home(_ home: Home) throws {
        let text = TextForms(home.body)
        try run("INSERT INTO home (id, logo, image, image_alt, body_json, body_text) VALUES (1, ?, ?, ?, ?, ?)",
                image(home.logo), image(home.image), .text(home.image.alt ?? ""), .utf8(text.json), .text(text.plain))
    }

    func promotion(_ promotion: Promotion, position: Int) throws {
        var product: String?, recipe: String?
        switch promotion.link {
        case .product(let id)?: product = id.rawValue
        case .recipe(let id)?: recipe = id.rawValue
        case nil: break
        }
        try run("""
            INSERT INTO promotions (id, position, title, text, image, image_alt, first_day, last_day, link_product, link_recipe)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .text(promotion.id.rawValue), .integer(position), .text(promotion.title), .text(promotion.text), image(promotion.image),
            .text(promotion.image.alt ?? ""), .text(promotion.firstDay.description), .text(promotion.lastDay.description),
            .text(product), .text(recipe))
    }

    /// The company's row and its pictures'.
    func company(_ company: Company) throws {
        let text = TextForms(company.body)
        try run("INSERT INTO company (id, name, logo, body_json, body_text, web_address) VALUES (1, ?, ?, ?, ?, ?)",
                .text(company.name), image(company.logo), .utf8(text.json), .text(text.plain), .text(company.webAddress))
        for (index, picture) in company.images.enumerated() {
            try run("INSERT INTO company_images (position, image, alt) VALUES (?, ?, ?)", .integer(index + 1), image(picture), .text(picture.alt ?? ""))
        }
    }

    /// Deletes every row of the entity `reference` names, its translations' too: what the
    /// inserts above and `translations(of:_:into:)` wrote of it.
    func delete(_ reference: EntityReference) throws {
        let id = SQLiteInsert.Value.text(reference.id)
        switch reference.kind {
        case .catalog: return
        case .section: try run("DELETE FROM sections WHERE id = ?", id)
        case .home: try run("DELETE FROM home")
        case .promotion: try run("DELETE FROM promotions WHERE id = ?", id)
        case .company:
            try run("DELETE FROM company_images")
            try run("DELETE FROM company")
        case .product:
            try run("DELETE FROM product_images WHERE product_id = ?", id)
            try run("DELETE FROM products WHERE id = ?", id)
        case .recipe:
            try run("DELETE FROM recipe_images WHERE recipe_id = ?", id)
            try run("DELETE FROM recipe_ingredients WHERE recipe_id = ?", id)
            try run("DELETE FROM recipe_products WHERE recipe_id = ?", id)
            try run("DELETE FROM recipes WHERE id = ?", id)
        case .retailer:
            try run("DELETE FROM retailer_products WHERE retailer_id = ?", id)
            try run("DELETE FROM retailers WHERE id = ?", id)
        }
        if schemaVersion >= 3 {
            try run("DELETE FROM translations WHERE kind = ? AND entity_id = ?", .text(reference.kind.rawValue), id)
        }
    }

    // MARK: Schema 3's languages

    func language(_ code: LanguageCode, position: Int, fallback: LanguageCode?) throws {
        try run("INSERT INTO languages (code, position, fallback) VALUES (?, ?, ?)", .text(code.rawValue), .integer(position), .text(fallback?.rawValue))
    }

    /// The entity's translated texts into `others` (every declared language but the default),
    /// one row each. A text marked translate="no" (plain text only) is the same in every
    /// language: written as each one's, so that a reader finds it translated, not fallen back.
    func translations(of reference: EntityReference, _ entity: any ContentEntity, into others: [LanguageCode]) throws {
        let translations = entity.translations
        let (kind, id) = (SQLiteInsert.Value.text(reference.kind.rawValue), SQLiteInsert.Value.text(reference.id))
        let sql: StaticString = "INSERT INTO translations (kind, entity_id, field, language, text) VALUES (?, ?, ?, ?, ?)"
        for entry in translations.entries where others.contains(entry.language) {
            guard let field = entry.field.translatedFieldName else { continue }
            let text: String
            switch entry.value {
            case .text(let plain): text = plain
            case .richText(let rich): text = RichTextJSON.encode(rich)
            }
            try run(sql, kind, id, .text(field), .text(entry.language.rawValue), .text(text))
        }
        guard !translations.fixed.isEmpty else { return }
        var texts: [FieldPath: String] = [:]
        for text in entity.translatableTexts where translations.fixed.contains(text.path) { texts[text.path] = text.plainText }
        for field in translations.fixed.sorted(by: { $0.orderKey < $1.orderKey }) {
            guard let column = field.translatedFieldName, let text = texts[field] else { continue }
            for language in others where translations[field, language] == nil {
                try run(sql, kind, id, .text(column), .text(language.rawValue), .text(text))
            }
        }
    }

    /// One entity's place in a language's list (`list_positions`).
    func listPosition(_ kind: String, language: LanguageCode, position: Int, id: String) throws {
        try run("INSERT INTO list_positions (kind, language, position, entity_id) VALUES (?, ?, ?, ?)",
                .text(kind), .text(language.rawValue), .integer(position), .text(id))
    }

    func deleteListPosition(_ kind: String, language: LanguageCode, position: Int) throws {
        try run("DELETE FROM list_positions WHERE kind = ? AND language = ? AND position = ?", .text(kind), .text(language.rawValue), .integer(position))
    }
}
