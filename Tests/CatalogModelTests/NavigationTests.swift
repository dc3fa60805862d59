import CatalogModel
import Foundation
import Testing

/// The tab-section navigation model, over the bundle built from `content/`.
@Suite struct NavigationTests {
    let bundle: CatalogBundle
    let today = Day("2026-11-22")!

    init() throws {
        bundle = try CatalogBundle(path: BundleFixtures.shipped)
    }

    func screen(_ state: NavigationState) throws -> Screen {
        try bundle.screen(for: state, today: today)
    }

    /// The thesis' user test (appendix 1, steps 3–10) as one walk through the app.
    @Test func theThesisUserTest() throws {
        // The app starts on Etusivu, with no navigation bar.
        var state = NavigationState()
        var shown = try screen(state)
        #expect(shown.route == .home)
        #expect(shown.navigationBar == nil)
        #expect(shown.tabs.map { $0.id == shown.selectedTab } == [true, false, false, false, false])
        guard case .home(let home) = shown.content else { Issue.record("not the home screen"); return }
        #expect(home.promotions.count == 1)

        // 3. Tuotteet: the list, a product, back with the bar's button.
        state.select(.products)
        shown = try screen(state)
        #expect(shown.navigationBar == NavigationBar(title: "Tuotteet", backButton: nil))
        guard case .productList(let products) = shown.content else { Issue.record("not the product list"); return }
        state.open(.product(products[1].id))
        shown = try screen(state)
        #expect(shown.route == .product("espresso"))
        #expect(shown.navigationBar == NavigationBar(title: nil, backButton: "Tuotteet"))
        guard case .product(let espresso) = shown.content else { Issue.record("not a product"); return }
        #expect(espresso.name == "Espresso")
        state.back()
        #expect(try screen(state).route == .products)

        // 4. Kahvireseptit: a recipe, back, another recipe, then the Kahvireseptit tab again.
        state.select(.recipes)
        shown = try screen(state)
        #expect(shown.navigationBar == NavigationBar(title: "Kahvireseptit", backButton: nil))
        guard case .recipeList(let recipes) = shown.content else { Issue.record("not the recipe list"); return }
        state.open(.recipe(recipes[2].id))
        #expect(try screen(state).navigationBar == NavigationBar(title: nil, backButton: "Kahvireseptit"))
        state.back()
        #expect(state.current == .recipes)
        state.open(.recipe(recipes[5].id))
        guard case .recipe(let recipe) = try screen(state).content else { Issue.record("not a recipe"); return }
        #expect(recipe.id == recipes[5].id)
        state.select(.recipes)
        #expect(state.current == .recipes)

        // 5. Jälleenmyyjät: one list, with a bar.
        state.select(.retailers)
        shown = try screen(state)
        #expect(shown.navigationBar == NavigationBar(title: "Jälleenmyyjät", backButton: nil))
        guard case .retailerList(let retailers) = shown.content else { Issue.record("not the retailer list"); return }
        #expect(retailers.count == 5)

        // 6. Deling Group: no bar.
        state.select(.company)
        shown = try screen(state)
        #expect(shown.navigationBar == nil)
        guard case .company(let company) = shown.content else { Issue.record("not the company screen"); return }
        #expect(company.webAddress == "https://www.delinggroup.com")

        // 7. Etusivu again.
        state.select(.home)
        #expect(try screen(state).route == .home)

        // 8–9. Suspended and resumed: the state survives encoding.
        state.select(.recipes)
        state.open(.recipe("cappuccino"))
        let saved = try JSONEncoder().encode(state)
        let restored = try JSONDecoder().decode(NavigationState.self, from: saved)
        #expect(restored == state)
        #expect(try screen(restored) == screen(state))
        // 10. A fresh launch starts on Etusivu.
        #expect(NavigationState().current == .home)
    }

    @Test func eachSectionKeepsItsPlace() {
        var state = NavigationState()
        state.select(.products)
        state.open(.product("espresso"))
        state.select(.recipes)
        state.open(.recipe("cafe-latte"))
        state.select(.products)
        #expect(state.current == .product("espresso"))
        state.select(.recipes)
        #expect(state.current == .recipe("cafe-latte"))
        state.select(.recipes)  // the active tab again: back to its list
        #expect(state.current == .recipes)
        state.back()  // nothing to go back to
        #expect(state.current == .recipes)
    }

    @Test func linksFromElsewhereSwitchSectionAndBackLeadsToTheList() {
        var state = NavigationState()
        state.open(.product("coffee-beans"))  // the home promotion
        #expect(state.selected == .products)
        #expect(state.current == .product("coffee-beans"))
        state.open(.recipe("pressokahvi"))  // a link in the product text
        #expect(state.selected == .recipes)
        state.open(.recipe("espresso"))  // a link from one recipe to another
        state.back()
        #expect(state.current == .recipe("pressokahvi"))
        state.back()
        #expect(state.current == .recipes)
        state.select(.products)
        #expect(state.current == .product("coffee-beans"))
    }

