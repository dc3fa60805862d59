import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// The parts of a form that are not one text: a list of lines (a recipe's ingredients, a detail
/// screen's pictures, the products a retailer sells), a picture or link chosen, an attribute (a
/// position, a promotion's days). Each is merged as a whole, by its canonical text (`canonical`:
/// what it holds, the same for the same content), and written anew by `FieldElements` in the
/// layout of the shipped files.
struct FormList: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// Ingredient lines: a text in each language and the product it names, if any.
        case ingredients
        /// Pictures: a file under `images/` and its words in each language.
        case pictures = "images"
        /// Products sold: a product each.
        case sells
        /// The home's promotions, by id: reordered or removed here, each edited in its own form.
        case promotions
    }

    struct Row: Sendable, Equatable, Codable {
        /// The product's id, or the picture's file.
        var reference: String
        /// The words in each language, by code.
        var texts: [String: String]
    }

    var kind: Kind
    var rows: [Row]

    var key: String { kind.rawValue }

    /// What the list holds, as one text: compared to tell whether it changed.
    var canonical: String { Self.canonical(rows) }

    static func canonical(_ rows: [Row]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Empty texts are no texts: a translation left empty is none.
        let cleaned = rows.map { Row(reference: $0.reference, texts: $0.texts.filter { !$0.value.isEmpty }) }
        return String(decoding: (try? encoder.encode(cleaned)) ?? Data(), as: UTF8.self)
    }
}

/// A value chosen in a form: a picture's file (an icon, a logo), a link's target, a position,
/// a day. Merged as a whole, written as its element or attribute.
struct FormChoice: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// `icon` or `logo`: a file under `images/`.
        case picture
        /// A promotion's `link`: `product:espresso`, `recipe:latte` or none.
        case link
        /// The entity's `position` attribute: a number, or none.
        case position
        /// A promotion's `first-day` or `last-day`: YYYY-MM-DD.
        case day
    }

    /// The element or attribute: `icon`, `logo`, `link`, `position`, `first-day`, `last-day`.
    var key: String
    var kind: Kind
    var value: String
}

extension EntityForm {
    /// The lists and choices of `entity`, in the order its file writes them.
    static func structures(of entity: any ContentEntity, languages: [LanguageCode]) -> (lists: [FormList], choices: [FormChoice]) {
        func texts(_ defaultText: String?, _ path: FieldPath, _ translations: Translations) -> [String: String] {
            var texts: [String: String] = [:]
            if let language = languages.first { texts[language.rawValue] = defaultText ?? "" }
            for language in languages.dropFirst() {
                texts[language.rawValue] = translations.first(path, along: [language])?.value.plainText ?? ""
            }
            return texts
        }
        func pictures(_ images: [ImageReference], _ translations: Translations) -> FormList {
            FormList(kind: .pictures, rows: images.enumerated().map { index, picture in
                FormList.Row(reference: picture.source, texts: texts(picture.alt, .picture(index), translations))
            })
        }
        func position(_ value: Int?) -> FormChoice { FormChoice(key: "position", kind: .position, value: value.map(String.init) ?? "") }
        func link(_ target: LinkTarget?) -> String {
            switch target {
            case .product(let id): "product:" + id.rawValue
            case .recipe(let id): "recipe:" + id.rawValue
            case nil: ""
            }
        }
        switch entity {
        case let product as Product:
            return ([pictures(product.images, product.translations)],
                    [FormChoice(key: "icon", kind: .picture, value: product.icon.source), position(product.position)])
        case let recipe as Recipe:
            let lines = FormList(kind: .ingredients, rows: recipe.ingredients.enumerated().map { index, line in
                FormList.Row(reference: line.product?.rawValue ?? "", texts: texts(line.text, .ingredient(index), recipe.translations))
            })
            return ([lines, pictures(recipe.images, recipe.translations)],
                    [FormChoice(key: "icon", kind: .picture, value: recipe.icon.source), position(recipe.position)])
        case let retailer as Retailer:
            return ([FormList(kind: .sells, rows: retailer.sells.map { FormList.Row(reference: $0.rawValue, texts: [:]) })],
                    [FormChoice(key: "logo", kind: .picture, value: retailer.logo.source), position(retailer.position)])
        case let company as Company:
            return ([pictures(company.images, company.translations)], [FormChoice(key: "logo", kind: .picture, value: company.logo.source)])
        case let home as Home:
            let promotions = FormList(kind: .promotions, rows: home.promotions.map { FormList.Row(reference: $0.id.rawValue, texts: [:]) })
            return ([promotions], [FormChoice(key: "logo", kind: .picture, value: home.logo.source)])
        case let section as Section:
            return ([], [FormChoice(key: "icon", kind: .picture, value: section.icon.source)])
        case let promotion as Promotion:
            return ([], [FormChoice(key: "first-day", kind: .day, value: promotion.firstDay.description),
                         FormChoice(key: "last-day", kind: .day, value: promotion.lastDay.description),
                         FormChoice(key: "link", kind: .link, value: link(promotion.link))])
        default:
            return ([], [])
        }
    }

    /// The lists a form sent, in the order of its fields: `l:<key>:row` starts a row,
    /// `l:<key>:ref` is its reference, `l:<key>@<language>` its words.
    static func sentLists(_ fields: [(String, String)]) -> [String: [FormList.Row]] {
        var lists: [String: [FormList.Row]] = [:]
        for (name, value) in fields where name.hasPrefix("l:") {
            let rest = name.dropFirst(2)
            if let colon = rest.firstIndex(of: ":") {
                let key = String(rest[..<colon]), part = rest[rest.index(after: colon)...]
                if part == "row" { lists[key, default: []].append(FormList.Row(reference: "", texts: [:])) }
                else if part == "ref", !(lists[key]?.isEmpty ?? true) { lists[key]![lists[key]!.count - 1].reference = value.trimmingCharacters(in: .whitespaces) }
                else if part == "present" { lists[key] = lists[key] ?? [] }
            } else if let at = rest.firstIndex(of: "@") {
                let key = String(rest[..<at]), language = String(rest[rest.index(after: at)...])
                guard !(lists[key]?.isEmpty ?? true) else { continue }
                lists[key]![lists[key]!.count - 1].texts[language] = value.replacingOccurrences(of: "\r\n", with: "\n")
            }
        }
        return lists
    }
}

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
        case .link:
            let parts = choice.value.split(separator: ":", maxSplits: 1)
            let element = parts.count == 2 ? "<link \(parts[0])=\"\(XLIFFWriter.attribute(String(parts[1])))\"/>" : ""
            return (EntityFileEdit.Replacement(entity: entity, element: "link", fieldOrder: kindFields) { indent in element.isEmpty ? "" : indent + element }, nil)
        case .position, .day:
            return (nil, EntityFileEdit.AttributeChange(entity: entity, name: choice.key, value: choice.value.isEmpty ? nil : choice.value))
        }
    }
}
