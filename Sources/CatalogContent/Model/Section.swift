import CatalogModel

/// A tab in the app's tab bar: which section, its title and its icon.
package struct Section: Identifiable, Hashable, Sendable, Codable {
    /// The section this tab opens.
    package var id: SectionKind
    /// The tab's title, such as "Tuotteet".
    package var title: String
    /// The tab's icon.
    package var icon: ImageReference

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// A tab from its section, title and icon.
    package init(id: SectionKind, title: String, icon: ImageReference) {
        self.id = id
        self.title = title
        self.icon = icon
    }
}
