@testable import BundleCompiler
import CatalogModel
import Foundation
import GRDB
import Testing

/// Every field of `content/` is in the bundle: the catalogue read back from the bundle's rows
/// equals the catalogue the compiler validated, with image paths replaced by their SHA-256.
@Test func everyFieldOfTheContentIsInTheBundle() throws {
    let folder = try BundleBuildTests.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("catalog.sqlite").path
    let builder = BundleBuilder(contentFolder: BundleBuildTests.shippedContent, output: output, today: Fixtures.today)
    let report = try builder.validate()
    _ = try builder.write(report)
    var expected = try #require(report.catalog)
    let images = try BundleImages(paths: report.imagePaths, root: BundleBuildTests.shippedContent)
    expected.mapImages { ImageReference(source: images.sha256(of: $0), alt: $0.alt) }
    expected.products.sort { $0.id.rawValue < $1.id.rawValue }
    expected.recipes.sort { $0.id.rawValue < $1.id.rawValue }
    expected.retailers.sort { $0.id.rawValue < $1.id.rawValue }

    let actual = try DatabaseQueue(path: output, configuration: BundleBuildTests.readOnly).read(BundleReader.catalog)
    #expect(actual.brand == expected.brand)
    #expect(actual.releaseVersion == expected.releaseVersion)
    #expect(actual.releaseDate == expected.releaseDate)
    #expect(actual.sections == expected.sections)
    #expect(actual.home == expected.home)
    #expect(actual.company == expected.company)
    #expect(actual.products == expected.products)
    #expect(actual.recipes == expected.recipes)
    #expect(actual.retailers == expected.retailers)
    #expect(actual == expected)

    let storedImages = try DatabaseQueue(path: output, configuration: BundleBuildTests.readOnly).read { db in
        try Row.fetchAll(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images")
    }
    #expect(storedImages.count == 62)
    for row in storedImages {
        let bytes = [UInt8](row["bytes"] as Data)
        #expect(row["media_type"] == "image/png")
        #expect(ImageHeader.read(bytes) == .success(ImageHeader(format: .png, width: row["width"], height: row["height"])))
    }
}

extension Catalog {
    mutating func mapImages(_ transform: (ImageReference) -> ImageReference) {
        for index in sections.indices { sections[index].icon = transform(sections[index].icon) }
        home.logo = transform(home.logo)
        home.image = transform(home.image)
        for index in home.promotions.indices { home.promotions[index].image = transform(home.promotions[index].image) }
        company.logo = transform(company.logo)
        company.images = company.images.map(transform)
        for index in products.indices {
            products[index].icon = transform(products[index].icon)
            products[index].images = products[index].images.map(transform)
            products[index].position = nil
        }
        for index in recipes.indices {
            recipes[index].icon = transform(recipes[index].icon)
            recipes[index].images = recipes[index].images.map(transform)
            recipes[index].position = nil
        }
        for index in retailers.indices {
            retailers[index].logo = transform(retailers[index].logo)
            retailers[index].position = nil
        }
    }
}

/// Reads a bundle back into a `Catalog` with plain SQL, independently of the compiler's
/// writing code. List positions are not part of the content and are left nil.
enum BundleReader {
    static func catalog(_ db: Database) throws -> Catalog {
        let info = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info").map { ($0[0] as String, $0[1] as String) })
        let decoder = JSONDecoder()
        func rich(_ json: String) throws -> RichText { try decoder.decode(RichText.self, from: Data(json.utf8)) }
        func pictures(_ sql: String, _ id: String) throws -> [ImageReference] {
            try Row.fetchAll(db, sql: sql, arguments: [id]).map { ImageReference(source: $0["image"], alt: $0["alt"]) }
        }
        let sections = try Row.fetchAll(db, sql: "SELECT * FROM sections ORDER BY position").map {
            Section(id: SectionKind(rawValue: $0["id"])!, title: $0["title"], icon: ImageReference(source: $0["icon"]))
        }
        let homeRow = try #require(try Row.fetchOne(db, sql: "SELECT * FROM home"))
        let promotions = try Row.fetchAll(db, sql: "SELECT * FROM promotions ORDER BY position").map { row in
            let link: LinkTarget? = (row["link_product"] as String?).map { .product(ProductID($0)) } ?? (row["link_recipe"] as String?).map { .recipe(RecipeID($0)) }
            return Promotion(id: PromotionID(row["id"] as String), title: row["title"], text: row["text"],
                             image: ImageReference(source: row["image"], alt: row["image_alt"]),
                             firstDay: Day(row["first_day"] as String)!, lastDay: Day(row["last_day"] as String)!, link: link)
        }
        let home = HomePage(logo: ImageReference(source: homeRow["logo"]), image: ImageReference(source: homeRow["image"], alt: homeRow["image_alt"]),
                            body: try rich(homeRow["body_json"]), promotions: promotions)
        let companyRow = try #require(try Row.fetchOne(db, sql: "SELECT * FROM company"))
        let company = CompanyPage(
            name: companyRow["name"], logo: ImageReference(source: companyRow["logo"]), body: try rich(companyRow["body_json"]),
            images: try Row.fetchAll(db, sql: "SELECT * FROM company_images ORDER BY position").map { ImageReference(source: $0["image"], alt: $0["alt"]) },
            webAddress: companyRow["web_address"])
        let products = try Row.fetchAll(db, sql: "SELECT * FROM products ORDER BY id").map { row in
            Product(id: ProductID(row["id"] as String), name: row["name"], icon: ImageReference(source: row["icon"]), summary: row["summary"],
                    body: try rich(row["body_json"]),
                    images: try pictures("SELECT image, alt FROM product_images WHERE product_id = ? ORDER BY position", row["id"]))
        }
        let recipes = try Row.fetchAll(db, sql: "SELECT * FROM recipes ORDER BY id").map { row in
            let ingredients = try Row.fetchAll(db, sql: "SELECT text, product_id FROM recipe_ingredients WHERE recipe_id = ? ORDER BY position",
                                               arguments: [row["id"] as String]).map {
                Ingredient(text: $0["text"], product: ($0["product_id"] as String?).map { ProductID($0) })
            }
            return Recipe(id: RecipeID(row["id"] as String), name: row["name"], icon: ImageReference(source: row["icon"]), summary: row["summary"],
                          ingredients: ingredients, method: try rich(row["method_json"]),
                          images: try pictures("SELECT image, alt FROM recipe_images WHERE recipe_id = ? ORDER BY position", row["id"]))
        }
        let retailers = try Row.fetchAll(db, sql: "SELECT * FROM retailers ORDER BY id").map { row in
            let sellsIDs: [String] = try String.fetchAll(db, sql: "SELECT product_id FROM retailer_products WHERE retailer_id = ? ORDER BY position",
                                                         arguments: [row["id"] as String])
            let sells = sellsIDs.map { ProductID(rawValue: $0) }
            let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
            return Retailer(id: RetailerID(row["id"] as String), name: row["name"], logo: ImageReference(source: row["logo"]),
                            address: row["address"], phone: row["phone"], openingHours: row["opening_hours"], otherInfo: row["other_info"],
                            webAddress: row["web_address"],
                            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) } },
                            sells: sells)
        }
        return Catalog(brand: info["brand"] ?? "", releaseVersion: info["release_version"] ?? "", releaseDate: Day(info["release_date"] ?? "")!,
                       sections: sections, home: home, company: company, products: products, recipes: recipes, retailers: retailers)
    }
}
