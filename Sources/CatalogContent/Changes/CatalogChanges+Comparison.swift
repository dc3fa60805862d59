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
    static func homeName(in catalog: Catalog) -> String {
        catalog.sections.first { $0.id.rawValue == "home" }?.title ?? "Etusivu"
    }

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

    /// One field's change, or nil if it is the same.
    private static func field(_ old: FieldValue, _ new: FieldValue) -> Field? {
        guard old != new else { return nil }
        switch (old.value, new.value) {
        case (.text(let before), .text(let after)):
            return Field(field: new.name, old: before, new: after, words: WordDifference.words(from: before, to: after))
        case (.single(let before), .single(let after)):
            return Field(field: new.name, old: before, new: after)
        case (.lines(let before), .lines(let after)):
            let (added, removed) = LineDifference.lines(from: before, to: after)
            return Field(field: new.name, added: added, removed: removed)
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
