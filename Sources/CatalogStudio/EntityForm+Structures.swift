import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

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
            let location = retailer.coordinate.map { FormChoice.location(latitude: "\($0.latitude)", longitude: "\($0.longitude)") } ?? ""
            return ([FormList(kind: .sells, rows: retailer.sells.map { FormList.Row(reference: $0.rawValue, texts: [:]) })],
                    [FormChoice(key: "logo", kind: .picture, value: retailer.logo.source),
                     FormChoice(key: "location", kind: .location, value: location), position(retailer.position)])
        case let company as Company:
            return ([pictures(company.images, company.translations)], [FormChoice(key: "logo", kind: .picture, value: company.logo.source)])
        case let home as Home:
            let promotions = FormList(kind: .promotions, rows: home.promotions.map { FormList.Row(reference: $0.id.rawValue, texts: [:]) })
            return ([promotions], [FormChoice(key: "logo", kind: .picture, value: home.logo.source),
                                   FormChoice(key: "image", kind: .pictureFile, value: home.image.source)])
        case let section as Section:
            return ([], [FormChoice(key: "icon", kind: .picture, value: section.icon.source)])
        case let promotion as Promotion:
            return ([], [FormChoice(key: "first-day", kind: .day, value: promotion.firstDay.description),
                         FormChoice(key: "last-day", kind: .day, value: promotion.lastDay.description),
                         FormChoice(key: "link", kind: .link, value: link(promotion.link)),
                         FormChoice(key: "image", kind: .pictureFile, value: promotion.image.source)])
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
                else if part == "ref" { lists[key]?.editLast { $0.reference = value.trimmingCharacters(in: .whitespaces) } }
                else if part == "present" { lists[key] = lists[key] ?? [] }
            } else if let at = rest.firstIndex(of: "@") {
                let key = String(rest[..<at]), language = String(rest[rest.index(after: at)...])
                lists[key]?.editLast { $0.texts[language] = value.replacingOccurrences(of: "\r\n", with: "\n") }
            }
        }
        return lists
    }

    /// The form's values as a page sends them back unchanged.
    var values: StudioWorkspace.FormValues {
        StudioWorkspace.FormValues(texts: fields.reduce(into: [:]) { $0[$1.key] = $1.value },
                                   lists: lists.reduce(into: [:]) { $0[$1.key] = $1.rows },
                                   choices: choices.reduce(into: [:]) { $0[$1.key] = $1.value })
    }

    /// The form's values as it was opened, by key (texts, lists by their canonical text,
    /// choices): what a save merges the sent values against.
    var openedValues: [String: String] {
        var opened = fields.reduce(into: [String: String]()) { $0[$1.key] = $1.value }
        for list in lists { opened[list.key] = list.canonical }
        for choice in choices { opened[choice.key] = choice.value }
        return opened
    }
}

private extension Array {
    /// Changes the last element, if there is one (a list's field sent before its first row is
    /// ignored).
    mutating func editLast(_ change: (inout Element) -> Void) {
        guard !isEmpty else { return }
        change(&self[count - 1])
    }
}