    @Test func navigationBarRules() {
        let titles: [SectionKind: String] = [.home: "Etusivu", .products: "Tuotteet", .recipes: "Kahvireseptit", .retailers: "Jälleenmyyjät", .company: "Deling Group"]
        var state = NavigationState()
        for (section, bar) in [
            (SectionKind.home, nil), (.products, NavigationBar(title: "Tuotteet", backButton: nil)),
            (.recipes, NavigationBar(title: "Kahvireseptit", backButton: nil)),
            (.retailers, NavigationBar(title: "Jälleenmyyjät", backButton: nil)), (.company, nil),
        ] as [(SectionKind, NavigationBar?)] {
            state.select(section)
            #expect(state.navigationBar(titles: titles) == bar)
        }
        state.open(.product("espresso"))
        #expect(state.navigationBar(titles: titles) == NavigationBar(title: nil, backButton: "Tuotteet"))
        state.open(.recipe("cafe-latte"))
        #expect(state.navigationBar(titles: titles) == NavigationBar(title: nil, backButton: "Kahvireseptit"))
    }

    @Test func everyEntityHasARouteThatRoundTrips() throws {
        var routes: [Route] = [.home, .products, .recipes, .retailers, .company]
        routes += try bundle.productRows().map { .product($0.id) }
        routes += try bundle.recipeRows().map { .recipe($0.id) }
        #expect(routes.count == 5 + 3 + 13)
        for route in routes {
            #expect(try Route(parsing: route.description) == route)
            let shown = try bundle.screen(for: route, today: today)
            #expect(shown.route == route)
            #expect(shown.tabs.contains { $0.id == shown.selectedTab } && shown.selectedTab == route.section)
        }
        #expect(Route.product("espresso").description == "cafedigno://products/espresso")
        #expect(Route.recipe("cafe-latte").description == "cafedigno://recipes/cafe-latte")
    }

    @Test func badRoutesAreTypedErrors() throws {
        #expect(throws: RouteError.notARoute("https://example.com")) { try Route(parsing: "https://example.com") }
        #expect(throws: RouteError.unknownPath("cafedigno://shop")) { try Route(parsing: "cafedigno://shop") }
        #expect(throws: RouteError.unknownPath("cafedigno://products/Espresso")) { try Route(parsing: "cafedigno://products/Espresso") }
        #expect(throws: RouteError.unknownPath("cafedigno://retailers/rinsessa")) { try Route(parsing: "cafedigno://retailers/rinsessa") }
        #expect(try Route(parsing: "cafedigno://products/") == .products)
        // The scheme in any case, and a query or fragment, as links from campaigns come.
        #expect(try Route(parsing: "CafeDigno://recipes/cafe-latte") == .recipe("cafe-latte"))
        #expect(try Route(parsing: "cafedigno://products/espresso?utm_source=newsletter&utm_medium=email") == .product("espresso"))
        #expect(try Route(parsing: "cafedigno://company#top") == .company)
        #expect(throws: RouteError.notARoute("cafedigno:/products")) { try Route(parsing: "cafedigno:/products") }
        #expect(throws: ScreenError.route(.unknownProduct("mocha"))) { try bundle.screen(for: .product("mocha"), today: today) }
        #expect(throws: ScreenError.route(.unknownRecipe("mocha"))) { try bundle.screen(for: .recipe("mocha"), today: today) }
        #expect(RouteError.unknownProduct("mocha").description == "there is no product 'mocha' in this bundle")
    }

    @Test func aURLOpensItsRouteFromADeepLinkOrAUniversalLink() throws {
        let hosts: Set<String> = ["www.delinggroup.com"]
        let links: [(String, Route)] = [
            ("cafedigno://products/espresso", .product("espresso")),
            ("CAFEDIGNO://retailers?utm_source=qr", .retailers),
            ("https://www.delinggroup.com/recipes/cafe-latte", .recipe("cafe-latte")),
            ("https://WWW.DelingGroup.com/products?utm_campaign=autumn#list", .products),
            ("https://www.delinggroup.com/", .home),
            ("https://www.delinggroup.com", .home),
            ("HTTPS://www.delinggroup.com/company/", .company),
        ]
        for (text, route) in links {
            #expect(try Route(url: try #require(URL(string: text)), universalLinkHosts: hosts) == route, "\(text)")
        }
        // Another host, another port, http, a user name: each refusal says why.
        let refused: [(String, RouteError.LinkRefusal, String)] = [
            ("https://evil.example/products/espresso", .host("evil.example", associated: ["www.delinggroup.com"]),
             "'https://evil.example/products/espresso' is on evil.example, which is not one of the app's associated domains (www.delinggroup.com)"),
            ("https://www.delinggroup.com:8443/products", .port(8443),
             "'https://www.delinggroup.com:8443/products' names port 8443; universal links use HTTPS's own port: remove :8443"),
            ("http://www.delinggroup.com/products", .scheme("http"),
             "'http://www.delinggroup.com/products' is not a Café Digno link: its scheme is http; the app opens cafedigno:// links and https:// links on its associated domains"),
            ("https://user@www.delinggroup.com/products", .userName,
             "'https://user@www.delinggroup.com/products' carries a user name before its host, which no link of the app's has"),
        ]
        for (text, why, message) in refused {
            #expect(throws: RouteError.notOpened(text, why)) { try Route(url: try #require(URL(string: text)), universalLinkHosts: hosts) }
            #expect(RouteError.notOpened(text, why).description == message)
        }
        // On an associated domain, a path that names no screen, or an encoded one.
        for text in ["https://www.delinggroup.com/shop", "https://www.delinggroup.com/products/esp%72esso"] {
            #expect(throws: RouteError.unknownPath(text)) { try Route(url: try #require(URL(string: text)), universalLinkHosts: hosts) }
        }
        // With no hosts given, no universal link is an app's, and the message says where they go.
        let unassociated = RouteError.notOpened("https://www.delinggroup.com/products", .host("www.delinggroup.com", associated: []))
        #expect(throws: unassociated) { try Route(url: try #require(URL(string: "https://www.delinggroup.com/products"))) }
        #expect(unassociated.description.hasSuffix("(none is given: pass them as universalLinkHosts)"))
    }

