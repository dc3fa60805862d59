/// Everything a screen shows: the tab bar, the navigation bar, and the content.
public struct Screen: Hashable, Sendable, Codable {
    /// The route of the screen.
    public var route: Route
    /// The tab bar in tab order, with the selected tab marked.
    public var tabs: [Tab]
    /// The navigation bar; nil where none shows (Etusivu, Deling Group).
    public var navigationBar: NavigationBar?
    /// What the screen holds.
    public var content: ScreenContent

    /// A tab of the tab bar.
    public struct Tab: Hashable, Sendable, Codable {
        /// The section it opens.
        public var id: SectionKind
        /// Its title.
        public var title: String
        /// Its icon.
        public var icon: ImageID
        /// Whether it is the active tab.
        public var selected: Bool
    }
}

/// The content of a screen.
public enum ScreenContent: Hashable, Sendable, Codable {
    case home(HomeScreen)
    case productList([ProductRow])
    case product(ProductDetail)
    case recipeList([RecipeRow])
    case recipe(RecipeDetail)
    case retailerList([RetailerRow])
    case company(CompanyScreen)
}

extension CatalogBundle {
    /// The screen for a navigation state, with the promotions running on `today`.
    public func screen(for state: NavigationState, today: Day) throws(ScreenError) -> Screen {
        let tabs: [SectionTab]
        do { tabs = try sections() } catch { throw .bundle(error) }
        let titles = Dictionary(tabs.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        let route = state.current
        return Screen(
            route: route,
            tabs: tabs.map { Screen.Tab(id: $0.id, title: $0.title, icon: $0.icon, selected: $0.id == state.selected) },
            navigationBar: state.navigationBar(titles: titles),
            content: try content(of: route, today: today))
    }

    /// The screen a route opens, as if the user had followed a link to it from Etusivu.
    public func screen(for route: Route, today: Day) throws(ScreenError) -> Screen {
        var state = NavigationState()
        state.open(route)
        return try screen(for: state, today: today)
    }

    /// The content of one route; an unknown product or recipe is a `RouteError`.
    public func content(of route: Route, today: Day) throws(ScreenError) -> ScreenContent {
        do {
            switch route {
            case .home: return .home(try home(on: today))
            case .products: return .productList(try productRows())
            case .product(let id):
                guard let detail = try product(id) else { throw ScreenError.route(.unknownProduct(id)) }
                return .product(detail)
            case .recipes: return .recipeList(try recipeRows())
            case .recipe(let id):
                guard let detail = try recipe(id) else { throw ScreenError.route(.unknownRecipe(id)) }
                return .recipe(detail)
            case .retailers: return .retailerList(try retailerRows())
            case .company: return .company(try company())
            }
        } catch let error as ScreenError {
            throw error
        } catch let error as CatalogBundleError {
            throw .bundle(error)
        } catch {
            throw .bundle(.damaged(path: path, reason: "\(error)"))
        }
    }
}

/// Why a screen cannot be shown: a bad route, or a bad bundle.
public enum ScreenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The route names no screen, or an unknown product or recipe.
    case route(RouteError)
    /// The bundle could not be read.
    case bundle(CatalogBundleError)

    /// A message for a person.
    public var description: String {
        switch self {
        case .route(let error): error.description
        case .bundle(let error): error.description
        }
    }
}
