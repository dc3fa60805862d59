import CatalogContent
import CatalogModel
import GRDB

/// The bundle's rows, every table's but the search index's and `search_entries`.
extension BundleWriter {
    /// A rich text's two stored forms.
    private struct TextForms {
        var json: [UInt8]
        var plain: String

        init(_ text: RichText) {
            json = RichTextJSON.utf8(text)
            plain = text.plainText
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

    /// Inserts the rows of every table but the search index and `search_entries`.
    func insertAll(_ db: Database, _ lists: Lists) throws {
        func image(_ reference: ImageReference) -> String { images.sha256(of: reference) }
        func insert(_ sql: String) throws -> SQLiteInsert { try SQLiteInsert(db, sql) }

        let insertInfo = try insert("INSERT INTO bundle_info (key, value) VALUES (?, ?)")
        for (key, value) in info.sorted(by: { $0.key < $1.key }) { try insertInfo(.text(key), .text(value)) }

        let insertImage = try insert("INSERT INTO images (sha256, media_type, width, height, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?)")
        for (sha256, stored) in images.bySHA256.sorted(by: { $0.key < $1.key }) {
            try insertImage(.text(sha256), .text(stored.format.mediaType), .integer(stored.width), .integer(stored.height),
                            .integer(stored.bytes.count), .blob(stored.bytes))
        }
        if schemaVersion >= 4 {
            let insertRendition = try insert("INSERT INTO renditions (image, media_type, width, height, sha256, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)")
            for (sha256, ladder) in images.ladders.sorted(by: { $0.key < $1.key }) {
                for rendition in ladder {
                    try insertRendition(.text(sha256), .text(rendition.format.rawValue), .integer(rendition.width), .integer(rendition.height),
                                        .text(rendition.sha256), .integer(rendition.bytes.count), .blob(rendition.bytes))
                }
            }
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
