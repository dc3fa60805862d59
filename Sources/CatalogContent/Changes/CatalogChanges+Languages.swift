import CatalogModel
import Foundation

// The changes in each language: each translation's change as a field of its own (`sv: summary`)
// and the language of each field a reader of another language sees (`Field.language`), for
// `CatalogChanges.init(from:to:…)` in CatalogChanges+Comparison.swift.
extension CatalogChanges {
    /// Each entity's translations, by its id in the changes.
    static func translationsByEntity(_ catalog: Catalog) -> [Entity.ID: Translations] {
        var result: [Entity.ID: Translations] = [:]
        catalog.forEachTranslated { entity, translations in
            guard !translations.isEmpty, let kind = Kind(rawValue: entity.kind.rawValue) else { return }
            result[Entity.ID(kind: kind, slug: Self.slug(of: entity))] = translations
        }
        return result
    }

    /// Sets `language` on each changed field of words that a reader along `chain` reads in a
    /// language other than the default: the first of the chain that translates it (any line of
    /// an ingredient list, any picture's alt text), on the newer side, or the older when the
    /// entity has no newer side's translations.
    static func markLanguages(_ entities: inout [Entity], chain: [LanguageCode],
                                      translations: (old: [Entity.ID: Translations], new: [Entity.ID: Translations])) {
        let others = chain.dropLast()  // the last is the default language
        for index in entities.indices where entities[index].change == .changed {
            let id = entities[index].id
            guard let held = translations.new[id] ?? translations.old[id] else { continue }
            for fieldIndex in entities[index].fields.indices {
                guard let fields = Self.paths[entities[index].fields[fieldIndex].field] else { continue }
                let languages = Set(held.entries.filter { fields($0.field) }.map(\.language))
                if let language = others.first(where: languages.contains) { entities[index].fields[fieldIndex].language = language.rawValue }
            }
        }
    }

    /// The content's fields behind each field of the changes that holds words a translation
    /// can change (`EntityFields`' names).
    static let paths: [String: @Sendable (FieldPath) -> Bool] = [
        "name": { $0 == .name }, "title": { $0 == .title }, "summary": { $0 == .summary }, "text": { $0 == .text },
        "body": { $0 == .body }, "method": { $0 == .method }, "opening hours": { $0 == .hours }, "other information": { $0 == .info },
        "picture": { $0 == .image },
        "ingredients": { if case .ingredient = $0 { true } else { false } },
        "pictures": { if case .picture = $0 { true } else { false } },
    ]

    /// For each entity on both sides, the translations that differ, added or removed: one
    /// field per language and text, `sv: summary`, a text compared word by word (rich text by
    /// its markup, as the default language's is). The entity's default-language fields are
    /// compared elsewhere.
    static func translationChanges(from old: Catalog, to new: Catalog) -> [Entity.ID: [Field]] {
        let before = translatedTexts(old)
        var changes: [Entity.ID: [Field]] = [:]
        for (entity, after) in translatedTexts(new) {
            // Only entities on both sides: an added or removed one is reported whole.
            guard let earlier = before[entity], earlier != after, let kind = Kind(rawValue: entity.kind.rawValue) else { continue }
            var fields: [Field] = []
            // An ingredient list's lines in each language, aligned as the default language's are:
            // one line inserted is one line added, not every later line changed.
            var ingredientLanguages = Set<LanguageCode>()
            for key in Set(earlier.keys).union(after.keys) { if case .ingredient = key.field { ingredientLanguages.insert(key.language) } }
            for language in ingredientLanguages.sorted() {
                func lines(_ texts: [TranslatedKey: String]) -> [String] {
                    texts.compactMap { key, text -> (Int, String)? in
                        guard key.language == language, case .ingredient(let index) = key.field else { return nil }
                        return (index, text)
                    }.sorted { $0.0 < $1.0 }.map(\.1)
                }
                let (was, now) = (lines(earlier), lines(after))
                guard was != now else { continue }
                let (added, removed) = LineDifference.lines(from: was, to: now)
                fields.append(Field(field: "\(language): ingredients", added: added, removed: removed, language: language.rawValue))
            }
            for key in Set(earlier.keys).union(after.keys).sorted() {
                if case .ingredient = key.field { continue }
                let (was, now) = (earlier[key], after[key])
                guard was != now else { continue }
                let name = "\(key.language): \(CatalogRules.named(key.field))"
                if let was, let now {
                    fields.append(Field(field: name, old: was, new: now, words: WordDifference.words(from: was, to: now), language: key.language.rawValue))
                } else {
                    fields.append(Field(field: name, old: was, new: now, language: key.language.rawValue))
                }
            }
            // In language and field order, the ingredient lists among the rest.
            fields.sort { $0.field < $1.field }
            if !fields.isEmpty { changes[Entity.ID(kind: kind, slug: Self.slug(of: entity))] = fields }
        }
        return changes
    }

