import GRDB

/// A text a bundle holds in every language: in its entity's row (`column`) in the default
/// language, and in `translations` (under `field`) in each other. The one list of them, which
/// the compiler writes by, the bundle's check reads back by and the screens' queries read by:
/// `"hours"` and `"image_alt"` are spelled here alone.
package enum TranslatedColumn: CaseIterable, Hashable, Sendable {
    /// A product's, recipe's or the company's name.
    case name
    /// A product's or recipe's summary.
    case summary
    /// A tab's or promotion's title.
    case title
    /// A promotion's text.
    case text
    /// A product's, the home's or the company's body, as rich text's JSON.
    case body
    /// A recipe's method, as rich text's JSON.
    case method
    /// The home's or a promotion's one picture's alt text.
    case imageAlt
    /// A retailer's opening hours.
    case openingHours
    /// A retailer's other information.
    case otherInfo
    /// A recipe's ingredient line, by its position (`ingredient:N`).
    case ingredientLine
    /// A detail screen's picture's alt text, by its position (`picture:N`).
    case pictureAlt

    /// Its name in `translations.field`: the whole name, or for a text of a list
    /// (`isPerPosition`) the name before the position (`ingredient:`).
    package var field: String {
        switch self {
        case .name: "name"
        case .summary: "summary"
        case .title: "title"
        case .text: "text"
        case .body: "body"
        case .method: "method"
        case .imageAlt: "image_alt"
        case .openingHours: "hours"
        case .otherInfo: "info"
        case .ingredientLine: "ingredient:"
        case .pictureAlt: "picture:"
        }
    }

    /// Its column in its row: the entity's table, or for a text of a list its row in
    /// `recipe_ingredients` or `<kind>_images`.
    package var column: String {
        switch self {
        case .name: "name"
        case .summary: "summary"
        case .title: "title"
        case .text, .ingredientLine: "text"
        case .body: "body_json"
        case .method: "method_json"
        case .imageAlt: "image_alt"
        case .openingHours: "opening_hours"
        case .otherInfo: "other_info"
        case .pictureAlt: "alt"
        }
    }

    /// Whether it is one of a list, named with its position from 1 (`picture:2`).
    package var isPerPosition: Bool { self == .ingredientLine || self == .pictureAlt }

    /// Its text is rich text's JSON.
    package var isRichText: Bool { self == .body || self == .method }

    /// The text of a record that `TextLanguages` names it by.
    package var textField: TextField {
        switch self {
        case .name: .name
        case .summary: .summary
        case .title: .title
        case .text, .ingredientLine: .text
        case .body: .body
        case .method: .method
        case .imageAlt, .pictureAlt: .alt
        case .openingHours: .openingHours
        case .otherInfo: .otherInfo
        }
    }

    /// `translations.field` for the text at `position` (from 1) of a list, or the field's own.
    package func field(position: Int?) -> String {
        guard isPerPosition, let position else { return field }
        return field + String(position)
    }

    /// `translations.field` as SQL: the name, bound, or for a text of a list the name joined
    /// with its row's position column (`positionColumn`, such as `i.position`).
    package func fieldSQL(positionColumn: String? = nil) -> SQL {
        guard isPerPosition, let positionColumn else { return "\(field)" }
        return "\(field) || \(sql: positionColumn)"
    }

    /// The text and its position (from 1, for a text of a list) that a `translations.field`
    /// value names; nil for one that names none.
    package static func named(_ name: String) -> (column: TranslatedColumn, position: Int?)? {
        for column in allCases {
            if !column.isPerPosition {
                if name == column.field { return (column, nil) }
            } else if name.hasPrefix(column.field), let position = Int(name.dropFirst(column.field.count)), position > 0,
                      String(position) == name.dropFirst(column.field.count) {
                return (column, position)
            }
        }
        return nil
    }
}
