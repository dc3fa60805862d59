import CatalogModel

/// A text of an entity in the default language, as the walks over every text see it.
package struct EntityText: Sendable {
    /// Its field (`ingredient(2)` for the third line).
    package var path: FieldPath
    package var value: Translations.Value
    /// The most characters it may have.
    package var limit: Int?
    /// The picture whose alt text it is, for a picture of a list.
    package var picture: ImageReference?
    /// The ingredient line it is.
    package var line: Ingredient?

    /// The text, rich text as its plain text.
    package var plainText: String {
        switch value {
        case .text(let text): text
        case .richText(let text): text.plainText
        }
    }
}
