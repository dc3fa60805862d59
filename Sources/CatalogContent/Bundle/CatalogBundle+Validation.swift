import CatalogModel
import Foundation
import GRDB

extension CatalogBundle {
    /// The whole bundle as a `Catalog`: images are named by their SHA-256, and list positions,
    /// decided by the compiler, are left out. Read in one transaction with a fixed number of
    /// queries, whatever the number of entities, through the same row decoding as the screens.
    package func catalog() throws(CatalogBundleError) -> Catalog {
        let release = release, reading = TextReading(defaultOf: declaredLanguages)
        return try read(BundleQuery { db in try Self.catalog(db, release: release, reading: reading, only: nil) })
    }

    /// The ids of the products, recipes and retailers to read whole.
    package struct EntitySelection: Sendable {
        package var products: Set<String>
        package var recipes: Set<String>
        package var retailers: Set<String>

        package init(products: Set<String>, recipes: Set<String>, retailers: Set<String>) {
            self.products = products
            self.recipes = recipes
            self.retailers = retailers
        }
    }

    /// The bundle as a `Catalog` with only the products, recipes and retailers `selection` names
    /// (the sections, home and company whole): what `digno diff` reads of the entities whose
    /// `listDigests()` differ, skipping the rich text of all the others.
    package func catalog(only selection: EntitySelection) throws(CatalogBundleError) -> Catalog {
        let release = release, reading = TextReading(defaultOf: declaredLanguages)
        return try read(BundleQuery { db in try Self.catalog(db, release: release, reading: reading, only: selection) })
    }

    /// Runs the catalogue rules (the same `Catalog.validate` the compiler runs on content) over
    /// this bundle, so that `digno inspect` can check a bundle it did not build.
    package func validate(today: Day? = nil) throws(CatalogBundleError) -> [EntityDiagnostic] {
        try catalog().validate(today: today)
    }

    /// The catalogue in its default language (`reading`), its translations read after.
    private static func catalog(_ db: Database, release: ReleaseInfo, reading: TextReading, only selection: EntitySelection?) throws -> Catalog {
        let sections = try BundleQuery<[SectionTab]>.sections(reading).body(db).map {
            Section(id: $0.id, title: $0.title, icon: ImageReference($0.icon))
        }
        let promotions = try Row.fetchAll(db, sql: "SELECT * FROM promotions ORDER BY position").map { try PromotionCard(row: $0, reading: reading) }.map {
            Promotion(id: $0.id, title: $0.title, text: $0.text, image: ImageReference($0.picture), firstDay: $0.firstDay, lastDay: $0.lastDay,
                      link: $0.link)
        }
        let home = try HomeScreen(db, reading: reading, promotions: [])
        let company = try CompanyScreen(db, reading: reading)

        // With a selection, only its entities are read: their ids as a JSON array, which
        // `json_each` turns into a table to join.
        func ids(_ set: Set<String>?) -> StatementArguments {
            guard let set, let json = try? JSONEncoder().encode(set.sorted()) else { return [] }
            return [String(decoding: json, as: UTF8.self)]
        }
        let (productIDs, recipeIDs, retailerIDs) = (ids(selection?.products), ids(selection?.recipes), ids(selection?.retailers))
        func filter(_ column: String) -> String { selection == nil ? "1" : "\(column) IN (SELECT value FROM json_each(?))" }

        let productPictures = try pictures(db, reading, table: "product_images", owner: "product_id", where: filter("product_id"), arguments: productIDs)
        let products = try Row.fetchAll(db, sql: "SELECT id, name, summary, icon, body_json FROM products WHERE \(filter("id")) ORDER BY position",
                                        arguments: productIDs).map { row in
            let list = try ProductRow(row: row, reading: reading)
            return Product(id: list.id, name: list.name, icon: ImageReference(list.icon), summary: list.summary, body: try row.richText("body_json"),
                           images: productPictures[list.id.rawValue, default: []])
        }
        let recipePictures = try pictures(db, reading, table: "recipe_images", owner: "recipe_id", where: filter("recipe_id"), arguments: recipeIDs)
        var ingredients: [String: [Ingredient]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT recipe_id, text, product_id FROM recipe_ingredients WHERE \(filter("recipe_id")) ORDER BY recipe_id, position",
                                    arguments: recipeIDs) {
            ingredients[try row.slug("recipe_id"), default: []].append(try Ingredient(row: row, reading: reading))
        }
        let recipes = try Row.fetchAll(db, sql: "SELECT id, name, summary, icon, method_json FROM recipes WHERE \(filter("id")) ORDER BY position",
                                       arguments: recipeIDs).map { row in
            let list = try RecipeRow(row: row, reading: reading)
            return Recipe(id: list.id, name: list.name, icon: ImageReference(list.icon), summary: list.summary,
                          ingredients: ingredients[list.id.rawValue, default: []], method: try row.richText("method_json"),
                          images: recipePictures[list.id.rawValue, default: []])
        }
        let retailers = try RetailerRow.fetchAll(db, reading: reading, where: SQL(sql: filter("r.id"), arguments: retailerIDs)).map {
            Retailer(id: $0.id, name: $0.name, logo: ImageReference($0.logo), address: $0.address, phone: $0.phone,
                     openingHours: $0.openingHours, otherInfo: $0.otherInfo, webAddress: $0.webAddress, coordinate: $0.coordinate, sells: $0.sells)
        }
        var catalog = Catalog(
            brand: release.brand, releaseVersion: release.releaseVersion, releaseDate: release.releaseDate, sections: sections,
            home: Home(logo: ImageReference(home.logo), image: ImageReference(home.picture), body: home.body, promotions: promotions),
            company: Company(name: company.name, logo: ImageReference(company.logo), body: company.body,
                                 images: company.pictures.map(ImageReference.init), webAddress: company.webAddress),
            products: products, recipes: recipes, retailers: retailers)
        if release.schemaVersion >= 3 {
            // With a selection, the translations of its products, recipes and retailers only.
            let condition = selection == nil ? "1" : """
                kind NOT IN ('product', 'recipe', 'retailer') OR (kind = 'product' AND \(filter("entity_id")))
                OR (kind = 'recipe' AND \(filter("entity_id"))) OR (kind = 'retailer' AND \(filter("entity_id")))
                """
            var arguments = StatementArguments()
            for list in [productIDs, recipeIDs, retailerIDs] { arguments += list }
            try readLanguages(db, into: &catalog, where: condition, arguments: arguments)
        }
        return catalog
    }

