import CatalogModel
import Foundation

extension CatalogChanges {
    /// The changes from `old` to `new`, two catalogues as `CatalogBundle.catalog()` reads them:
    /// pictures named by SHA-256, lists in list order (a content folder's catalogue is ordered
    /// and its pictures hashed first).
    package init(from old: Catalog, to new: Catalog, oldDigest: String?, newDigest: String?) {
        self.init(from: old, to: new, oldDigest: oldDigest, newDigest: newDigest, orders: nil,
                  pictures: (old.pictureSHA256s, new.pictureSHA256s))
    }

    /// The lists' ids in list order, on each side, when the catalogues hold only some of their
    /// entities (`CatalogBundle.catalog(only:)`): positions are found from these.
    package struct ListOrders: Sendable {
        package var products: [String]
        package var recipes: [String]
        package var retailers: [String]

        package init(products: [String], recipes: [String], retailers: [String]) {
            self.products = products
            self.recipes = recipes
            self.retailers = retailers
        }

        /// The ids on both sides that moved: those off the longest run kept in the same order.
        /// Ids are unique, so that run is the longest increasing run of old places taken in the
        /// new order (patience sorting, n log n): a list shuffled whole costs no more than one
        /// kept as it was, where a general difference would grow with the square of the changes.
        package static func moved(from old: [String], to new: [String]) -> Set<String> {
            guard old != new else { return [] }
            let oldPlace = Dictionary(old.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
            let kept = new.filter { oldPlace[$0] != nil }
            let places = kept.compactMap { oldPlace[$0] }
            // tails[k]: the index in `places` ending the best increasing run of length k + 1.
            var tails: [Int] = []
            var previous = [Int](repeating: -1, count: places.count)
            for (index, place) in places.enumerated() {
                var low = 0, high = tails.count
                while low < high {
                    let middle = (low + high) / 2
                    if places[tails[middle]] < place { low = middle + 1 } else { high = middle }
                }
                if low > 0 { previous[index] = tails[low - 1] }
                if low == tails.count { tails.append(index) } else { tails[low] = index }
            }
            var inRun = Set<Int>()
            var index = tails.last ?? -1
            while index >= 0 {
                inRun.insert(index)
                index = previous[index]
            }
            var moved = Set<String>()
            for (index, id) in kept.enumerated() where !inRun.contains(index) { moved.insert(id) }
            return moved
        }
    }

    /// The changes from `old` to `new`. With `orders`, the catalogues' products, recipes and
    /// retailers may be only those that differ or moved, the rest being the same on both sides;
    /// `pictures` are every picture's SHA-256 on each side.
    package init(from old: Catalog, to new: Catalog, oldDigest: String?, newDigest: String?,
                 orders: (old: ListOrders, new: ListOrders)?, pictures: (old: Set<String>, new: Set<String>)) {
        // The default language's texts first, as a bundle of schema 2 holds them; then each
        // other language's translations, as fields named by language (`sv: summary`).
        let translated = Self.translationChanges(from: old, to: new)
        var entities = Self.entities(from: old.defaultLanguageOnly, to: new.defaultLanguageOnly, orders: orders)
        if !translated.isEmpty { entities = Self.merging(translated, into: entities, names: Self.names(in: new.defaultLanguageOnly)) }
        // Then the changes as a reader of each other language sees them.
        var inLanguages: [String: [Entity]] = [:]
        if !new.languages.translated.isEmpty {
            let translations = (old: Self.translationsByEntity(old), new: Self.translationsByEntity(new))
            for language in new.languages.translated {
                var read = Self.entities(from: old.translated(to: language).defaultLanguageOnly, to: new.translated(to: language).defaultLanguageOnly,
                                         orders: orders)
                Self.markLanguages(&read, chain: new.languages.chain(for: language), translations: translations)
                inLanguages[language.rawValue] = read
            }
        }
        self.init(
            old: Release(releaseVersion: old.releaseVersion, releaseDate: old.releaseDate, contentDigest: oldDigest),
            new: Release(releaseVersion: new.releaseVersion, releaseDate: new.releaseDate, contentDigest: newDigest),
            entities: entities,
            pictures: Pictures(added: pictures.new.subtracting(pictures.old).sorted(), removed: pictures.old.subtracting(pictures.new).sorted()),
            languages: inLanguages.isEmpty ? nil : new.languages.declarations.map(\.code.rawValue),
            inLanguages: inLanguages.isEmpty ? nil : inLanguages)
    }

    /// The entities of every kind added, removed and changed from `old` to `new`, each text as
    /// the catalogues hold it (in one language: translations are not looked at).
    private static func entities(from old: Catalog, to new: Catalog, orders: (old: ListOrders, new: ListOrders)?) -> [Entity] {
        var entities: [Entity] = []
        entities += Self.compare(.section, old.sections, new.sections, order: nil, id: \.id.rawValue, name: \.title, fields: EntityFields.init)
        // The home without its promotions, which are entities of their own.
        var (oldHome, newHome) = (old.home, new.home)
        (oldHome.promotions, newHome.promotions) = ([], [])
        let homeName = Self.homeName(in: new)
        entities += Self.compare(.home, [oldHome], [newHome], order: nil, id: { _ in "home" }, name: { _ in homeName }, fields: EntityFields.init)
        entities += Self.compare(.promotion, old.home.promotions, new.home.promotions, order: nil, id: \.id.rawValue, name: \.title,
                                 fields: EntityFields.init)
        entities += Self.compare(.company, [old.company], [new.company], order: nil, id: { _ in "company" }, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.product, old.products, new.products, order: orders.map { ($0.old.products, $0.new.products) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.recipe, old.recipes, new.recipes, order: orders.map { ($0.old.recipes, $0.new.recipes) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.retailer, old.retailers, new.retailers, order: orders.map { ($0.old.retailers, $0.new.retailers) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        return entities
    }

    /// The home's name: its tab's title (`Etusivu`, `Hem` as a Swedish reader reads it).
    private static func homeName(in catalog: Catalog) -> String {
        catalog.sections.first { $0.id.rawValue == "home" }?.title ?? "Etusivu"
    }

    /// Each entity's translations, by its id in the changes.
    private static func translationsByEntity(_ catalog: Catalog) -> [Entity.ID: Translations] {
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
    private static func markLanguages(_ entities: inout [Entity], chain: [LanguageCode],
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
    private static let paths: [String: @Sendable (FieldPath) -> Bool] = [
        "name": { $0 == .name }, "title": { $0 == .title }, "summary": { $0 == .summary }, "text": { $0 == .text },
        "body": { $0 == .body }, "method": { $0 == .method }, "opening hours": { $0 == .hours }, "other information": { $0 == .info },
        "picture": { $0 == .image },
        "ingredients": { if case .ingredient = $0 { true } else { false } },
        "pictures": { if case .picture = $0 { true } else { false } },
    ]

    /// The entities of one kind added, removed and changed, by id. `old` and `new` are in list
    /// order: an entity moved in the list gets a `position` change (its place in the list, from
    /// 1), but only the fewest that explain the new order (those off the longest run of entities
    /// kept in the same order), so that one entity added at the top moves nothing else.
    private static func compare<Value: Equatable>(
        _ kind: Kind, _ old: [Value], _ new: [Value], order: (old: [String], new: [String])?,
        id: (Value) -> String, name: (Value) -> String, fields: (Value) -> EntityFields
    ) -> [Entity] {
        let oldByID = Dictionary(old.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let newByID = Dictionary(new.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let (oldOrder, newOrder) = order ?? (old.map(id), new.map(id))
        let moved = ListOrders.moved(from: oldOrder, to: newOrder)
        let oldPlace = moved.isEmpty ? [:] : Dictionary(oldOrder.enumerated().map { ($0.element, $0.offset + 1) }, uniquingKeysWith: { first, _ in first })
        let newPlace = moved.isEmpty ? [:] : Dictionary(newOrder.enumerated().map { ($0.element, $0.offset + 1) }, uniquingKeysWith: { first, _ in first })
        var entities: [Entity] = []
        for key in Set(oldByID.keys).union(newByID.keys).sorted() {
            switch (oldByID[key], newByID[key]) {
            case (nil, let added?):
                entities.append(Entity(kind: kind, slug: key, name: name(added), change: .added, fields: []))
            case (let removed?, nil):
                entities.append(Entity(kind: kind, slug: key, name: name(removed), change: .removed, fields: []))
            case (let before?, let after?):
                // Fields are made only for an entity that differs: most do not.
                var changed: [Field] = []
                if before != after {
                    changed = zip(fields(before).values, fields(after).values).compactMap { Self.field($0.0, $0.1) }
                    // Every difference should show in some field; should one not, the entity is
                    // still reported as changed rather than the two called the same.
                    if changed.isEmpty { changed = [Field(field: "other")] }
                }
                if moved.contains(key) {
                    changed.append(Field(field: "position", old: oldPlace[key].map(String.init), new: newPlace[key].map(String.init)))
                }
                if !changed.isEmpty { entities.append(Entity(kind: kind, slug: key, name: name(after), change: .changed, fields: changed)) }
            case (nil, nil):
                continue
            }
        }
        return entities
    }

    /// For each entity on both sides, the translations that differ, added or removed: one
    /// field per language and text, `sv: summary`, a text compared word by word (rich text by
    /// its markup, as the default language's is). The entity's default-language fields are
    /// compared elsewhere.
    private static func translationChanges(from old: Catalog, to new: Catalog) -> [Entity.ID: [Field]] {
        let before = translatedTexts(old)
        var changes: [Entity.ID: [Field]] = [:]
        for (entity, after) in translatedTexts(new) {
            // Only entities on both sides: an added or removed one is reported whole.
            guard let earlier = before[entity], earlier != after, let kind = Kind(rawValue: entity.kind.rawValue) else { continue }
            var fields: [Field] = []
            for key in Set(earlier.keys).union(after.keys).sorted() {
                let (was, now) = (earlier[key], after[key])
                guard was != now else { continue }
                let name = "\(key.language): \(CatalogRules.named(key.field))"
                if let was, let now {
                    fields.append(Field(field: name, old: was, new: now, words: WordDifference.words(from: was, to: now), language: key.language.rawValue))
                } else {
                    fields.append(Field(field: name, old: was, new: now, language: key.language.rawValue))
                }
            }
            if !fields.isEmpty { changes[Entity.ID(kind: kind, slug: Self.slug(of: entity))] = fields }
        }
        return changes
    }

    /// A text in a language: the key of `translatedTexts`, in language and then field order.
    private struct TranslatedKey: Hashable, Comparable {
        var language: LanguageCode
        var field: FieldPath

        static func < (a: Self, b: Self) -> Bool {
            (a.language.rawValue, a.field.description) < (b.language.rawValue, b.field.description)
        }
    }

    /// Each entity's texts in each language but the default, as a bundle holds them: its
    /// translations, and a text marked `translate="no"` as the same in every language (so that
    /// a content folder compares equal to the bundle built from it).
    private static func translatedTexts(_ catalog: Catalog) -> [EntityReference: [TranslatedKey: String]] {
        let others = catalog.languages.translated
        var result: [EntityReference: [TranslatedKey: String]] = [:]
        catalog.forEachDefaultText { entity, translations, texts in
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
    private static func shown(_ value: Translations.Value) -> String {
        switch value {
        case .text(let text): text
        case .richText(let text): text.markup
        }
    }

    /// An entity's id in the changes: its slug, `home` and `company` for the single ones.
    private static func slug(of entity: EntityReference) -> String {
        switch entity.kind {
        case .home: "home"
        case .company: "company"
        default: entity.id
        }
    }

    /// Every entity's name in `catalog`, by its id in the changes.
    private static func names(in catalog: Catalog) -> [Entity.ID: String] {
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
    private static func merging(_ translated: [Entity.ID: [Field]], into entities: [Entity], names: [Entity.ID: String]) -> [Entity] {
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

    /// One field's change, or nil if it is the same.
    private static func field(_ old: FieldValue, _ new: FieldValue) -> Field? {
        guard old != new else { return nil }
        switch (old.value, new.value) {
        case (.text(let before), .text(let after)):
            return Field(field: new.name, old: before, new: after, words: WordDifference.words(from: before, to: after))
        case (.single(let before), .single(let after)):
            return Field(field: new.name, old: before, new: after)
        case (.set(let before), .set(let after)):
            return Field(field: new.name, added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
        case (.list(let before), .list(let after)):
            let (oldSet, newSet) = (Set(before), Set(after))
            guard oldSet == newSet else {
                return Field(field: new.name, added: newSet.subtracting(oldSet).sorted(), removed: oldSet.subtracting(newSet).sorted())
            }
            // The same items in another order.
            return Field(field: new.name + " order", old: before.joined(separator: " | "), new: after.joined(separator: " | "))
        default:
            return Field(field: new.name, old: old.value.shown, new: new.value.shown)
        }
    }
}
