import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// What a form's lists and choices write: each changed one as its elements anew, or its
/// attribute set.
enum StructureWriting {
    static func replacement(_ list: FormList, of entity: EntityReference, kindFields: [String], languages: [LanguageCode]) -> EntityFileEdit.Replacement {
        let defaultCode = languages.first?.rawValue ?? "fi"
        var translations = Translations()
        func translate(_ row: FormList.Row, _ path: FieldPath) {
            for language in languages.dropFirst() {
                if let text = row.texts[language.rawValue], !text.isEmpty { _ = translations.add(.text(text), for: path, in: language) }
            }
        }
        switch list.kind {
        case .ingredients:
            let lines = list.rows.enumerated().map { index, row in
                translate(row, .ingredient(index))
                return Ingredient(text: row.texts[defaultCode] ?? "", product: row.reference.isEmpty ? nil : ProductID(row.reference))
            }
            let written = translations
            return EntityFileEdit.Replacement(entity: entity, element: "ingredients", fieldOrder: kindFields) { indent in
                lines.isEmpty ? "" : FieldElements.ingredients(lines, written, languages: languages, indent: indent)
            }
        case .pictures:
            let pictures = list.rows.enumerated().map { index, row in
                translate(row, .picture(index))
                // Always with its words, which the schema needs, empty until written.
                return ImageReference(source: row.reference, alt: row.texts[defaultCode] ?? "")
            }
            let written = translations
            return EntityFileEdit.Replacement(entity: entity, element: "images", fieldOrder: kindFields) { indent in
                pictures.isEmpty ? "" : FieldElements.images(pictures, written, languages: languages, indent: indent)
            }
        case .sells:
            let products = list.rows.map { ProductID($0.reference) }
            return EntityFileEdit.Replacement(entity: entity, element: "sells", fieldOrder: kindFields) { indent in
                FieldElements.sells(products, indent: indent)
            }
        case .promotions:
            // Moved as written (`StudioWorkspace.edit`), never written anew here.
            preconditionFailure("the home's promotions are reordered in place")
        }
    }

    /// A choice's change: an element written anew (a picture's file, a link) or an attribute set.
    static func change(_ choice: FormChoice, of entity: EntityReference, kindFields: [String]) -> (EntityFileEdit.Replacement?, EntityFileEdit.AttributeChange?) {
        switch choice.kind {
        case .picture:
            let picture = ImageReference(source: choice.value)
            return (EntityFileEdit.Replacement(entity: entity, element: choice.key, fieldOrder: kindFields) { indent in
                FieldElements.picture(choice.key, picture, Translations(), path: .icon, languages: [], indent: indent)
            }, nil)
        case .pictureFile:
            // Only its `src`: its words, in every language, stay as written.
            return (nil, EntityFileEdit.AttributeChange(entity: entity, name: "src", value: choice.value, element: choice.key))
        case .location:
            let (latitude, longitude) = FormChoice.coordinates(choice.value)
            let element = choice.value.isEmpty ? ""
                : "<location latitude=\"\(XLIFFWriter.attribute(latitude))\" longitude=\"\(XLIFFWriter.attribute(longitude))\"/>"
            return (EntityFileEdit.Replacement(entity: entity, element: "location", fieldOrder: kindFields) { indent in element.isEmpty ? "" : indent + element }, nil)
        case .link:
            let parts = choice.value.split(separator: ":", maxSplits: 1)
            let element = parts.count == 2 ? "<link \(parts[0])=\"\(XLIFFWriter.attribute(String(parts[1])))\"/>" : ""
            return (EntityFileEdit.Replacement(entity: entity, element: "link", fieldOrder: kindFields) { indent in element.isEmpty ? "" : indent + element }, nil)
        case .position, .day:
            return (nil, EntityFileEdit.AttributeChange(entity: entity, name: choice.key, value: choice.value.isEmpty ? nil : choice.value))
        }
    }
}
