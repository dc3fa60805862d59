import CatalogModel

extension FieldPath {
    /// The column a bundle holds this field's translations under, and its position (from 1) for
    /// one of a list; nil for a field a bundle does not translate.
    package var translatedColumn: (column: TranslatedColumn, position: Int?)? {
        switch self {
        case .name: (.name, nil)
        case .summary: (.summary, nil)
        case .title: (.title, nil)
        case .text: (.text, nil)
        case .hours: (.openingHours, nil)
        case .info: (.otherInfo, nil)
        case .body: (.body, nil)
        case .method: (.method, nil)
        case .image: (.imageAlt, nil)
        case .ingredient(let index): (.ingredientLine, index + 1)
        case .picture(let index): (.pictureAlt, index + 1)
        default: nil
        }
    }

    /// The field whose translations a bundle holds under `column` (at `position`, from 1, for
    /// one of a list).
    package init?(_ column: TranslatedColumn, position: Int?) {
        switch column {
        case .name: self = .name
        case .summary: self = .summary
        case .title: self = .title
        case .text: self = .text
        case .openingHours: self = .hours
        case .otherInfo: self = .info
        case .body: self = .body
        case .method: self = .method
        case .imageAlt: self = .image
        case .ingredientLine, .pictureAlt:
            guard let position, position > 0 else { return nil }
            self = column == .ingredientLine ? .ingredient(position - 1) : .picture(position - 1)
        }
    }

    /// Its name in a bundle's `translations.field` (`name`, `image_alt`, `ingredient:2`), for a
    /// field a bundle translates.
    package var translatedFieldName: String? {
        translatedColumn.map { $0.column.field(position: $0.position) }
    }

    /// The field a bundle's `translations.field` value names.
    package init?(translatedFieldName name: String) {
        guard let (column, position) = TranslatedColumn.named(name) else { return nil }
        self.init(column, position: position)
    }
}
