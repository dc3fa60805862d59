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
    /// A detail screen's ingredient lines and pictures go in a `ForEach` by their own ids: the
    /// line's text and the picture's image, which the compiler's rules keep unique within an
    /// entity (`duplicate-ingredient`, `duplicate-picture`, tested with the rules).
    @Test func ingredientsAndPicturesAreIdentifiedByWhatTheyShow() throws {
        for row in try bundle.recipeRows() {
            let recipe = try #require(try bundle.recipe(row.id))
            #expect(Self.idsAreUnique(recipe.ingredients) && Self.idsAreUnique(recipe.pictures), "\(row.id)")
            #expect(recipe.ingredients.allSatisfy { $0.id == $0.text } && recipe.pictures.allSatisfy { $0.id == $0.image })
        }
        for row in try bundle.productRows() {
            #expect(Self.idsAreUnique(try #require(try bundle.product(row.id)).pictures), "\(row.id)")
        }
        #expect(Self.idsAreUnique(try bundle.company().pictures))
    }

    /// A product and a recipe may share a slug; a change's id is its kind and slug together, and
    /// the JSON keeps the key `id` for the slug.
    @Test func changedEntitiesAreIdentifiedByKindAndSlug() throws {
        let product = CatalogChanges.Entity(kind: .product, slug: "espresso", name: "Espresso", change: .added, fields: [])
        let recipe = CatalogChanges.Entity(kind: .recipe, slug: "espresso", name: "Espresso", change: .added, fields: [])
        #expect(Self.idsAreUnique([product, recipe]))
        #expect(product.id == CatalogChanges.Entity.ID(kind: .product, slug: "espresso"))
        let json = try #require(String(data: try JSONEncoder().encode(recipe), encoding: .utf8))
        #expect(json.contains(#""id":"espresso""#) && !json.contains("slug"))
        #expect(try JSONDecoder().decode(CatalogChanges.Entity.self, from: Data(json.utf8)) == recipe)
    }

    /// "What's new" rows go in a `List` or a navigation path by value: the changes are `Hashable`.
    @Test func releaseNotesAreHashable() {
        let entity = CatalogChanges.Entity(kind: .product, slug: "espresso", name: "Espresso", change: .changed,
                                           fields: [.init(field: "summary", old: "Tumma", new: "Tummempi", words: nil, added: nil, removed: nil)])
        var renamed = entity
        renamed.name = "Espresso Forte"
        #expect(Set([entity, entity, renamed]).count == 2)
    }
}
