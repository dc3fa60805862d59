import CatalogContent
import CatalogModel

/// What turns a bundle written from one valid catalogue into the bundle of the next, as a value
/// (`PatchableBundle` carries it out): the entities whose rows are deleted and inserted again
/// (those changed, added, removed or moved in their list), the pictures added and removed,
/// `bundle_info`'s changed values, and the rows of `list_positions` and of each search index
/// whose entity, place or texts changed. Or, where a patch cannot say it, that the bundle is
/// written whole again, and why.
struct BundlePatch: Sendable {
    /// An entity's rows at its new place: what `BundleRows` inserts.
    struct Placed: Hashable, Sendable {
        var entity: EntityReference
        /// Its place in its list, its tab's among the tabs, its promotion's on the home; 0 for
        /// the home and the company.
        var position: Int
    }

    /// A row of a table keyed by its place (`list_positions`, a search index and its
    /// entries): what was there and what is to be.
    struct PlacedRow<Row: Hashable & Sendable>: Hashable, Sendable {
        /// Its rowid (a search index's), or its position (`list_positions`).
        var place: Int
        var old: Row?
        var new: Row?
    }

    /// A list position of one language: the kind's name and the entity at it.
    struct ListPosition: Hashable, Sendable {
        var kind: String
        var language: LanguageCode
        var id: String
    }

    var deleted: [EntityReference] = []
    var inserted: [Placed] = []
    var picturesRemoved: [String] = []
    var picturesAdded: [String] = []
    /// `bundle_info`'s keys whose values changed, with the new value.
    var info: [(key: String, value: String)] = []
    var listPositions: [PlacedRow<ListPosition>] = []
    /// Each search index's changed rows (`BundleWriter.searchIndexes`), by rowid.
    var searchRows: [(index: String, rows: [PlacedRow<WrittenContent.SearchRow>])] = []
    /// The lists were ordered again (an entity added, removed or moved), not taken from the
    /// last patch.
    var reordered = false

    var isEmpty: Bool {
        deleted.isEmpty && inserted.isEmpty && picturesRemoved.isEmpty && picturesAdded.isEmpty && info.isEmpty && listPositions.isEmpty
            && searchRows.allSatisfy(\.rows.isEmpty)
    }

    /// Why a bundle cannot be patched into the next: it is written whole.
    enum Rebuild: Error, Equatable, CustomStringConvertible {
        /// `catalog.xml` declares other languages, or the same in another order or with other
        /// fallbacks: every translated table and index is laid out by them.
        case languagesChanged
        /// The bundle's schema is not the one written.
        case schemaChanged(from: Int, to: Int)

        var description: String {
            switch self {
            case .languagesChanged: "the languages in catalog.xml changed"
            case .schemaChanged(let old, let new): "the bundle's schema is now \(new), not \(old)"
            }
        }
    }

