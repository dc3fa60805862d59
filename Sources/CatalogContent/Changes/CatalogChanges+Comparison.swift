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
        var entities: [Entity] = []
        entities += Self.compare(.section, old.sections, new.sections, order: nil, id: \.id.rawValue, name: \.title, fields: EntityFields.init)
        // The home page without its promotions, which are entities of their own.
        var (oldHome, newHome) = (old.home, new.home)
        (oldHome.promotions, newHome.promotions) = ([], [])
        entities += Self.compare(.home, [oldHome], [newHome], order: nil, id: { _ in "home" }, name: { _ in "Etusivu" }, fields: EntityFields.init)
        entities += Self.compare(.promotion, old.home.promotions, new.home.promotions, order: nil, id: \.id.rawValue, name: \.title,
                                 fields: EntityFields.init)
        entities += Self.compare(.company, [old.company], [new.company], order: nil, id: { _ in "company" }, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.product, old.products, new.products, order: orders.map { ($0.old.products, $0.new.products) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.recipe, old.recipes, new.recipes, order: orders.map { ($0.old.recipes, $0.new.recipes) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        entities += Self.compare(.retailer, old.retailers, new.retailers, order: orders.map { ($0.old.retailers, $0.new.retailers) },
                                 id: \.id.rawValue, name: \.name, fields: EntityFields.init)
        self.init(
            old: Release(releaseVersion: old.releaseVersion, releaseDate: old.releaseDate, contentDigest: oldDigest),
            new: Release(releaseVersion: new.releaseVersion, releaseDate: new.releaseDate, contentDigest: newDigest),
            entities: entities,
            pictures: Pictures(added: pictures.new.subtracting(pictures.old).sorted(), removed: pictures.old.subtracting(pictures.new).sorted()))
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
                entities.append(Entity(kind: kind, id: key, name: name(added), change: .added, fields: []))
            case (let removed?, nil):
                entities.append(Entity(kind: kind, id: key, name: name(removed), change: .removed, fields: []))
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
                if !changed.isEmpty { entities.append(Entity(kind: kind, id: key, name: name(after), change: .changed, fields: changed)) }
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

/// A field of an entity, as the comparison sees it.
struct FieldValue: Equatable {
    enum Value: Equatable {
        /// Compared word by word.
        case text(String)
        /// One value, or none.
        case single(String?)
        /// Compared as a set: what was added and removed.
        case set(Set<String>)
        /// Compared as a set, and then by order: the same items reordered are a change too.
        case list([String])

        var shown: String? {
            switch self {
            case .text(let text): text
            case .single(let value): value
            case .set(let values): values.sorted().joined(separator: ", ")
            case .list(let values): values.joined(separator: ", ")
            }
        }
    }

    var name: String
    var value: Value

    init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }
}

/// An entity as a list of fields, the same fields in the same order for every entity of a kind.
struct EntityFields {
    var values: [FieldValue]

    init(_ section: Section) {
        values = [FieldValue("title", .text(section.title)), FieldValue("icon", .single(section.icon.shown))]
    }

    init(_ home: Home) {
        values = [FieldValue("logo", .single(home.logo.shown)), FieldValue("picture", .single(home.image.shown)),
                  FieldValue("text", .text(home.body.markup)), FieldValue("links", .set(home.body.linkTargets))]
    }

    init(_ promotion: Promotion) {
        values = [FieldValue("title", .text(promotion.title)), FieldValue("text", .text(promotion.text)),
                  FieldValue("picture", .single(promotion.image.shown)),
                  FieldValue("first day", .single(promotion.firstDay.description)), FieldValue("last day", .single(promotion.lastDay.description)),
                  FieldValue("link", .single(promotion.link?.shown))]
    }

    init(_ company: Company) {
        values = [FieldValue("name", .text(company.name)), FieldValue("logo", .single(company.logo.shown)),
                  FieldValue("text", .text(company.body.markup)), FieldValue("pictures", .list(company.images.map(\.shown))),
                  FieldValue("web address", .single(company.webAddress)), FieldValue("links", .set(company.body.linkTargets))]
    }

    init(_ product: Product) {
        values = [FieldValue("name", .text(product.name)), FieldValue("icon", .single(product.icon.shown)),
                  FieldValue("summary", .text(product.summary)), FieldValue("text", .text(product.body.markup)),
                  FieldValue("pictures", .list(product.images.map(\.shown))), FieldValue("links", .set(product.body.linkTargets))]
    }

    init(_ recipe: Recipe) {
        values = [FieldValue("name", .text(recipe.name)), FieldValue("icon", .single(recipe.icon.shown)),
                  FieldValue("summary", .text(recipe.summary)),
                  FieldValue("ingredients", .text(recipe.ingredients.map { $0.text + ($0.product.map { " [product:\($0.rawValue)]" } ?? "") }.joined(separator: "\n"))),
                  FieldValue("products", .set(Set(recipe.productIDs.map(\.rawValue)))),
                  FieldValue("text", .text(recipe.method.markup)), FieldValue("pictures", .list(recipe.images.map(\.shown))),
                  FieldValue("links", .set(recipe.method.linkTargets))]
    }

    init(_ retailer: Retailer) {
        values = [FieldValue("name", .text(retailer.name)), FieldValue("logo", .single(retailer.logo.shown)),
                  FieldValue("address", .text(retailer.address)), FieldValue("phone", .single(retailer.phone)),
                  FieldValue("opening hours", .text(retailer.openingHours)), FieldValue("other information", .text(retailer.otherInfo ?? "")),
                  FieldValue("web address", .single(retailer.webAddress)),
                  FieldValue("coordinate", .single(retailer.coordinate.map { "\($0.latitude), \($0.longitude)" })),
                  FieldValue("sells", .list(retailer.sells.map(\.rawValue)))]
    }
}

extension ImageReference {
    /// `sha256` or `sha256 "alt text"`: a picture and its words as one value, so that changed
    /// words show as a change of the picture.
    var shown: String {
        guard let alt, !alt.isEmpty else { return source }
        return source + " \"" + alt + "\""
    }
}

extension LinkTarget {
    /// `product:espresso`, `recipe:latte`.
    var shown: String {
        switch self {
        case .product(let id): "product:" + id.rawValue
        case .recipe(let id): "recipe:" + id.rawValue
        }
    }
}

extension RichText {
    /// The text as written, with its form in a Markdown-like way (`## heading`, `- item`,
    /// `*emphasis*`, `**strong**`, `[words](product:espresso)`), so that a word diff of it
    /// shows changes of form and of link targets as well as of words.
    var markup: String {
        func render(_ inlines: [Inline]) -> String {
            inlines.map { (part: Inline) -> String in
                switch part {
                case .text(let text): return text
                case .emphasis(let inner): return "*" + render(inner) + "*"
                case .strong(let inner): return "**" + render(inner) + "**"
                case .link(let target, let inner): return "[" + render(inner) + "](" + target.shown + ")"
                }
            }.joined()
        }
        return blocks.map { (block: Block) -> String in
            switch block {
            case .paragraph(let inlines):
                return render(inlines)
            case .heading(let level, let inlines):
                return String(repeating: "#", count: max(1, min(level, 6))) + " " + render(inlines)
            case .list(let ordered, let items):
                return items.enumerated().map { (item: (offset: Int, element: [Inline])) -> String in
                    (ordered ? String(item.offset + 1) + ". " : "- ") + render(item.element)
                }.joined(separator: "\n")
            }
        }.joined(separator: "\n\n")
    }

    /// The products and recipes the text links to.
    var linkTargets: Set<String> {
        var targets: Set<String> = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .text: break
                case .emphasis(let inner), .strong(let inner): visit(inner)
                case .link(let target, let inner):
                    targets.insert(target.shown)
                    visit(inner)
                }
            }
        }
        for block in blocks {
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): visit(inlines)
            case .list(_, let items): items.forEach(visit)
            }
        }
        return targets
    }
}

extension Catalog {
    /// Every picture's SHA-256.
    var pictureSHA256s: Set<String> {
        var shas = Set(sections.map(\.icon.source))
        shas.formUnion([home.logo.source, home.image.source, company.logo.source])
        shas.formUnion(home.promotions.map(\.image.source))
        shas.formUnion(company.images.map(\.source))
        for product in products { shas.insert(product.icon.source); shas.formUnion(product.images.map(\.source)) }
        for recipe in recipes { shas.insert(recipe.icon.source); shas.formUnion(recipe.images.map(\.source)) }
        for retailer in retailers { shas.insert(retailer.logo.source) }
        return shas
    }
}
