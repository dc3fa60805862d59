import CatalogModel
import Foundation
import Testing

/// What SwiftUI asks of the records a list or a navigation path shows: `Identifiable` with ids
/// that are unique where the records are listed together, and `Hashable`.
@Suite struct SwiftUIFitTests {
    let bundle: CatalogBundle

    init() throws {
        bundle = try CatalogBundle(path: BundleFixtures.shipped)
    }

    /// Whether `items` can be a `ForEach`'s data: no two share an id.
    static func idsAreUnique<T: Identifiable>(_ items: [T]) -> Bool {
        Set(items.map(\.id)).count == items.count
    }

    @Test func searchHitsAndNearbyRetailersAreIdentifiedByWhatTheyShow() throws {
        // A search that matches products, recipes and retailers at once.
        for text in ["a", "c", "kahvi", "e"] {
            let hits = try bundle.search(text)
            #expect(Self.idsAreUnique(hits), "\(text)")
            #expect(hits.allSatisfy { $0.id == $0.target })
        }
        let nearby = try bundle.retailersNearest(to: Coordinate(latitude: 60.17, longitude: 24.94), limit: 50)
        #expect(nearby.count > 1)
        #expect(Self.idsAreUnique(nearby))
        #expect(nearby.allSatisfy { $0.id == $0.retailer.id })
    }
}

extension SwiftUIFitTests {
    /// "What's new" rows go in a `List` or a navigation path by value: the changes are `Hashable`.
    @Test func releaseNotesAreHashable() {
        let entity = CatalogChanges.Entity(kind: .product, id: "espresso", name: "Espresso", change: .changed,
                                           fields: [.init(field: "summary", old: "Tumma", new: "Tummempi", words: nil, added: nil, removed: nil)])
        var renamed = entity
        renamed.name = "Espresso Forte"
        #expect(Set([entity, entity, renamed]).count == 2)
    }
}
