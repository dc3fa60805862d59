import BundleCompiler
import CatalogContent
import CatalogModel

/// An entity as its form shows it: each text an editor writes, in each declared language, from
/// the one description of the fields (`ContentEntity.fields`), with its limit and whether it
/// must be written. Its keys (`summary@sv`, `image[1]@fi`, `ingredient[2]@en`) name a text in
/// any version of the entity, so that a form sent back is matched with the file as it is now.
struct EntityForm: Sendable {
    /// One text of the form.
    struct Field: Sendable, Equatable {
        /// `summary@sv`: the field as diagnostics name it, `@`, and its language.
        var key: String
        var path: FieldPath
        /// Its language; nil for the default language's text.
        var language: LanguageCode?
        var languageCode: LanguageCode
        var value: String
        var limit: Int?
        /// Must be written (in the default language).
        var isRequired: Bool
        /// Rich text, edited as formatted text; `value` is then its markup (`RichTextMarkup`).
        var rich: RichText?
        /// Several lines expected: a long text.
        var isLong: Bool
        /// A text that may be left out (a retailer's other information, its web address): empty,
        /// its elements are removed; written where the file has none, its element is added.
        var isOptional = false
        /// Whether the file has no element for it yet.
        var isAbsent = false
    }

    /// A group of fields as the form shows them: one element of the file in each language
    /// (`Summary`, `Picture 1`, `Ingredient 2`).
    struct Group: Sendable {
        var element: String
        /// Counted from 1, for a picture or ingredient line.
        var number: Int?
        var fields: [Field]
    }

    var entity: EntityReference
    var groups: [Group]
    /// Its lists (ingredient lines, pictures, products sold), each edited and merged as a whole.
    var lists: [FormList]
    /// Its pictures, link, position and days chosen.
    var choices: [FormChoice]
    /// Its kind's elements in the order its files write them (for a field not written yet).
    var fieldOrder: [String]
    /// The catalogue's languages, the default first.
    var languages: [LanguageCode]
    /// Each language's fallback chain after it (`sv` → `[fi]`), as catalog.xml declares: where
    /// the app finds a text not translated.
    var fallbacks: [LanguageCode: [LanguageCode]] = [:]
    /// The home's promotions' titles by id, for its list of them.
    var titles: [String: String] = [:]

    /// Every field of every group.
    var fields: [Field] { groups.flatMap(\.fields) }

    /// The form of `entity`, its texts in `languages` (the default first).
    init<Entity: ContentEntity>(_ reference: EntityReference, _ entity: Entity, languages: [LanguageCode]) {
        self.entity = reference
        groups = Self.groups(of: entity, languages: languages)
        (lists, choices) = Self.structures(of: entity, languages: languages)
        fieldOrder = Entity.fields.map(\.element)
        self.languages = languages
        if let home = entity as? Home { titles = Dictionary(home.promotions.map { ($0.id.rawValue, $0.title) }, uniquingKeysWith: { first, _ in first }) }
    }

    private static func groups<Entity: ContentEntity>(of entity: Entity, languages: [LanguageCode]) -> [Group] {
        var groups: [Group] = []
        let defaultLanguage = languages.first ?? .finnish
        func add(_ element: String, _ number: Int?, _ path: FieldPath, _ value: String, _ field: ContentField<Entity>, rich: RichText? = nil, isLong: Bool = false) {
            var fields = [Field(key: key(path, defaultLanguage), path: path, language: nil, languageCode: defaultLanguage, value: value, limit: field.limit,
                                isRequired: field.required != nil, rich: rich, isLong: isLong)]
            // A text marked `translate="no"` (a brand's name) is the same in every language.
            if field.isTranslatable, !entity.translations.fixed.contains(path) {
                for language in languages.dropFirst() {
                    let translated = entity.translations.first(path, along: [language])?.value
                    let richValue: RichText? = if case .richText(let text)? = translated { text } else { rich == nil ? nil : RichText(blocks: []) }
                    let value = richValue.map { $0.blocks.isEmpty ? "" : RichTextMarkup.write($0) } ?? translated?.plainText ?? ""
                    fields.append(Field(key: key(path, language), path: path, language: language, languageCode: language,
                                        value: value, limit: field.limit, isRequired: false, rich: richValue, isLong: isLong))
                }
            }
            groups.append(Group(element: element, number: number, fields: fields))
        }
        for field in Entity.fields {
            guard let text = field.text, let path = field.path else { continue }
            switch text {
            case .plain(let keyPath): add(field.element, nil, path, entity[keyPath: keyPath], field, isLong: (field.limit ?? 0) > 120)
            case .optional(let keyPath):
                if let value = entity[keyPath: keyPath] {
                    add(field.element, nil, path, value, field, isLong: true)
                    groups[groups.count - 1].fields = groups[groups.count - 1].fields.map { var field = $0; field.isOptional = true; return field }
                } else {
                    // Not in the file: its default language's text alone, until it is written.
                    groups.append(Group(element: field.element, number: nil, fields: [
                        Field(key: key(path, defaultLanguage), path: path, language: nil, languageCode: defaultLanguage, value: "", limit: field.limit,
                              isRequired: false, rich: nil, isLong: true, isOptional: true, isAbsent: true),
                    ]))
                }
            case .rich(let keyPath): add(field.element, nil, path, RichTextMarkup.write(entity[keyPath: keyPath]), field, rich: entity[keyPath: keyPath], isLong: true)
            case .alt(let keyPath): add("image", nil, .image, entity[keyPath: keyPath].alt ?? "", field)
            case .alts, .lines:
                // A list's lines are edited with their list (`FormList`): added, removed, reordered.
                continue
            }
        }
        return groups
    }

    /// A text's key: `summary@sv`.
    static func key(_ path: FieldPath, _ language: LanguageCode) -> String {
        path.description + "@" + language.rawValue
    }

    /// The field of `key`, if the form has it.
    func field(_ key: String) -> Field? {
        fields.first { $0.key == key }
    }

    func list(_ key: String) -> FormList? {
        lists.first { $0.key == key }
    }

    func choice(_ key: String) -> FormChoice? {
        choices.first { $0.key == key }
    }
}
