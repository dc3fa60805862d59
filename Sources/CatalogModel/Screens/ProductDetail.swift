import GRDB

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
    /// The language of each text: the record's, and the texts that fell back to another.
    public var languages: TextLanguages

    /// A detail screen from its parts, for previews and tests.
    public init(
        id: ProductID, name: String, summary: String, body: RichText, pictures: [Picture], recipes: [RecipeRow], retailers: [RetailerRow],
        languages: TextLanguages = TextLanguages(language: "fi")
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.body = body
        self.pictures = pictures
        self.recipes = recipes
        self.retailers = retailers
        self.languages = languages
    }
}
