import Tagged

/// A Café Digno product, shown in the Tuotteet list and on its own detail screen.
public struct Product: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    public var id: ProductID
    /// The name, at most 50 characters.
    public var name: String
    /// The square list icon.
    public var icon: ImageReference
    /// The short description on the list row, at most 100 characters.
    public var summary: String
    /// The product text on the detail screen.
    public var body: RichText
    /// One or two pictures for the detail screen.
    public var images: [ImageReference]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    public var position: Int?

    /// A product from its fields.
    public init(
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