    /// Schema 3's languages and translations, onto the entities read. A text its editor marked
    /// `translate="no"` is read as translated into each language, as the bundle holds it.
    private static func readLanguages(_ db: Database, into catalog: inout Catalog, where condition: String, arguments: StatementArguments) throws {
        var declarations: [Languages.Declaration] = []
        for row in try Row.fetchAll(db, sql: "SELECT code, fallback FROM languages ORDER BY position") {
            let fallback: String? = try row.value("fallback")
            declarations.append(Languages.Declaration(code: LanguageCode(try row.value("code") as String), fallback: fallback.map { LanguageCode($0) }))
        }
        if !declarations.isEmpty { catalog.languages = Languages(declarations) }
        var byEntity: [EntityReference: Translations] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kind, entity_id, field, language, text FROM translations WHERE \(condition) ORDER BY kind, entity_id, field, language",
                                    arguments: arguments) {
            let kindText: String = try row.value("kind"), id: String = try row.value("entity_id"), fieldText: String = try row.value("field")
            guard let kind = EntityReference.Kind(rawValue: kindText), let field = FieldPath(translatedFieldName: fieldText) else {
                throw BundleValueError(column: "field", problem: "'\(String(kindText.prefix(40)).showingInvisibles) \(String(fieldText.prefix(40)).showingInvisibles)', which is no entity's text")
            }
            let value: Translations.Value = field == .body || field == .method ? .richText(try row.richText("text")) : .text(try row.nonEmptyText("text"))
            byEntity[EntityReference(kind, id), default: Translations()].add(value, for: field, in: LanguageCode(try row.value("language") as String))
        }
        for index in catalog.sections.indices {
            catalog.sections[index].translations = byEntity[EntityReference(.section, catalog.sections[index].id.rawValue)] ?? Translations()
        }
        catalog.home.translations = byEntity[EntityReference(.home, "")] ?? Translations()
        for index in catalog.home.promotions.indices {
            catalog.home.promotions[index].translations = byEntity[EntityReference(.promotion, catalog.home.promotions[index].id.rawValue)] ?? Translations()
        }
        catalog.company.translations = byEntity[EntityReference(.company, "")] ?? Translations()
        for index in catalog.products.indices {
            catalog.products[index].translations = byEntity[EntityReference(.product, catalog.products[index].id.rawValue)] ?? Translations()
        }
        for index in catalog.recipes.indices {
            catalog.recipes[index].translations = byEntity[EntityReference(.recipe, catalog.recipes[index].id.rawValue)] ?? Translations()
        }
        for index in catalog.retailers.indices {
            catalog.retailers[index].translations = byEntity[EntityReference(.retailer, catalog.retailers[index].id.rawValue)] ?? Translations()
        }
    }

    /// Every picture of one kind of entity, by owner, in order: one query for all of them.
    private static func pictures(_ db: Database, _ reading: TextReading, table: String, owner: String, where condition: String = "1",
                                 arguments: StatementArguments = []) throws -> [String: [ImageReference]] {
        var result: [String: [ImageReference]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \(owner), image, alt FROM \(table) WHERE \(condition) ORDER BY \(owner), position", arguments: arguments) {
            result[try row.slug(owner), default: []].append(ImageReference(try Picture(row: row, reading: reading)))
        }
        return result
    }
}

extension ImageReference {
    /// An image of a bundle, named by its SHA-256, with no text alternative (icons and logos).
    init(_ image: ImageID) {
        self.init(source: image.rawValue)
    }

    /// A picture of a bundle, named by its SHA-256, with its text alternative.
    init(_ picture: Picture) {
        self.init(source: picture.image.rawValue, alt: picture.alt)
    }
}
