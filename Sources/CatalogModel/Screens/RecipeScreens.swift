import GRDB

/// A row of the Kahvireseptit list: icon, name, short description.
public struct RecipeRow: Identifiable, Hashable, Sendable, Codable {
    /// The recipe.
    public var id: RecipeID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// Its list icon.
    public var icon: ImageID

    /// A row from its parts, for previews and tests.
    public init(id: RecipeID, name: String, summary: String, icon: ImageID) {
        self.id = id
        self.name = name
        self.summary = summary
        self.icon = icon
    }
}

/// A recipe's detail screen.
public struct RecipeDetail: Identifiable, Hashable, Sendable, Codable {
    /// The recipe.
    public var id: RecipeID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// The ingredient lines in order, with the product each one is, if any.
    public var ingredients: [Ingredient]
    /// How to make it.
    public var method: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// The products it uses, in list order.
    public var products: [ProductRow]

    /// A detail screen from its parts, for previews and tests.
    public init(
        id: RecipeID, name: String, summary: String, ingredients: [Ingredient], method: RichText, pictures: [Picture], products: [ProductRow]
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.ingredients = ingredients
        self.method = method
        self.pictures = pictures
        self.products = products
    }
}

/// One line of a recipe's ingredient list, such as "2–3 dl täysmaitoa".
///
/// Its `id` is its text: the compiler refuses a line written twice in one recipe
/// (`duplicate-ingredient`), so `ForEach(recipe.ingredients)` needs no other id.
public struct Ingredient: Identifiable, Hashable, Sendable, Codable {
    /// The line as the reader sees it.
    public var text: String
    /// The Café Digno product this line is, if it is one.
    public var product: ProductID?

    /// The line's text, unique within its recipe.
    public var id: String { text }

    /// An ingredient line, optionally naming the product it is.
    public init(text: String, product: ProductID? = nil) {
        self.text = text
        self.product = product
    }
}

extension RecipeRow {
    package init(row: Row) throws {
        self.init(id: RecipeID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"))
    }
}

extension Ingredient {
    package init(row: Row) throws {
        self.init(text: try row.nonEmptyText("text"), product: try row.optionalSlug("product_id").map { ProductID(rawValue: $0) })
    }
}