    /// The patch from `old` to the catalogue `catalog` with `images` and `info`. Returns the
    /// new written content too, whose lists are `old`'s where no entity was added, removed or
    /// renamed in any language or given another position.
    static func between(_ old: WrittenContent, _ catalog: Catalog, images: BundleImages, info: [String: String],
                        schema: Int) throws(Rebuild) -> (patch: BundlePatch, content: WrittenContent) {
        guard catalog.languages == old.catalog.languages else { throw .languagesChanged }
        let oldSchema = old.info["schema_version"].flatMap(Int.init) ?? schema
        guard oldSchema == schema else { throw .schemaChanged(from: oldSchema, to: schema) }
        var patch = BundlePatch()
        let changedPictures = picturesChanged(old.images, images)
        let pictured = changedPictures.isEmpty ? [] : usesOf(changedPictures, in: catalog, images: images)

        // Which entities' contents changed (a picture they show counts), by kind.
        let oldByID = EntitiesByID(old.catalog), newByID = EntitiesByID(catalog)
        var changed: Set<EntityReference> = pictured
        func compare<Entity: Equatable>(_ kind: EntityReference.Kind, _ old: [Entity], _ new: [Entity], id: (Entity) -> String) {
            // Most saves keep every file where it was: each entity compared with the one at its
            // index, in place; by id only where that is another.
            var unmatched: [Int] = []
            old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    for index in new.indices {
                        guard index < old.count, id(old[index]) == id(new[index]) else { unmatched.append(index); continue }
                        if old[index] != new[index] { changed.insert(EntityReference(kind, id(new[index]))) }
                    }
                }
            }
            guard !unmatched.isEmpty else { return }
            let before = Dictionary(old.indices.map { (id(old[$0]), $0) }, uniquingKeysWith: { first, _ in first })
            for index in unmatched where before[id(new[index])].map({ old[$0] != new[index] }) ?? true {
                changed.insert(EntityReference(kind, id(new[index])))
            }
        }
        compare(.section, old.catalog.sections, catalog.sections) { $0.id.rawValue }
        compare(.promotion, old.catalog.home.promotions, catalog.home.promotions) { $0.id.rawValue }
        compare(.product, old.catalog.products, catalog.products) { $0.id.rawValue }
        compare(.recipe, old.catalog.recipes, catalog.recipes) { $0.id.rawValue }
        compare(.retailer, old.catalog.retailers, catalog.retailers) { $0.id.rawValue }
        var (oldHome, newHome) = (old.catalog.home, catalog.home)
        (oldHome.promotions, newHome.promotions) = ([], [])
        if oldHome != newHome { changed.insert(EntityReference(.home)) }
        if old.catalog.company != catalog.company { changed.insert(EntityReference(.company)) }

        // The lists: ordered again only when an entity came, went, or changed what orders it.
        var content = WrittenContent(catalog: catalog, images: images, info: info, orders: old.orders)
        if needsOrdering(old, catalog, changed: changed, oldByID: oldByID, newByID: newByID) {
            content.orders = WrittenContent.orders(of: catalog)
            patch.reordered = true
        } else {
            // The same ids in the same order: only the entities' values are new.
            content.orders = old.orders
        }

        // Entities: those changed, gone, new or at another place, each deleted and inserted.
        func placed(_ kind: EntityReference.Kind, _ old: [String], _ new: [String]) {
            let oldPlaces = Dictionary(old.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
            let newPlaces = Dictionary(new.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
            for id in old where newPlaces[id] != oldPlaces[id] || changed.contains(EntityReference(kind, id)) {
                patch.deleted.append(EntityReference(kind, id))
            }
            for (index, id) in new.enumerated() where oldPlaces[id] != index + 1 || changed.contains(EntityReference(kind, id)) {
                patch.inserted.append(Placed(entity: EntityReference(kind, id), position: index + 1))
            }
        }
        placed(.section, old.catalog.sections.map(\.id.rawValue), catalog.sections.map(\.id.rawValue))
        placed(.promotion, old.catalog.home.promotions.map(\.id.rawValue), catalog.home.promotions.map(\.id.rawValue))
        placed(.product, old.orders[0].products, content.orders[0].products)
        placed(.recipe, old.orders[0].recipes, content.orders[0].recipes)
        placed(.retailer, old.orders[0].retailers, content.orders[0].retailers)
        for single in [EntityReference(.home), EntityReference(.company)] where changed.contains(single) {
            patch.deleted.append(single)
            patch.inserted.append(Placed(entity: single, position: 0))
        }

        // Pictures: those no longer used removed, the new ones added.
        let (oldPictures, newPictures) = (Set(old.images.bySHA256.keys), Set(images.bySHA256.keys))
        patch.picturesRemoved = oldPictures.subtracting(newPictures).sorted()
        patch.picturesAdded = newPictures.subtracting(oldPictures).sorted()
        patch.info = info.filter { old.info[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }

        guard schema >= 3 else {
            patch.searchRows = [("search", searchRows("search", old, content, changed: changed, oldByID: oldByID, newByID: newByID))]
            return (patch, content)
        }
        // Each other language's list positions, by position.
        for (oldLists, newLists) in zip(old.orders.dropFirst(), content.orders.dropFirst()) {
            for ((kind, oldIDs), (_, newIDs)) in zip(oldLists.ids, newLists.ids) {
                for place in 0..<max(oldIDs.count, newIDs.count) {
                    let before = oldIDs.indices.contains(place) ? ListPosition(kind: kind, language: oldLists.language, id: oldIDs[place]) : nil
                    let after = newIDs.indices.contains(place) ? ListPosition(kind: kind, language: newLists.language, id: newIDs[place]) : nil
                    if before != after { patch.listPositions.append(PlacedRow(place: place + 1, old: before, new: after)) }
                }
            }
        }
        patch.searchRows = BundleWriter.searchIndexes.map { index in
            (index, searchRows(index, old, content, changed: changed, oldByID: oldByID, newByID: newByID))
        }
        return (patch, content)
    }

    /// The paths whose picture is another (or none, or new): their SHA-256 differs.
    private static func picturesChanged(_ old: BundleImages, _ new: BundleImages) -> Set<String> {
        guard old.byPath != new.byPath else { return [] }
        var paths = Set<String>()
        for (path, sha256) in new.byPath where old.byPath[path] != sha256 { paths.insert(path) }
        for path in old.byPath.keys where new.byPath[path] == nil { paths.insert(path) }
        return paths
    }

    /// The entities that show a picture of `paths`.
    private static func usesOf(_ paths: Set<String>, in catalog: Catalog, images: BundleImages) -> Set<EntityReference> {
        var entities = Set<EntityReference>()
        catalog.forEachImageUse { reference, _, place in
            if let path = ImageChecker.normalized(reference.source), paths.contains(path) { entities.insert(place().entity) }
        }
        return entities
    }

    /// Whether the lists must be ordered again: a product, recipe or retailer came or went, or
    /// one that changed has another position or, in some language, another name.
    private static func needsOrdering(_ old: WrittenContent, _ catalog: Catalog, changed: Set<EntityReference>,
                                      oldByID: EntitiesByID, newByID: EntitiesByID) -> Bool {
        let first = old.orders[0]
        guard first.products.count == catalog.products.count, first.recipes.count == catalog.recipes.count,
              first.retailers.count == catalog.retailers.count else { return true }
        for entity in changed {
            for lists in old.orders {
                let chain = lists.chain
                switch entity.kind {
                case .product:
                    guard let before = oldByID.product(entity.id), let after = newByID.product(entity.id) else { return true }
                    if before.position != after.position || before.translated(along: chain).name != after.translated(along: chain).name { return true }
                case .recipe:
                    guard let before = oldByID.recipe(entity.id), let after = newByID.recipe(entity.id) else { return true }
                    if before.position != after.position || before.translated(along: chain).name != after.translated(along: chain).name { return true }
                case .retailer:
                    guard let before = oldByID.retailer(entity.id), let after = newByID.retailer(entity.id) else { return true }
                    if before.position != after.position || before.translated(along: chain).name != after.translated(along: chain).name { return true }
                default: break
                }
            }
        }
        return false
    }

    /// The rows of the search index `index` that change: another entity at the rowid, or the
    /// same entity with other texts.
    private static func searchRows(_ index: String, _ old: WrittenContent, _ new: WrittenContent, changed: Set<EntityReference>,
                                   oldByID: EntitiesByID, newByID: EntitiesByID) -> [PlacedRow<WrittenContent.SearchRow>] {
        let chains = Dictionary(new.orders.map { ($0.language, $0.chain) }, uniquingKeysWith: { first, _ in first })
        if old.orders == new.orders {
            // Every row where it was: only the changed entities' rows, found by their places.
            return searchRowsInPlace(index, new, changed: changed, chains: chains, oldByID: oldByID, newByID: newByID)
        }
        let (before, after) = (old.searchRows(index), new.searchRows(index))
        var rows: [PlacedRow<WrittenContent.SearchRow>] = []
        for place in 0..<max(before.count, after.count) {
            let oldRow = before.indices.contains(place) ? before[place] : nil
            let newRow = after.indices.contains(place) ? after[place] : nil
            if oldRow == newRow {
                guard let row = oldRow, changed.contains(EntityReference(EntityReference.Kind(row.kind), row.id)) else { continue }
                let chain = chains[row.language] ?? [row.language]
                if oldByID.texts(of: row, chain: chain, index: index) == newByID.texts(of: row, chain: chain, index: index) { continue }
            }
            rows.append(PlacedRow(place: place + 1, old: oldRow, new: newRow))
        }
        return rows
    }
}

extension BundlePatch {
    /// `searchRows` where the lists are as they were: the rows of the changed products, recipes
    /// and retailers whose texts changed, each at its rowid (its place in its language's run:
    /// `WrittenContent.searchRows`).
    private static func searchRowsInPlace(_ index: String, _ content: WrittenContent, changed: Set<EntityReference>,
                                          chains: [LanguageCode: [LanguageCode]], oldByID: EntitiesByID,
                                          newByID: EntitiesByID) -> [PlacedRow<WrittenContent.SearchRow>] {
        let searched = changed.filter { [.product, .recipe, .retailer].contains($0.kind) }
        guard !searched.isEmpty else { return [] }
        var rows: [PlacedRow<WrittenContent.SearchRow>] = []
        var offset = 0
        for lists in content.languages(of: index) {
            let runs: [(BundleWriter.SearchKind, [String])] = [(.product, lists.products), (.recipe, lists.recipes), (.retailer, lists.retailers)]
            for (kind, ids) in runs {
                // A few entities are found by a look along the list; many, by an index of it.
                let places = searched.count > 32 ? Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : nil
                for entity in searched where entity.kind == EntityReference.Kind(kind) {
                    guard let place = places.map({ $0[entity.id] }) ?? ids.firstIndex(of: entity.id) else { continue }
                    let row = WrittenContent.SearchRow(kind: kind, id: entity.id, language: lists.language)
                    let chain = chains[lists.language] ?? [lists.language]
                    if oldByID.texts(of: row, chain: chain, index: index) != newByID.texts(of: row, chain: chain, index: index) {
                        rows.append(PlacedRow(place: offset + place + 1, old: row, new: row))
                    }
                }
                offset += ids.count
            }
        }
        return rows.sorted { $0.place < $1.place }
    }
}

extension EntityReference.Kind {
    /// The kind of a search row's entity.
    init(_ kind: BundleWriter.SearchKind) {
        switch kind {
        case .product: self = .product
        case .recipe: self = .recipe
        case .retailer: self = .retailer
        }
    }
}
