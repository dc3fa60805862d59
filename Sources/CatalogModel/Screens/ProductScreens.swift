import GRDB

/// A row of the Tuotteet list: icon, name, short description.
public struct ProductRow: Identifiable, Hashable, Sendable, Codable {
    /// The product.
    public var id: ProductID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// Its list icon.
    public var icon: ImageID
    /// The language of each text: the record's, and the texts that fell back to another.
    public var languages: TextLanguages

    /// A row from its parts, for previews and tests.
    public init(id: ProductID, name: String, summary: String, icon: ImageID, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.id = id
        self.name = name
        self.summary = summary
        self.icon = icon
        self.languages = languages
    }
}

extension ProductRow {
    /// From a row with `id`, `icon`, and `name` and `summary` read through `TranslatedTexts`.
    package init(row: Row, reading: TextReading) throws {
        self.init(id: ProductID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"), languages: try reading.languages(row, [.name, .summary]))
    }
}
