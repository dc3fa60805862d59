import CatalogContent
import CatalogModel
import Crypto
import Foundation

/// One text a translator translates into one language (`digno translations export`): the
/// default language's text, the translation if there is one, and what the translator needs
/// to know (which entity, the field's length limit, whether the source changed since a
/// release). Its `id` names the text, not its place, so that it stays the same across releases
/// and when a line is inserted before it.
package struct TranslationUnit: Hashable, Sendable {
    /// A text: plain, or rich text with its form.
    package enum Text: Hashable, Sendable {
        case plain(String)
        case rich(RichText)

        /// The words alone, as a length limit counts them.
        package var words: String {
            switch self {
            case .plain(let text): text
            case .rich(let text): text.plainText
            }
        }
    }

    /// Where the text stands for the translator.
    package enum State: Hashable, Sendable {
        /// No translation into the language yet.
        case missing
        /// Translated, and the source has not changed since the release compared with.
        case translated
        /// Translated, but the source changed since the release compared with (`since`) while
        /// the translation did not: the source as it was then.
        case outdated(previousSource: Text, since: String)
    }

    /// Stable across releases: `product.espresso.summary`, `recipe.cappuccino.ingredient.espresso`,
    /// `product.espresso.picture.images_products_espresso-1.jpg` (an XML NMTOKEN: letters, digits,
    /// `.`, `-`, `_`).
    package var id: String
    package var entity: EntityReference
    package var field: FieldPath
    /// The entity's name in the default language, for the translator's note.
    package var entityName: String
    package var source: Text
    package var target: Text?
    package var state: State
    /// The most characters the translation may have, when the field has a limit.
    package var maxLength: Int?

    /// The entity's part of an id: `product.espresso`, `home`, `company`.
    static func entityID(_ entity: EntityReference) -> String {
        entity.id.isEmpty ? entity.kind.rawValue : entity.kind.rawValue + "." + entity.id
    }

    /// A key made of `text` for an id: characters of an NMTOKEN kept, others `_`, and when any
    /// but a `/` was replaced, a hash of the whole text after it, so that two texts that differ
    /// only in such characters (`espresso-ä.png`, `espresso-ö.png`) never share a key. (Two
    /// that differ in `/` and `_` alone, or a picture used twice, share it: the units' ids are
    /// then counted, `translationTexts`.)
    static func token(_ text: String) -> String {
        var replaced = false
        let kept = String(text.unicodeScalars.map { scalar -> Character in
            let allowed = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)
            if !allowed && scalar != "/" { replaced = true }
            return allowed ? Character(scalar) : "_"
        })
        return replaced ? kept + ".h" + SHA256.hash(data: Data(text.utf8)).hexString.prefix(8) : kept
    }
}

extension Catalog {
    /// Every translatable text of the catalogue into `language`, in catalogue order: each with
    /// its translation and state, compared with `since` (an earlier release's catalogue) for
    /// texts whose source changed while their translation did not. Texts marked
    /// `translate="no"` are left out.
    package func translationUnits(into language: LanguageCode, since: (catalog: Catalog, release: String)? = nil) -> [TranslationUnit] {
        let before = since?.catalog.translationTexts(into: language) ?? []
        let earlier = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A text whose id changed with its words (an ingredient line naming no product) is
        // found by its place, as `translation-outdated` finds it.
        struct Place: Hashable { var entity: EntityReference; var field: FieldPath }
        let earlierByPlace = Dictionary(before.map { (Place(entity: $0.entity, field: $0.field), $0) }, uniquingKeysWith: { first, _ in first })
        return translationTexts(into: language).map { text in
            var unit = TranslationUnit(id: text.id, entity: text.entity, field: text.field, entityName: text.entityName, source: text.source,
                                       target: text.target, state: text.target == nil ? .missing : .translated, maxLength: text.maxLength)
            if let since, let before = earlier[text.id] ?? earlierByPlace[Place(entity: text.entity, field: text.field)],
               before.source != text.source, let target = text.target, before.target == target {
                unit.state = .outdated(previousSource: before.source, since: since.release)
            }
            return unit
        }
    }

    /// The catalogue's translatable texts into `language`, each with its source and
    /// translation (the state is `translationUnits`').
    func translationTexts(into language: LanguageCode) -> [TranslationUnit] {
        var units: [TranslationUnit] = []
        var taken: [String: Int] = [:]
        func add(_ entity: EntityReference, _ name: String, _ translations: Translations, _ field: FieldPath, key: String,
                 _ source: TranslationUnit.Text, limit: Int?) {
            guard !translations.fixed.contains(field) else { return }
            let target: TranslationUnit.Text? = switch translations[field, language] {
            case .text(let text)?: .plain(text)
            case .richText(let text)?: .rich(text)
            case nil: nil
            }
            // An id given already (a picture used twice in one entity) takes the count of its uses.
            var id = TranslationUnit.entityID(entity) + "." + key
            taken[id, default: 0] += 1
            if let count = taken[id], count > 1 { id += "." + String(count) }
            units.append(TranslationUnit(id: id, entity: entity, field: field, entityName: name,
                                         source: source, target: target, state: .missing, maxLength: limit))
        }
        // The name a translator's note gives each entity; the home's is its tab's title.
        let homeName = sections.first { $0.id.rawValue == "home" }?.title ?? "home"
        forEachEntity { entity, described in
            let name = switch described {
            case let section as Section: section.title
            case let promotion as Promotion: promotion.title
            case let company as Company: company.name
            case let product as Product: product.name
            case let recipe as Recipe: recipe.name
            case let retailer as Retailer: retailer.name
            default: homeName
            }
            for text in described.translatableTexts {
                let key = switch text.path {
                // A picture of a list is named by its file, a line by the product it names, else
                // by its words: never by its place.
                case .picture: "picture." + TranslationUnit.token(text.picture?.source ?? "")
                case .ingredient:
                    text.line?.product.map { "ingredient." + TranslationUnit.token($0.rawValue) }
                        ?? "ingredient.t" + SHA256.hash(data: Data(text.plainText.utf8)).hexString.prefix(10)
                case .image: "picture"
                default: text.path.name
                }
                let source: TranslationUnit.Text = switch text.value {
                case .text(let plain): .plain(plain)
                case .richText(let rich): .rich(rich)
                }
                add(entity, name, described.translations, text.path, key: key, source, limit: text.limit)
            }
        }
        return units
    }
}