    /// Through key paths, as SwiftUI's bindings (`$state.selection`, `$state[path: .products]`)
    /// write to it.
    @Test func tabViewAndNavigationStackBindToTheState() {
        var state = NavigationState()
        let selection: WritableKeyPath<NavigationState, SectionKind> = \.selection
        let products: WritableKeyPath<NavigationState, [Route]> = \.[path: .products]
        let recipes: WritableKeyPath<NavigationState, [Route]> = \.[path: .recipes]

        state[keyPath: selection] = .products
        state[keyPath: products].append(.product("espresso"))  // NavigationLink(value:)
        #expect(state.current == .product("espresso"))
        #expect(state.navigationBar(titles: [.products: "Tuotteet"]) == NavigationBar(title: nil, backButton: "Tuotteet"))
        state[keyPath: selection] = .recipes
        state[keyPath: recipes] = [.recipe("cafe-latte"), .recipe("cappuccino")]
        state[keyPath: recipes].removeLast()  // the back button
        #expect(state.current == .recipe("cafe-latte"))
        state[keyPath: selection] = .products  // each section kept its place
        #expect(state.current == .product("espresso"))
        state[keyPath: selection] = .products  // the active tab again: its list
        #expect(state.current == .products && state[keyPath: products].isEmpty)

        // A link from a product to a recipe pushed on the products stack opens in Kahvireseptit,
        // straight over its list, as open(_:) does; a list pushed opens its tab.
        state[keyPath: products] = [.product("espresso"), .recipe("espresso-tonic")]
        #expect(state.selected == .recipes && state.current == .recipe("espresso-tonic"))
        #expect(state[keyPath: products] == [.product("espresso")])
        #expect(state[keyPath: recipes] == [.recipe("espresso-tonic")])
        state[keyPath: recipes].append(.retailers)
        #expect(state.selected == .retailers && state.current == .retailers)
        #expect(state[keyPath: recipes] == [.recipe("espresso-tonic")])
        // Several foreign routes at once: each opened in turn, as open(_:) opens it.
        state[keyPath: products] = [.product("espresso"), .recipe("cappuccino"), .recipe("cafe-latte")]
        #expect(state.selected == .recipes && state[keyPath: recipes] == [.recipe("cappuccino"), .recipe("cafe-latte")])
        // The documented case: a recipe after a product opens over the recipe list, as a link
        // from a product to a recipe does; the recipe before them is not kept under it.
        state[keyPath: recipes] = [.recipe("cafe-latte"), .product("espresso"), .recipe("espresso")]
        #expect(state.selected == .recipes && state[keyPath: recipes] == [.recipe("espresso")])
        #expect(state[keyPath: products] == [.product("espresso")])
    }

    /// A path set whole is refused, naming the route and why, when its section cannot hold it;
    /// nothing changes then.
    @Test func aPathThatItsSectionCannotHoldIsRefusedWithItsReason() throws {
        var state = NavigationState()
        try state.setPath([.recipe("cafe-latte"), .recipe("cappuccino")], in: .recipes)
        #expect(state.selected == .recipes && state.current == .recipe("cappuccino"))
        let before = state
        #expect(throws: RouteError.notInPath(.recipe("cafe-latte"), section: .products)) {
            try state.setPath([.product("espresso"), .recipe("cafe-latte")], in: .products)
        }
        #expect(throws: RouteError.notInPath(.products, section: .products)) { try state.setPath([.products], in: .products) }
        #expect(state == before)
        #expect(RouteError.notInPath(.recipe("cafe-latte"), section: .products).description
            == "cafedigno://recipes/cafe-latte is a screen of the recipes section, not of products: its path cannot hold it; open(_:) shows it in its own tab")
        #expect(RouteError.notInPath(.products, section: .products).description
            == "cafedigno://products is a section's own screen, not a detail screen: the products path holds detail screens only; open(_:) or select(_:) shows it")
        try state.setPath([], in: .recipes)
        #expect(state.current == .recipes)
    }
}
