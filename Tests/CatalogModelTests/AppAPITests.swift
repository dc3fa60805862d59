import CatalogModel
import Foundation
import Testing

/// What an app builds on: routes from links and search results, the `async` calls, records
/// made by hand for previews, and ids as plain strings in JSON.
@Suite struct AppAPITests {
    let bundle: CatalogBundle
    let today = Day("2026-11-22")!

    init() throws {
        bundle = try CatalogBundle(path: BundleFixtures.shipped)
    }

    @Test func everyLinkOpensItsScreen() throws {
        var links: [LinkTarget] = try bundle.home(on: today).promotions.compactMap(\.link)
        for row in try bundle.productRows() { links += try #require(try bundle.product(row.id)).body.links }
        for row in try bundle.recipeRows() { links += try #require(try bundle.recipe(row.id)).method.links }
        #expect(links.count > 5)
        for link in links {
            let screen = try bundle.screen(for: Route(link), today: today)
            switch (link, screen.content) {
            case (.product(let id), .product(let detail)): #expect(detail.id == id)
            case (.recipe(let id), .recipe(let detail)): #expect(detail.id == id)
            default: Issue.record("\(link) opened \(screen.route)")
            }
        }
    }

    @Test func everySearchResultOpensItsScreen() throws {
        let hits = try bundle.search("a", limit: 500)
        #expect(Set(hits.map { Route($0.target).section }) == [.products, .recipes, .retailers])
        for hit in hits {
            let screen = try bundle.screen(for: Route(hit.target), today: today)
            switch (hit.target, screen.content) {
            case (.product(let id), .product(let detail)): #expect(detail.id == id && detail.name == hit.name)
            case (.recipe(let id), .recipe(let detail)): #expect(detail.id == id && detail.name == hit.name)
            case (.retailer(let id), .retailerList(let rows)): #expect(rows.first { $0.id == id }?.name == hit.name)
            default: Issue.record("\(hit.target) opened \(screen.route)")
            }
        }
    }

    @Test func asyncCallsGiveWhatTheSynchronousOnesGive() async throws {
        let routes: [Route] = try {
            try [.home, .products, .recipes, .retailers, .company] + bundle.productRows().map { .product($0.id) }
                + bundle.recipeRows().map { .recipe($0.id) }
        }()
        #expect(routes.count == 21)
        for route in routes {
            let synchronous: Screen = try { try bundle.screen(for: route, today: today) }()
            #expect(try await bundle.screen(for: route, today: today) == synchronous)
            #expect(try await bundle.content(of: route, today: today) == synchronous.content)
        }
        #expect(try await bundle.sections() == (try { try bundle.sections() }()))
        #expect(try await bundle.search("es") == (try { try bundle.search("es") }()))
        let helsinki = Coordinate(latitude: 60.17, longitude: 24.94)
        #expect(try await bundle.retailersNearest(to: helsinki) == (try { try bundle.retailersNearest(to: helsinki) }()))
        let logo = try await bundle.company().logo
        #expect(try await bundle.image(logo)?.id == logo)
        await #expect(throws: ScreenError.route(.unknownProduct("no-such-product"))) {
            try await bundle.screen(for: .product("no-such-product"), today: today)
        }
    }

    @Test func recordsMadeByHandForAPreview() throws {
        let icon: ImageID = "0000000000000000000000000000000000000000000000000000000000000000"
        let tabs = SectionKind.allCases.map { SectionTab(id: $0, title: $0.rawValue, icon: icon) }
        let row = ProductRow(id: "espresso", name: "Espresso", summary: "Tumma paahto", icon: icon)
        let screen = Screen(route: .products, tabs: tabs, navigationBar: NavigationBar(title: "Tuotteet", backButton: nil),
                            content: .productList([row]))
        #expect(screen.selectedTab == .products)
        let json = try JSONEncoder().encode(screen)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let shownTabs = try #require(object["tabs"] as? [[String: Any]])
        #expect(shownTabs.map { $0["selected"] as? Bool } == [false, true, false, false, false])
        #expect(try JSONDecoder().decode(Screen.self, from: json) == screen)
    }

    @Test func idsAreTheirStrings() throws {
        let id: ProductID = "espresso"
        #expect(id.rawValue == "espresso" && id.description == "espresso" && ProductID("espresso") == id)
        #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == #"["espresso"]"#)
        #expect(try JSONDecoder().decode([RecipeID].self, from: Data(#"["cafe-latte"]"#.utf8)) == ["cafe-latte"])
        #expect([ProductID("b"), "a"].sorted() == ["a", "b"])
    }
}
