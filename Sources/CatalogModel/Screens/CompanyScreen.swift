import GRDB

/// The Deling Group screen.
public struct CompanyScreen: Hashable, Sendable, Codable {
    /// The company's name.
    public var name: String
    /// Its logo.
    public var logo: ImageID
    /// The text about it.
    public var body: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// Its web address.
    public var webAddress: String
    /// The language of `name` and `body`; each picture's alt text has its own.
    public var languages: TextLanguages

    /// A company screen from its parts, for previews and tests.
    public init(name: String, logo: ImageID, body: RichText, pictures: [Picture], webAddress: String, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.name = name
        self.logo = logo
        self.body = body
        self.pictures = pictures
        self.webAddress = webAddress
        self.languages = languages
    }
}
