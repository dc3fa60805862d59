import GRDB

/// A tab of the tab bar: one of the five sections, with its title and icon.
public struct SectionTab: Identifiable, Hashable, Sendable, Codable {
    /// The section it opens.
    public var id: SectionKind
    /// Its title, such as "Tuotteet".
    public var title: String
    /// Its icon.
    public var icon: ImageID
    /// The language of `title` (`languages[.title]`).
    public var languages: TextLanguages

    /// A tab from its parts, for previews and tests.
    public init(id: SectionKind, title: String, icon: ImageID, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.id = id
        self.title = title
        self.icon = icon
        self.languages = languages
    }
}

extension SectionTab {
    package init(row: Row, reading: TextReading) throws {
        let id: String = try row.value("id")
        guard let kind = SectionKind(rawValue: id) else {
            throw BundleValueError(column: "id", problem: "'\(Row.excerpt(id))', not one of the five sections")
        }
        self.init(id: kind, title: try row.nonEmptyText("title"), icon: try row.imageID("icon"),
                  languages: try reading.languages(row, [.title]))
    }
}
