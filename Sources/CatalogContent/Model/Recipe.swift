import CatalogModel

/// A coffee recipe, shown in the Kahvireseptit list and on its own detail screen.
package struct Recipe: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    package var id: RecipeID
    /// The name, at most 50 characters.
    package var name: String
    /// The square list icon.
    package var icon: ImageReference
    /// The short description on the list row, at most 100 characters.
    package var summary: String
    /// The ingredient lines in order.
    package var ingredients: [Ingredient]
    /// How to make it.
    package var method: RichText
    /// One or two pictures for the detail screen.
    package var images: [ImageReference]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    package var position: Int?

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// A recipe from its fields.
    package init(
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
    package var productIDs: [ProductID] {
        var seen = Set<ProductID>()
        return ingredients.compactMap(\.product).filter { seen.insert($0).inserted }
    }
}
