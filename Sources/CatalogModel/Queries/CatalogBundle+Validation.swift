import Foundation
import GRDB

extension CatalogBundle {
    /// The whole bundle as a `Catalog`: images are named by their SHA-256, and list positions,
    /// decided by the compiler, are left out.
    public func catalog() throws(CatalogBundleError) -> Catalog {
        let sections = try self.sections().map { Section(id: $0.id, title: $0.title, icon: ImageReference(source: $0.icon.rawValue)) }
        let home = try read { db in
            let row = try Self.homeRow(db)
            let promotions = try Row.fetchAll(db, sql: "SELECT * FROM promotions ORDER BY position").map(PromotionCard.init(row:)).map {
                Promotion(id: $0.id, title: $0.title, text: $0.text, image: ImageReference(source: $0.picture.image.rawValue, alt: $0.picture.alt),
                          firstDay: $0.firstDay, lastDay: $0.lastDay, link: $0.link)
            }
            let picture = try Picture(row: row, alt: "image_alt")
            return HomePage(logo: ImageReference(source: try row.imageID("logo").rawValue), image: ImageReference(source: picture.image.rawValue, alt: picture.alt),
                            body: try row.richText("body_json"), promotions: promotions)
        }
        let company = try self.company()
        func references(_ pictures: [Picture]) -> [ImageReference] { pictures.map { ImageReference(source: $0.image.rawValue, alt: $0.alt) } }
        var products: [Product] = []
        for row in try productRows() {
            guard let detail = try product(row.id) else { continue }
            products.append(Product(id: detail.id, name: detail.name, icon: ImageReference(source: row.icon.rawValue),
                                    summary: detail.summary, body: detail.body, images: references(detail.pictures)))
        }
        var recipes: [Recipe] = []
        for row in try recipeRows() {
            guard let detail = try recipe(row.id) else { continue }
            recipes.append(Recipe(id: detail.id, name: detail.name, icon: ImageReference(source: row.icon.rawValue), summary: detail.summary,
                                  ingredients: detail.ingredients, method: detail.method, images: references(detail.pictures)))
        }
        let retailers = try retailerRows().map {
            Retailer(id: $0.id, name: $0.name, logo: ImageReference(source: $0.logo.rawValue), address: $0.address, phone: $0.phone,
                     openingHours: $0.openingHours, otherInfo: $0.otherInfo, webAddress: $0.webAddress, coordinate: $0.coordinate, sells: $0.sells)
        }
        return Catalog(
            brand: release.brand, releaseVersion: release.releaseVersion, releaseDate: release.releaseDate, sections: sections,
            home: home,
            company: CompanyPage(name: company.name, logo: ImageReference(source: company.logo.rawValue), body: company.body,
                                 images: references(company.pictures), webAddress: company.webAddress),
            products: products, recipes: recipes, retailers: retailers)
    }

    /// Runs the catalogue rules (the same `Catalog.validate` the compiler runs on content) over
    /// this bundle, so a client or CI can check a bundle it did not build.
    public func validate(today: Day? = nil) throws(CatalogBundleError) -> [CatalogIssue] {
        try catalog().validate(today: today)
    }
}
