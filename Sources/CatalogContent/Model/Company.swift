import CatalogModel

/// What company.xml says: the importer's text, pictures and web address, for the Deling Group
/// screen.
package struct Company: Hashable, Sendable, Codable {
    /// The company's name.
    package var name: String
    /// The company's logo.
    package var logo: ImageReference
    /// The text about the company.
    package var body: RichText
    /// One or two pictures.
    package var images: [ImageReference]
    /// The company's web address.
    package var webAddress: String

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// The company from its fields.
    package init(name: String, logo: ImageReference, body: RichText, images: [ImageReference], webAddress: String) {
        self.name = name
        self.logo = logo
        self.body = body
        self.images = images
        self.webAddress = webAddress
    }
}
