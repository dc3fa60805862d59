import Tagged

/// The whole Café Digno content of one release, in memory.
public struct Catalog: Hashable, Sendable, Codable {
    /// The brand, "Café Digno".
    public var brand: String
    /// The release version, such as `2026.11.0`.
    public var releaseVersion: String
    /// The release date.
    public var releaseDate: Day
    /// The tab sections in tab order.
    public var sections: [Section]
    /// The Etusivu screen.
    public var home: HomePage
    /// The Deling Group screen.
    public var company: CompanyPage
    /// Every product.
    public var products: [Product]
    /// Every recipe.
    public var recipes: [Recipe]
    /// Every retailer.
    public var retailers: [Retailer]

    /// A catalogue from its parts.
    public init(
        brand: String, releaseVersion: String, releaseDate: Day, sections: [Section], home: HomePage,
        company: CompanyPage, products: [Product], recipes: [Recipe], retailers: [Retailer]
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
