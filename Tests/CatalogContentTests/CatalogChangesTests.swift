@testable import CatalogContent
import CatalogModel
import Foundation
import Testing
import TestSupport

/// `CatalogChanges` between two catalogues: what is added, removed and changed, field by field,
/// text word by word, positions only for what really moved.
@Suite struct CatalogChangesTests {
    func changes(_ change: (inout Catalog) -> Void) -> CatalogChanges {
        var new = Sample.catalog
        change(&new)
        return CatalogChanges(from: Sample.catalog, to: new, oldDigest: "old", newDigest: "new")
    }

    @Test func theSameCatalogueHasNoChanges() {
        let same = changes { $0.releaseVersion = "2026.11.1" }
        #expect(same.isEmpty)
        #expect(same.old.releaseVersion == "2026.11.0" && same.new.releaseVersion == "2026.11.1")
        #expect(same.old.contentDigest == "old" && same.new.contentDigest == "new")
    }

    @Test func entitiesAddedAndRemovedAreListedByKindThenID() {
        let result = changes { catalog in
            catalog.products.append(Sample.product("coffee-beans", name: "Kahvipavut", body: "Kokonaiset pavut."))
            catalog.recipes.removeAll { $0.id == "cafe-au-lait" }
            catalog.home.promotions = []
        }
        #expect(result.entities.map { "\($0.kind.rawValue) \($0.slug) \($0.change.rawValue) \($0.name)" } == [
            "promotion uutuus removed Uutuus",
            "product coffee-beans added Kahvipavut",
            "recipe cafe-au-lait removed Café au lait",
        ])
        #expect(result.entities.allSatisfy { $0.fields.isEmpty })
        #expect(result.count(.product) == (1, 0, 0) && result.count(.recipe) == (0, 1, 0))
    }

    @Test func aChangedTextIsShownWordByWord() throws {
        let result = changes { catalog in
            catalog.products[0].summary = "Tummapaahteinen, hienoksi jauhettu espressojauhe"
        }
        let field = try #require(result.entities.first?.fields.first)
        #expect(field.field == "summary")
        #expect(field.old == "Tummapaahteinen espressojauhe" && field.new == "Tummapaahteinen, hienoksi jauhettu espressojauhe")
        #expect(field.words == [.init(.same, "Tummapaahteinen"), .init(.added, ", hienoksi jauhettu"), .init(.same, " espressojauhe")])
    }

    @Test func theWordsGiveBackBothTexts() {
        let pairs = [("", "uusi teksti"), ("vanha teksti", ""), ("a b c d", "a x c d e"), ("  alku", "alku  "), ("yksi\nkaksi", "yksi kaksi"),
                     ("Kahvi, maito ja sokeri.", "Maito, kahvi ja sokeri!")]
        for (old, new) in pairs {
            let words = WordDifference.words(from: old, to: new)
            #expect(words.filter { $0.op != .added }.map(\.text).joined() == old, "\(old) → \(new)")
            #expect(words.filter { $0.op != .removed }.map(\.text).joined() == new, "\(old) → \(new)")
            #expect(zip(words, words.dropFirst()).allSatisfy { $0.op != $1.op }, "runs are merged")
        }
    }

    @Test func setsShowWhatWasGainedAndLost() throws {
        let result = changes { catalog in
            catalog.retailers[0].sells = ["espresso"]
            catalog.recipes[0].ingredients[0].product = "ground-coffee"
            catalog.products[0].images = [picture("Uusi paketti")]
            catalog.products[0].body = paragraph("Sopii kaikkeen.")
        }
        let byID = Dictionary(uniqueKeysWithValues: result.entities.map { ($0.slug, $0) })
        let sells = try #require(byID["deling-group"]?.fields.first)
        #expect(sells.field == "sells" && sells.added == [] && sells.removed == ["ground-coffee"])
        let recipeFields = try #require(byID["cafe-latte"]?.fields)
        #expect(recipeFields.map(\.field) == ["ingredients", "products"])
        #expect(recipeFields[0].new?.hasPrefix("1–2 annosta Café Digno Espressoa [product:ground-coffee]\n") == true)
        #expect(recipeFields[1].added == ["ground-coffee"] && recipeFields[1].removed == ["espresso"])
        let productFields = try #require(byID["espresso"]?.fields)
        #expect(productFields.map(\.field) == ["body", "pictures", "links"])
        #expect(productFields[1].added == ["images/picture.png \"Uusi paketti\""])
        #expect(productFields[1].removed == ["images/picture.png \"Espressopaketti\""])
        #expect(productFields[2].removed == ["recipe:cafe-latte"] && productFields[2].added == [])
    }

    @Test func onlyWhatMovedGetsAPosition() throws {
        // A product added first moves nothing else.
        let inserted = changes { $0.products.insert(Sample.product("a-first", name: "Aamukahvi", body: "Uusi."), at: 0) }
        #expect(inserted.entities.map(\.slug) == ["a-first"])
        // Two swapped: one of them moved.
        let swapped = changes { $0.products.swapAt(0, 1) }
        #expect(swapped.entities.count == 1)
        #expect(swapped.entities.first?.fields == [.init(field: "position", old: "1", new: "2")] ||
                swapped.entities.first?.fields == [.init(field: "position", old: "2", new: "1")])
        // Sections reordered too.
        let sections = changes { $0.sections.insert($0.sections.removeLast(), at: 0) }
        #expect(sections.entities.map { "\($0.kind.rawValue) \($0.slug)" } == ["section company"])
        #expect(sections.entities.first?.fields == [.init(field: "position", old: "5", new: "1")])
    }

    @Test func singlesShowOldAndNew() throws {
        let result = changes { catalog in
            catalog.home.promotions[0].lastDay = day("2027-01-31")
            catalog.home.promotions[0].link = nil
            catalog.retailers[0].coordinate = Coordinate(latitude: 60.17, longitude: 24.94)
            catalog.company.webAddress = "https://delinggroup.fi"
        }
        let fields = result.entities.flatMap { entity in entity.fields.map { "\(entity.slug).\($0.field): \($0.old ?? "-") → \($0.new ?? "-")" } }
        #expect(fields == [
            "uutuus.last day: 2026-12-31 → 2027-01-31",
            "uutuus.link: product:espresso → -",
            "company.web address: https://www.delinggroup.com → https://delinggroup.fi",
            "deling-group.coordinate: - → 60.17, 24.94",
        ])
    }

    @Test func theJSONIsStable() throws {
        let result = changes { $0.products[0].name = "Espresso Forte" }
        let json = String(decoding: result.encoded(), as: UTF8.self)
        #expect(json.hasPrefix("{\n  \"entities\" : [\n    {\n      \"change\" : \"changed\",\n      \"fields\" : [\n        {\n          \"field\" : \"name\","))
        #expect(json.contains("\"format\" : 1"))
        #expect(json.contains("\"releaseDate\" : \"2026-11-01\""))
        #expect(try JSONDecoder().decode(CatalogChanges.self, from: result.encoded()) == result)
    }

    @Test func aSelectionWithOrdersGivesTheSameChangesAsTheWholeCatalogues() {
        // What digno diff does for two bundles: only the entities that differ or moved, and
        // the lists' orders.
        var new = Sample.catalog
        new.products[1].summary = "Uusi"
        new.products.swapAt(0, 1)
        let whole = CatalogChanges(from: Sample.catalog, to: new, oldDigest: nil, newDigest: nil)
        var oldPart = Sample.catalog, newPart = new
        oldPart.products = oldPart.products.filter { ["ground-coffee", "espresso"].contains($0.id.rawValue) }
        oldPart.recipes = []
        newPart.recipes = []
        oldPart.retailers = []
        newPart.retailers = []
        let orders = (old: CatalogChanges.ListOrders(products: Sample.catalog.products.map(\.id.rawValue), recipes: Sample.catalog.recipes.map(\.id.rawValue),
                                                     retailers: ["deling-group"]),
                      new: CatalogChanges.ListOrders(products: new.products.map(\.id.rawValue), recipes: new.recipes.map(\.id.rawValue),
                                                     retailers: ["deling-group"]))
        let part = CatalogChanges(from: oldPart, to: newPart, oldDigest: nil, newDigest: nil, orders: orders,
                                  pictures: (Sample.catalog.pictureSHA256s, new.pictureSHA256s))
        #expect(part == whole)
        #expect(!whole.isEmpty)
    }

    @Test func aListShuffledWholeMovesAllButTheLongestKeptRunInWorkGrowingWithItsSize() {
        let old = (0..<40_000).map { "id-\($0)" }
        let reversed = CatalogChanges.ListOrders.moved(from: old, to: old.reversed())
        #expect(reversed.count == old.count - 1)
        // Every other pair swapped: half of them moved.
        var swapped = old
        for index in stride(from: 0, to: swapped.count - 1, by: 2) { swapped.swapAt(index, index + 1) }
        #expect(CatalogChanges.ListOrders.moved(from: old, to: swapped).count == old.count / 2)
        // One added at the top and one removed: nothing moved.
        #expect(CatalogChanges.ListOrders.moved(from: old, to: ["new"] + old.dropLast()).isEmpty)
        // A list reversed at a quarter of the size and at the whole: n log n makes about 4.5
        // times the work, the square of the changes 16.
        let quarter = Array(old.prefix(old.count / 4))
        let growth = Work.growth(small: { _ = CatalogChanges.ListOrders.moved(from: quarter, to: quarter.reversed()) },
                                 large: { _ = CatalogChanges.ListOrders.moved(from: old, to: old.reversed()) })
        #expect(growth < 8, "\(growth) times the work for 4 times the list")
    }

    @Test func textsTooDifferentAreReplacedWholeBetweenTheirCommonEnds() {
        let old = "Alku sama. " + (0..<3_000).map { "vanha\($0)" }.joined(separator: " ") + " Loppu sama."
        let new = "Alku sama. " + (0..<3_000).map { "uusi\($0)" }.joined(separator: " ") + " Loppu sama."
        let words = WordDifference.words(from: old, to: new)
        #expect(words.map(\.op) == [.same, .removed, .added, .same])
        #expect(words.first?.text == "Alku sama. " && words.last?.text == " Loppu sama.")
        #expect(words.filter { $0.op != .added }.map(\.text).joined() == old)
        #expect(words.filter { $0.op != .removed }.map(\.text).joined() == new)
    }

    @Test func formOrderAndLinkTargetsAreChangesToo() throws {
        let result = changes { catalog in
            // The same words, now strong; a link to another recipe with the same words.
            catalog.products[0].body = RichText(blocks: [
                .paragraph([.strong([.text("Sopii ")]), .link(.recipe("cafe-au-lait"), [.text("Café Latteen")]), .text(".")])
            ])
            catalog.retailers[0].sells = ["ground-coffee", "espresso"]
            catalog.recipes[1].ingredients[0].product = nil
        }
        let byID = Dictionary(uniqueKeysWithValues: result.entities.map { ($0.slug, $0) })
        let text = try #require(byID["espresso"]?.fields.first { $0.field == "body" })
        #expect(text.old == "Sopii [Café Latteen](recipe:cafe-latte)." && text.new == "**Sopii **[Café Latteen](recipe:cafe-au-lait).")
        #expect(byID["deling-group"]?.fields == [.init(field: "sells order", old: "espresso | ground-coffee", new: "ground-coffee | espresso")])
        #expect(byID["cafe-au-lait"]?.fields.map(\.field) == ["ingredients", "products"])
    }
}
