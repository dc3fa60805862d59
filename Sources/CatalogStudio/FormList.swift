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