    /// A text in a language: the key of `translatedTexts`, in language and then field order.
    struct TranslatedKey: Hashable, Comparable {
        var language: LanguageCode
        var field: FieldPath

        static func < (a: Self, b: Self) -> Bool {
            (a.language.rawValue, a.field.orderKey) < (b.language.rawValue, b.field.orderKey)
        }
    }

    /// Each entity's texts in each language but the default, as a bundle holds them: its
    /// translations, and a text marked `translate="no"` as the same in every language (so that
    /// a content folder compares equal to the bundle built from it).
    static func translatedTexts(_ catalog: Catalog) -> [EntityReference: [TranslatedKey: String]] {
        let others = catalog.languages.translated
        var result: [EntityReference: [TranslatedKey: String]] = [:]
        catalog.forEachDefaultText(fixedOnly: true) { entity, translations, texts in
            var shown: [TranslatedKey: String] = [:]
            for entry in translations.entries where others.contains(entry.language) {
                shown[TranslatedKey(language: entry.language, field: entry.field)] = Self.shown(entry.value)
            }
            for field in translations.fixed {
                guard let text = texts[field] else { continue }
                for language in others where translations[field, language] == nil {
                    shown[TranslatedKey(language: language, field: field)] = text
                }
            }
            result[entity] = shown
        }
        return result
    }

    /// A translation as the comparison shows it: its text, rich text as its markup.
    static func shown(_ value: Translations.Value) -> String {
        switch value {
        case .text(let text): text
        case .richText(let text): text.markup
        }
    }

    /// An entity's id in the changes: its slug, `home` and `company` for the single ones.
    static func slug(of entity: EntityReference) -> String {
        switch entity.kind {
        case .home: "home"
        case .company: "company"
        default: entity.id
        }
    }

    /// Every entity's name in `catalog`, by its id in the changes.
    static func names(in catalog: Catalog) -> [Entity.ID: String] {
        var names: [Entity.ID: String] = [Entity.ID(kind: .home, slug: "home"): homeName(in: catalog), Entity.ID(kind: .company, slug: "company"): catalog.company.name]
        for section in catalog.sections { names[Entity.ID(kind: .section, slug: section.id.rawValue)] = section.title }
        for promotion in catalog.home.promotions { names[Entity.ID(kind: .promotion, slug: promotion.id.rawValue)] = promotion.title }
        for product in catalog.products { names[Entity.ID(kind: .product, slug: product.id.rawValue)] = product.name }
        for recipe in catalog.recipes { names[Entity.ID(kind: .recipe, slug: recipe.id.rawValue)] = recipe.name }
        for retailer in catalog.retailers { names[Entity.ID(kind: .retailer, slug: retailer.id.rawValue)] = retailer.name }
        return names
    }

    /// The entities with the translation changes added: to an entity already changed, after its
    /// own fields; otherwise as a changed entity of its own. In kind and id order, as the rest.
    static func merging(_ translated: [Entity.ID: [Field]], into entities: [Entity], names: [Entity.ID: String]) -> [Entity] {
        var entities = entities
        var remaining = translated
        for index in entities.indices where entities[index].change == .changed {
            if let fields = remaining.removeValue(forKey: entities[index].id) { entities[index].fields += fields }
        }
        for (id, fields) in remaining {
            entities.append(Entity(kind: id.kind, slug: id.slug, name: names[id] ?? id.slug, change: .changed, fields: fields))
        }
        return entities.sorted { ($0.kind, $0.slug) < ($1.kind, $1.slug) }
    }
}
