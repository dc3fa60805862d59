import CatalogModel

/// A Café Digno product, shown in the Tuotteet list and on its own detail screen.
package struct Product: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    package var id: ProductID
    /// The name, at most 50 characters.
    package var name: String
    /// The square list icon.
    package var icon: ImageReference
    /// The short description on the list row, at most 100 characters.
    package var summary: String
    /// The product text on the detail screen.
    package var body: RichText
    /// One or two pictures for the detail screen.
    package var images: [ImageReference]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    package var position: Int?

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// A product from its fields.
    package init(
        id: ProductID, name: String, icon: ImageReference, summary: String, body: RichText,
        images: [ImageReference], position: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.summary = summary
        self.body = body
        self.images = images
        self.position = position
    }
}
