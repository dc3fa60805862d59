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

extension CompanyScreen {
    /// The company's one row and its pictures, read in `reading`.
    package init(_ db: Database, reading: TextReading) throws {
        var texts = TranslatedTexts(reading)
        for text in [TranslatedColumn.name, .body] { texts.add(text, of: "c", kind: "\("company")", entity: "\("")") }
        guard let row = try SQLRequest<Row>(literal: "SELECT c.logo, c.web_address, \(literal: texts.select) FROM company AS c \(literal: texts.join) WHERE c.id = 1")
            .fetchOne(db) else {
            throw BundleValueError("it has no company page")
        }
        var alts = TranslatedTexts(reading)
        alts.add(.pictureAlt, of: "ci", kind: "\("company")", entity: "\("")")
        let pictures = try SQLRequest<Row>(literal: "SELECT ci.image, \(literal: alts.select) FROM company_images AS ci \(literal: alts.join) ORDER BY ci.position")
            .fetchAll(db).map { try Picture(row: $0, reading: reading) }
        self.init(name: try row.nonEmptyText("name"), logo: try row.imageID("logo"), body: try row.richText("body_json"),
                  pictures: pictures, webAddress: try row.nonEmptyText("web_address"),
                  languages: try reading.languages(row, [.name, .body]))
    }
}
