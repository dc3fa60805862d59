import GRDB

/// A row of the Tuotteet list: icon, name, short description.
public struct ProductRow: Identifiable, Hashable, Sendable, Codable {
    /// The product.
    public var id: ProductID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// Its list icon.
    public var icon: ImageID

    /// A row from its parts, for previews and tests.
    public init(id: ProductID, name: String, summary: String, icon: ImageID) {
        self.id = id
        self.name = name
        self.summary = summary
        self.icon = icon
    }
}

/// A product's detail screen.
public struct ProductDetail: Identifiable, Hashable, Sendable, Codable {
    /// The product.
    public var id: ProductID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// The product text.
    public var body: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// The recipes that use it, in list order.
    public var recipes: [RecipeRow]
    /// The retailers that sell it, in list order.
    public var retailers: [RetailerRow]

    /// A detail screen from its parts, for previews and tests.
    public init(
        id: ProductID, name: String, summary: String, body: RichText, pictures: [Picture], recipes: [RecipeRow], retailers: [RetailerRow]
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.body = body
        self.pictures = pictures
        self.recipes = recipes
        self.retailers = retailers
    }
}

extension ProductRow {
    package init(row: Row) throws {
        self.init(id: ProductID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"))
    }
}
