import CatalogModel
import Foundation
import GRDB

/// Writes a validated catalogue into a scratch database (a file beside the output, with no
/// journal and no syncing: it is thrown away), and copies it compacted into the bundle file
/// with `VACUUM INTO`. A file rather than memory keeps a 100,000-entity build's peak memory
/// down by the size of the bundle. `VACUUM INTO` writes pages in a canonical order,
/// so the same content gives the same bytes whatever order rows were inserted in.
struct BundleWriter {
    let catalog: Catalog
    let images: BundleImages
    let info: [String: String]

    /// Builds the scratch database at `path` and returns it.
    func scratchDatabase(at path: String) throws(BuildError) -> DatabaseQueue {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.label = "digno.scratch"
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536")
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in
                try db.execute(sql: BundleSchema.sql)
                let sqlite = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "unknown"
                try db.execute(sql: "INSERT INTO bundle_info (key, value) VALUES ('generator', ?)",
                               arguments: ["digno \(BundleBuilder.version) (SQLite \(sqlite))"])
                try db.inTransaction {
                    try insertAll(db)
                    return .commit
                }
                try db.execute(sql: "PRAGMA user_version = \(BundleSchema.version)")
                try db.execute(sql: "PRAGMA application_id = \(BundleSchema.applicationID)")
            }
            return queue
        } catch let error as BuildError {
            throw error
        } catch {
            throw .bundleCheckFailed("\(error)")
        }
    }

    /// Copies the scratch database, compacted, into a new file at `path`.
    static func vacuum(_ queue: DatabaseQueue, into path: String) throws(BuildError) {
        do {
            try queue.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        } catch {
            throw .output(path: path, reason: "\(error)")
        }
    }

    // MARK: Rows

    private func insertAll(_ db: Database) throws {
        func json(_ text: RichText) -> String { RichTextJSON.encode(text) }
        func image(_ reference: ImageReference) -> String { images.sha256(of: reference) }

        let insertInfo = try db.makeStatement(sql: "INSERT INTO bundle_info (key, value) VALUES (?, ?)")
        for (key, value) in info.sorted(by: { $0.key < $1.key }) { try insertInfo.execute(arguments: [key, value]) }

        let insertImage = try db.makeStatement(sql: """
            INSERT INTO images (sha256, media_type, width, height, byte_count, bytes) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (sha256, stored) in images.bySHA256.sorted(by: { $0.key < $1.key }) {
            try insertImage.execute(arguments: [sha256, stored.header.format.rawValue, stored.header.width, stored.header.height,
                                                stored.bytes.count, Data(stored.bytes)])
        }

        let insertSection = try db.makeStatement(sql: "INSERT INTO sections (id, position, title, icon) VALUES (?, ?, ?, ?)")
        for (index, section) in catalog.sections.enumerated() {
            try insertSection.execute(arguments: [section.id.rawValue, index + 1, section.title, image(section.icon)])
        }

        let search = try db.makeStatement(sql: "INSERT INTO search (kind, entity_id, name, summary, content) VALUES (?, ?, ?, ?, ?)")

        let insertProduct = try db.makeStatement(sql: """
            INSERT INTO products (id, position, name, summary, icon, body_json, body_text) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        let insertProductImage = try db.makeStatement(sql: "INSERT INTO product_images (product_id, position, image, alt) VALUES (?, ?, ?, ?)")
        let products = ListOrder.ordered(catalog.products, id: \.id.rawValue, name: \.name, position: \.position)
        for (index, product) in products.enumerated() {
            let id = product.id.rawValue
            let text = product.body.plainText
            try insertProduct.execute(arguments: [id, index + 1, product.name, product.summary, image(product.icon), json(product.body), text])
            for (index, picture) in product.images.enumerated() {
                try insertProductImage.execute(arguments: [id, index + 1, image(picture), picture.alt ?? ""])
            }
            try search.execute(arguments: ["product", id, product.name, product.summary, text])
        }

        let insertRecipe = try db.makeStatement(sql: """
            INSERT INTO recipes (id, position, name, summary, icon, method_json, method_text) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        let insertRecipeImage = try db.makeStatement(sql: "INSERT INTO recipe_images (recipe_id, position, image, alt) VALUES (?, ?, ?, ?)")
        let insertIngredient = try db.makeStatement(sql: "INSERT INTO recipe_ingredients (recipe_id, position, text, product_id) VALUES (?, ?, ?, ?)")
        let insertRecipeProduct = try db.makeStatement(sql: "INSERT INTO recipe_products (recipe_id, product_id) VALUES (?, ?)")
        let recipes = ListOrder.ordered(catalog.recipes, id: \.id.rawValue, name: \.name, position: \.position)
        for (index, recipe) in recipes.enumerated() {
            let id = recipe.id.rawValue
            let text = recipe.method.plainText
            try insertRecipe.execute(arguments: [id, index + 1, recipe.name, recipe.summary, image(recipe.icon), json(recipe.method), text])
            for (index, picture) in recipe.images.enumerated() {
                try insertRecipeImage.execute(arguments: [id, index + 1, image(picture), picture.alt ?? ""])
            }
            for (index, ingredient) in recipe.ingredients.enumerated() {
                try insertIngredient.execute(arguments: [id, index + 1, ingredient.text, ingredient.product?.rawValue])
            }
            for product in recipe.productIDs { try insertRecipeProduct.execute(arguments: [id, product.rawValue]) }
            let ingredients = recipe.ingredients.map(\.text).joined(separator: "\n")
            try search.execute(arguments: ["recipe", id, recipe.name, recipe.summary, ingredients + "\n\n" + text])
        }

        let insertRetailer = try db.makeStatement(sql: """
            INSERT INTO retailers (id, position, name, logo, address, phone, opening_hours, other_info, web_address, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertSells = try db.makeStatement(sql: "INSERT INTO retailer_products (retailer_id, product_id, position) VALUES (?, ?, ?)")
        let retailers = ListOrder.ordered(catalog.retailers, id: \.id.rawValue, name: \.name, position: \.position)
        for (index, retailer) in retailers.enumerated() {
            let id = retailer.id.rawValue
            try insertRetailer.execute(arguments: [
                id, index + 1, retailer.name, image(retailer.logo), retailer.address, retailer.phone,
                retailer.openingHours, retailer.otherInfo, retailer.webAddress, retailer.coordinate?.latitude,
                retailer.coordinate?.longitude,
            ])
            var seen = Set<ProductID>()
            for product in retailer.sells where seen.insert(product).inserted {
                try insertSells.execute(arguments: [id, product.rawValue, seen.count])
            }
            let content = [retailer.address, retailer.openingHours, retailer.otherInfo ?? ""].joined(separator: "\n")
            try search.execute(arguments: ["retailer", id, retailer.name, "", content])
        }

        let home = catalog.home
        try db.execute(sql: "INSERT INTO home (id, logo, image, image_alt, body_json, body_text) VALUES (1, ?, ?, ?, ?, ?)",
                       arguments: [image(home.logo), image(home.image), home.image.alt ?? "", json(home.body), home.body.plainText])
        let insertPromotion = try db.makeStatement(sql: """
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
            try insertPromotion.execute(arguments: [
                promotion.id.rawValue, index + 1, promotion.title, promotion.text, image(promotion.image),
                promotion.image.alt ?? "", promotion.firstDay.description, promotion.lastDay.description, product, recipe,
            ])
        }

        let company = catalog.company
        try db.execute(sql: "INSERT INTO company (id, name, logo, body_json, body_text, web_address) VALUES (1, ?, ?, ?, ?, ?)",
                       arguments: [company.name, image(company.logo), json(company.body), company.body.plainText, company.webAddress])
        for (index, picture) in company.images.enumerated() {
            try db.execute(sql: "INSERT INTO company_images (position, image, alt) VALUES (?, ?, ?)",
                           arguments: [index + 1, image(picture), picture.alt ?? ""])
        }
        try db.execute(sql: "INSERT INTO search (search) VALUES ('optimize')")
    }
}
