@testable import CatalogModel
import Foundation
import Testing

/// The named queries over the bundle built from `content/`: every screen's data, typed.
@Suite struct CatalogBundleQueryTests {
    let bundle: CatalogBundle

    init() throws {
        bundle = try CatalogBundle(path: BundleFixtures.shipped)
    }

    @Test func sectionsInTabOrder() throws {
        let tabs = try bundle.sections()
        #expect(tabs.map(\.id) == [.home, .products, .recipes, .retailers, .company])
        #expect(tabs.map(\.title) == ["Etusivu", "Tuotteet", "Kahvireseptit", "Jälleenmyyjät", "Deling Group"])
        for tab in tabs {
            let icon = try #require(try bundle.image(tab.icon))
            #expect(icon.width == icon.height)
        }
    }

    @Test func homeShowsOnlyRunningPromotions() throws {
        let during = try bundle.home(on: Day("2026-11-22")!)
        #expect(during.promotions.map(\.id) == ["uutuus-coffee-beans"])
        #expect(during.promotions.first?.link == .product("coffee-beans"))
        #expect(try bundle.home(on: Day("2027-01-31")!).promotions.count == 1)
        #expect(try bundle.home(on: Day("2027-02-01")!).promotions.isEmpty)
        #expect(try bundle.home(on: Day("2026-10-31")!).promotions.isEmpty)
        #expect(during.body.plainText.hasPrefix("Café Digno on ylellinen kahvisarja"))
        #expect(during.picture.alt == "Café Digno -tuotesarja: Coffee Beans, Espresso ja Ground Coffee")
    }

    @Test func aListScreenAPageAtATime() throws {
        let today = Day("2026-11-22")!
        for route in [Route.products, .recipes, .retailers] {
            let whole = try bundle.screen(for: route, today: today)
            let page = try bundle.screen(for: route, today: today, rows: 1..<3)
            #expect(page.tabs == whole.tabs && page.navigationBar == whole.navigationBar, "\(route)")
            switch (whole.content, page.content) {
            case (.productList(let all), .productList(let some)): #expect(some == Array(all[1..<3]))
            case (.recipeList(let all), .recipeList(let some)): #expect(some == Array(all[1..<3]))
            case (.retailerList(let all), .retailerList(let some)): #expect(some == Array(all[1..<min(3, all.count)]))
            default: Issue.record("\(route): \(page.content)")
            }
            let past = try bundle.screen(for: route, today: today, rows: 1000..<1100)
            switch past.content {
            case .productList(let rows): #expect(rows.isEmpty)
            case .recipeList(let rows): #expect(rows.isEmpty)
            case .retailerList(let rows): #expect(rows.isEmpty)
            default: Issue.record("\(route): \(past.content)")
            }
        }
        // Other screens are whole.
        #expect(try bundle.screen(for: .product("espresso"), today: today, rows: 0..<0) == bundle.screen(for: .product("espresso"), today: today))
        #expect(try bundle.screen(for: .home, today: today, rows: 5..<6) == bundle.screen(for: .home, today: today))
    }

    @Test func aListPageAsynchronously() async throws {
        let today = Day("2026-11-22")!
        let page: Screen = try await bundle.screen(for: .recipes, today: today, rows: 2..<4)
        guard case .recipeList(let rows) = page.content else { Issue.record("\(page.content)"); return }
        let all: [RecipeRow] = try await bundle.recipeRows()
        #expect(rows == Array(all[2..<4]))
    }

