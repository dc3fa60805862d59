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

    /// A company screen from its parts, for previews and tests.
    public init(name: String, logo: ImageID, body: RichText, pictures: [Picture], webAddress: String) {
        self.name = name
        self.logo = logo
        self.body = body
        self.pictures = pictures
        self.webAddress = webAddress
    }
}

extension CompanyScreen {
    /// The company's one row and its pictures.
    package init(_ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT name, logo, body_json, web_address FROM company WHERE id = 1") else {
            throw BundleValueError("it has no company page")
        }
        let pictures = try Row.fetchAll(db, sql: "SELECT image, alt FROM company_images ORDER BY position").map { try Picture(row: $0) }
        self.init(name: try row.nonEmptyText("name"), logo: try row.imageID("logo"), body: try row.richText("body_json"),
                  pictures: pictures, webAddress: try row.nonEmptyText("web_address"))
    }
}
