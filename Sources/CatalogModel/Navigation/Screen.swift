/// Everything a screen shows: the tab bar, the navigation bar, and the content.
public struct Screen: Hashable, Sendable, Codable {
    /// The route of the screen.
    public var route: Route
    /// The tab bar in tab order; the tab of `selectedTab` is the active one.
    public var tabs: [SectionTab]
    /// The navigation bar; nil where none shows (Etusivu, Deling Group).
    public var navigationBar: NavigationBar?
    /// What the screen holds.
    public var content: ScreenContent

    /// A screen from its parts, for previews and tests.
    public init(route: Route, tabs: [SectionTab], navigationBar: NavigationBar?, content: ScreenContent) {
        self.route = route
        self.tabs = tabs
        self.navigationBar = navigationBar
        self.content = content
    }

    /// The active tab: the section of the screen's route.
    public var selectedTab: SectionKind { route.section }
}

extension CatalogBundle {
    /// The screen for a navigation state, with the promotions running on `today`.
    public func screen(for state: NavigationState, today: Day) throws(ScreenError) -> Screen {
        let parts: ScreenParts
        do { parts = try read(.screen(state.current, today: today, textReading)) } catch { throw .bundle(error) }
        return try parts.screen(in: state)
    }

    /// The screen for a navigation state, with the promotions running on `today`.
    public func screen(for state: NavigationState, today: Day) async throws(ScreenError) -> Screen {
        let parts: ScreenParts
        do { parts = try await read(.screen(state.current, today: today, textReading)) } catch { throw .bundle(error) }
        return try parts.screen(in: state)
    }

    /// The screen a route opens, as if the user had followed a link to it from Etusivu.
    public func screen(for route: Route, today: Day) throws(ScreenError) -> Screen {
        var state = NavigationState()
        state.open(route)
        return try screen(for: state, today: today)
    }

    /// The screen a route opens, as if the user had followed a link to it from Etusivu.
    public func screen(for route: Route, today: Day) async throws(ScreenError) -> Screen {
        var state = NavigationState()
        state.open(route)
        return try await screen(for: state, today: today)
    }

    /// The screen a route opens, as `screen(for:today:)` gives it, but for a list (Tuotteet,
    /// Kahvireseptit, Jälleenmyyjät) only the rows at the positions in `rows`, counting from 0 in
    /// list order: a long list shown a page at a time. A range past the end gives no rows.
    public func screen(for route: Route, today: Day, rows: Range<Int>) throws(ScreenError) -> Screen {
        var state = NavigationState()
        state.open(route)
        let parts: ScreenParts
        do { parts = try read(.screen(route, today: today, rows: rows, textReading)) } catch { throw .bundle(error) }
        return try parts.screen(in: state)
    }

    /// The screen a route opens, as `screen(for:today:)` gives it, but for a list (Tuotteet,
    /// Kahvireseptit, Jälleenmyyjät) only the rows at the positions in `rows`, counting from 0 in
    /// list order: a long list shown a page at a time. A range past the end gives no rows.
    public func screen(for route: Route, today: Day, rows: Range<Int>) async throws(ScreenError) -> Screen {
        var state = NavigationState()
        state.open(route)
        let parts: ScreenParts
        do { parts = try await read(.screen(route, today: today, rows: rows, textReading)) } catch { throw .bundle(error) }
        return try parts.screen(in: state)
    }

    /// The content of one route; an unknown product or recipe is a ``RouteError``.
    public func content(of route: Route, today: Day) throws(ScreenError) -> ScreenContent {
        let content: ScreenContent?
        do { content = try read(.content(of: route, today: today, textReading)) } catch { throw .bundle(error) }
        return try ScreenParts.found(content, route)
    }

    /// The content of one route; an unknown product or recipe is a ``RouteError``.
    public func content(of route: Route, today: Day) async throws(ScreenError) -> ScreenContent {
        let content: ScreenContent?
        do { content = try await read(.content(of: route, today: today, textReading)) } catch { throw .bundle(error) }
        return try ScreenParts.found(content, route)
    }
}

/// What one read gives for a screen: the tabs, and the route's content (nil when its product
/// or recipe is not in the bundle).
struct ScreenParts: Sendable {
    var tabs: [SectionTab]
    var content: ScreenContent?

    func screen(in state: NavigationState) throws(ScreenError) -> Screen {
        let titles = Dictionary(tabs.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        return Screen(route: state.current, tabs: tabs, navigationBar: state.navigationBar(titles: titles),
                      content: try Self.found(content, state.current))
    }

    /// The content, or the route's error when there is none.
    static func found(_ content: ScreenContent?, _ route: Route) throws(ScreenError) -> ScreenContent {
        if let content { return content }
        switch route {
        case .product(let id): throw .route(.unknownProduct(id))
        case .recipe(let id): throw .route(.unknownRecipe(id))
        default: throw .route(.unknownPath(route.description))  // every other route always has content
        }
    }
}

extension BundleQuery where Value == ScreenParts {
    /// The tabs and a route's content (a list's rows at the positions in `rows`), from one state
    /// of the file.
    static func screen(_ route: Route, today: Day, rows: Range<Int> = 0..<Int.max, _ reading: TextReading) -> Self {
        Self { db in
            ScreenParts(tabs: try BundleQuery<[SectionTab]>.sections(reading).body(db),
                        content: try BundleQuery<ScreenContent?>.content(of: route, today: today, rows: rows, reading).body(db))
        }
    }
}

/// Why a screen cannot be shown: a bad route, or a bad bundle.
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
