import Tagged

/// A coffee recipe, shown in the Kahvireseptit list and on its own detail screen.
public struct Recipe: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    public var id: RecipeID
    /// The name, at most 50 characters.
    public var name: String
    /// The square list icon.
    public var icon: ImageReference
    /// The short description on the list row, at most 100 characters.
    public var summary: String
    /// The ingredient lines in order.
    public var ingredients: [Ingredient]
    /// How to make it.
    public var method: RichText
    /// One or two pictures for the detail screen.
    public var images: [ImageReference]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    public var position: Int?

    /// A recipe from its fields.
    public init(
        id: RecipeID, name: String, icon: ImageReference, summary: String,
        ingredients: [Ingredient], method: RichText, images: [ImageReference], position: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.summary = summary
        self.ingredients = ingredients
        self.method = method
        self.images = images
        self.position = position
    }

    /// The products this recipe uses, in ingredient order, each once.
    public var productIDs: [ProductID] {
        var seen = Set<ProductID>()
        return ingredients.compactMap(\.product).filter { seen.insert($0).inserted }
    }
}

/// One line of a recipe's ingredient list, such as "2–3 dl täysmaitoa".
public struct Ingredient: Hashable, Sendable, Codable {
    /// The line as the reader sees it.
    public var text: String
    /// The Café Digno product this line is, if it is one.
    public var product: ProductID?

    /// An ingredient line, optionally naming the product it is.
    public init(text: String, product: ProductID? = nil) {
        self.text = text
        self.product = product
    }
}
