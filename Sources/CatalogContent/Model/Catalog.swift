import CatalogModel

/// The whole Café Digno content of one release, in memory.
package struct Catalog: Hashable, Sendable, Codable {
    /// The brand, "Café Digno".
    package var brand: String
    /// The release version, such as `2026.11.0`.
    package var releaseVersion: String
    /// The release date.
    package var releaseDate: Day
    /// The tab sections in tab order.
    package var sections: [Section]
    /// The Etusivu screen.
    package var home: Home
    /// The Deling Group screen.
    package var company: Company
    /// Every product.
    package var products: [Product]
    /// Every recipe.
    package var recipes: [Recipe]
    /// Every retailer.
    package var retailers: [Retailer]
    /// The languages it is written in; Finnish only unless catalog.xml declares others.
    package var languages = Languages.finnishOnly

    /// A catalogue from its parts.
    package init(
        brand: String, releaseVersion: String, releaseDate: Day, sections: [Section], home: Home,
        company: Company, products: [Product], recipes: [Recipe], retailers: [Retailer]
    ) {
        self.brand = brand
        self.releaseVersion = releaseVersion
        self.releaseDate = releaseDate
        self.sections = sections
        self.home = home
        self.company = company
        self.products = products
        self.recipes = recipes
        self.retailers = retailers
    }
}
