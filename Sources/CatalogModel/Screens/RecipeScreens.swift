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
    /// The language of each text: the record's, and the texts that fell back to another.
    public var languages: TextLanguages

    /// A row from its parts, for previews and tests.
    public init(id: RecipeID, name: String, summary: String, icon: ImageID, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.id = id
        self.name = name
        self.summary = summary
        self.icon = icon
        self.languages = languages
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
    /// The language of each text: the record's, and the texts that fell back to another.
    public var languages: TextLanguages

    /// A detail screen from its parts, for previews and tests.
    public init(
        id: RecipeID, name: String, summary: String, ingredients: [Ingredient], method: RichText, pictures: [Picture], products: [ProductRow],
        languages: TextLanguages = TextLanguages(language: "fi")
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.ingredients = ingredients
        self.method = method
        self.pictures = pictures
        self.products = products
        self.languages = languages
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
    /// The language of `text` (`languages[.text]`).
    public var languages: TextLanguages

    /// The line's text, unique within its recipe.
    public var id: String { text }

    /// An ingredient line, optionally naming the product it is, by default in Finnish.
    public init(text: String, product: ProductID? = nil, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.text = text
        self.product = product
        self.languages = languages
    }
}

extension RecipeRow {
    /// From a row with `id`, `icon`, and `name` and `summary` read through `TranslatedTexts`.
    package init(row: Row, reading: TextReading) throws {
        self.init(id: RecipeID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"), languages: try reading.languages(row, [.name, .summary]))
    }
}

extension Ingredient {
    /// From a row with `product_id`, and `text` read through `TranslatedTexts`.
    package init(row: Row, reading: TextReading) throws {
        self.init(text: try row.nonEmptyText("text"), product: try row.optionalSlug("product_id").map { ProductID(rawValue: $0) },
                  languages: try reading.languages(row, [.ingredientLine]))
    }
}