    @Test func productListAndDetail() throws {
        let rows = try bundle.productRows()
        #expect(rows.map(\.name) == ["Coffee Beans", "Espresso", "Ground Coffee"])
        #expect(try bundle.productRows(offset: 1, limit: 1).map(\.id) == ["espresso"])
        let espresso = try #require(try bundle.product("espresso"))
        #expect(espresso.summary == "Tummapaahteinen espressojauhe")
        #expect(espresso.pictures.count == 2)
        #expect(espresso.recipes.map(\.id) == [
            "cafe-latte", "cafe-mocha", "cappuccino", "espresso", "iced-mocha", "latte-macchiato", "tiramisu-jaalatte", "vaniljalatte",
        ])
        #expect(espresso.retailers.map(\.id) == ["cafe-kahvila", "cafe-mansku", "deling-group", "kaisan-kahvitukku"])
        #expect(espresso.body.blocks.contains { if case .list(ordered: true, _) = $0 { true } else { false } })
        #expect(try bundle.product("no-such-product") == nil)
    }

    @Test func recipeListAndDetail() throws {
        let rows = try bundle.recipeRows()
        #expect(rows.count == 13)
        #expect(rows.first?.name == "Café au Lait")
        #expect(rows.last?.name == "Vaniljalatte")
        let latte = try #require(try bundle.recipe("cafe-latte"))
        #expect(latte.ingredients.first == Ingredient(text: "1–2 annosta Café Digno Espressoa", product: "espresso"))
        #expect(latte.products.map(\.id) == ["espresso"])
        #expect(!latte.method.plainText.isEmpty)
        #expect(try bundle.recipe("no-such-recipe") == nil)
    }

    @Test func retailersWithWhatTheySell() throws {
        let rows = try bundle.retailerRows()
        #expect(rows.map(\.id) == ["cafe-kahvila", "cafe-mansku", "deling-group", "kaisan-kahvitukku", "rinsessa"])
        let deling = try #require(rows.first { $0.id == "deling-group" })
        #expect(deling.address == "Sannankatu 12, 00100 Helsinki")
        #expect(deling.sells == ["coffee-beans", "espresso", "ground-coffee"])
        #expect(deling.webAddress == "https://www.delinggroup.com")
        #expect(deling.coordinate == Coordinate(latitude: 60.1699, longitude: 24.9384))
    }

    @Test func companyAndImages() throws {
        let company = try bundle.company()
        #expect(company.webAddress == "https://www.delinggroup.com")
        #expect(company.pictures.count == 2)
        let logo = try #require(try bundle.image(company.logo))
        #expect(logo.mediaType == "image/png")
        #expect(logo.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try bundle.image("0000") == nil)
    }

    @Test func searchIsRankedAccentBlindAndFollowsTyping() throws {
        #expect(try bundle.search("capp").first?.target == .recipe("cappuccino"))
        #expect(try bundle.search("Cappuccino").first?.target == .recipe("cappuccino"))
        let cafe = try bundle.search("cafe")
        #expect(cafe.prefix(7).allSatisfy { $0.name.hasPrefix("Caf") })
        #expect(try bundle.search("jäälatte").first?.target == .recipe("tiramisu-jaalatte"))
        #expect(try bundle.search("mannerheimintie").map(\.target) == [.retailer("cafe-mansku")])
        #expect(try bundle.search("").isEmpty)
        #expect(try bundle.search("  \"*( OR NEAR ) ").isEmpty)  // FTS5 syntax in the input is just text
        #expect(try bundle.search("zzzzqqq").isEmpty)
    }

    @Test func matchQueriesQuoteEveryWord() {
        #expect(BundleQuery<[SearchHit]>.matchQuery("café la") == "\"café\" \"la\"*")
        #expect(BundleQuery<[SearchHit]>.matchQuery("\"x\" OR y*") == "\"x\" \"OR\" \"y\"*")
        #expect(BundleQuery<[SearchHit]>.matchQuery(" - ") == nil)
    }

    @Test func nearestRetailers() throws {
        // Helsinki railway station.
        let nearest = try bundle.retailersNearest(to: Coordinate(latitude: 60.1710, longitude: 24.9414), limit: 2)
        #expect(nearest.map(\.retailer.id) == ["deling-group", "cafe-kahvila"])
        #expect(nearest[0].metres > 100 && nearest[0].metres < 300)
    }
}

/// One bundle read from many threads at once gives every thread the same answers.
@Test func readsAreSafeFromSeveralThreadsAtOnce() throws {
    let bundle = try CatalogBundle(path: BundleFixtures.shipped)
    let expected = try bundle.recipe("cafe-latte")
    let results = ThreadResults()
    DispatchQueue.concurrentPerform(iterations: 64) { index in
        let outcome = Result { () throws(CatalogBundleError) -> Bool in
            switch index % 4 {
            case 0: return try bundle.recipe("cafe-latte") == expected
            case 1: return try bundle.productRows().count == 3
            case 2: return try bundle.search("capp").first?.target == .recipe("cappuccino")
            default: return try bundle.home(on: Day("2026-11-22")!).promotions.count == 1
            }
        }
        results.append((try? outcome.get()) ?? false)
    }
    #expect(results.values.count == 64)
    #expect(results.values.allSatisfy { $0 })
}

final class ThreadResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func append(_ value: Bool) { lock.withLock { stored.append(value) } }
    var values: [Bool] { lock.withLock { stored } }
}

/// Whole-word name matches rank above prefix matches, which rank above text matches.
@Test func searchTiers() throws {
    let bundle = try CatalogBundle(path: BundleFixtures.shipped)
    // "Latte" is a whole word in Café Latte and Latte Macchiato, a prefix of nothing else in a
    // name but Vaniljalatte does not count (no word starts with it there); texts follow.
    let latte = try bundle.search("latte").map(\.target)
    #expect(Array(latte.prefix(2)) == [.recipe("cafe-latte"), .recipe("latte-macchiato")])
    let espresso = try bundle.search("espresso").map(\.target)
    #expect(Array(espresso.prefix(2)) == [.product("espresso"), .recipe("espresso")])
    #expect(espresso.count > 2)  // recipes whose texts mention espresso follow
    #expect(try bundle.search("espresso", limit: 1).map(\.target) == [.product("espresso")])
}
