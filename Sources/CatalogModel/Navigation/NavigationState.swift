/// Where the user is in the app: the selected tab, and for each section the detail screens
/// open on top of its list. A value type with no UI framework: the app's views bind to it, and
/// it is `Codable` so the app restores it after being suspended.
///
/// The rules (original specification, chapter 3.3): the app starts on Etusivu; each section
/// keeps its own place when the user switches tabs; choosing the active tab again returns to
/// its list; a detail screen's back button returns to the list.
public struct NavigationState: Hashable, Sendable, Codable {
    /// The selected tab.
    public private(set) var selected: SectionKind
    /// The detail screens open in each section, bottom first; empty means the section's own
    /// screen (its list).
    public private(set) var stacks: [SectionKind: [Route]]

    /// The start: Etusivu, nothing open anywhere.
    public init() {
        selected = .home
        stacks = [:]
    }

    /// The screen showing now.
    public var current: Route {
        stacks[selected]?.last ?? .root(of: selected)
    }

    /// Chooses a tab. Choosing the active tab again returns to its list; another tab shows the
    /// place that section was left at.
    public mutating func select(_ section: SectionKind) {
        if section == selected {
            stacks[section] = nil
        } else {
            selected = section
        }
    }

    /// Opens a screen. A section's own screen selects its tab at its list. A product or recipe
    /// opens in its section: on top of the current detail when followed from a screen of the
    /// same section (a link in a recipe to another recipe), otherwise straight over the list
    /// (a home promotion, a link from a product to a recipe), so that back leads to the list.
    public mutating func open(_ route: Route) {
        let section = route.section
        guard route.isDetail else {
            selected = section
            stacks[section] = nil
            return
        }
        if section == selected, let stack = stacks[section], !stack.isEmpty {
            if stack.last != route { stacks[section] = stack + [route] }
        } else {
            stacks[section] = [route]
        }
        selected = section
    }

    /// Goes back one screen in the selected section; nothing happens on a section's own screen.
    public mutating func back() {
        guard var stack = stacks[selected], !stack.isEmpty else { return }
        stack.removeLast()
        stacks[selected] = stack.isEmpty ? nil : stack
    }

    /// The selected tab, for `TabView(selection: $state.selection)`. Setting it is
    /// `select(_:)`: the active tab chosen again returns to its list.
    public var selection: SectionKind {
        get { selected }
        set { select(newValue) }
    }

    /// A section's detail screens as a `NavigationStack`'s path, bottom first:
    /// `NavigationStack(path: $state[path: .recipes])` with `navigationDestination(for: Route.self)`.
    /// A stack pops by shortening it and pushes by appending a route (`NavigationLink(value:)`).
    /// The routes up to the first that is not a detail screen of this section become its stack;
    /// that route and each after it are opened in order, as `open(_:)` opens them, so that the
    /// app's one rule holds whichever way a view navigates: a screen of another section opens in
    /// its own tab, straight over its list, and a detail screen then pushes onto it only when
    /// its section is the one shown. Setting `[path: .recipes]` to `[latte, espresso (the
    /// product), espresso (the recipe)]` keeps Kahvireseptit's `latte` only until the product
    /// opens Tuotteet at `[espresso]`; the recipe, opened from there, then opens Kahvireseptit
    /// at `[espresso]` over its list, and Kahvireseptit is shown: `latte` is not kept under it,
    /// as a link from a product to a recipe never is. To set a path that must stay in its
    /// section, or be told why not, use `setPath(_:in:)`.
    public subscript(path section: SectionKind) -> [Route] {
        get { stacks[section] ?? [] }
        set {
            let kept = newValue.prefix { $0.section == section && $0.isDetail }
            stacks[section] = kept.isEmpty ? nil : Array(kept)
            for route in newValue.dropFirst(kept.count) { open(route) }
        }
    }

    /// Sets a section's detail screens, bottom first (a place restored from a link or a
    /// notification), and selects its tab. Refused with ``RouteError/notInPath(_:section:)``, and nothing
    /// changed, when a route is not one of this section's detail screens: a list, or another
    /// section's screen (which `open(_:)` shows in its own tab).
    public mutating func setPath(_ routes: [Route], in section: SectionKind) throws(RouteError) {
        if let foreign = routes.first(where: { $0.section != section || !$0.isDetail }) { throw .notInPath(foreign, section: section) }
        stacks[section] = routes.isEmpty ? nil : routes
        selected = section
    }

    /// Whether the navigation bar shows: only in Tuotteet, Kahvireseptit and Jälleenmyyjät.
    public var showsNavigationBar: Bool {
        selected == .products || selected == .recipes || selected == .retailers
    }

    /// The navigation bar for the current screen, given the tab titles: on a list its title is
    /// the section's title; on a detail screen its back button is labelled with it. Nil where no
    /// bar shows.
    public func navigationBar(titles: [SectionKind: String]) -> NavigationBar? {
        guard showsNavigationBar else { return nil }
        let title = titles[selected] ?? selected.rawValue
        return current.isDetail ? NavigationBar(title: nil, backButton: title) : NavigationBar(title: title, backButton: nil)
    }
}

/// What the navigation bar shows.
public struct NavigationBar: Hashable, Sendable, Codable {
    /// The title, on a list screen.
    public var title: String?
    /// The back button's label, on a detail screen.
    public var backButton: String?

    /// A bar with a title (list screens) or a back button (detail screens).
    public init(title: String?, backButton: String?) {
        self.title = title
        self.backButton = backButton
    }
}

extension SectionKind: CodingKeyRepresentable {}
