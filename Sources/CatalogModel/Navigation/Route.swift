import Foundation

/// A screen of the app, as a deep link: `cafedigno://home`, `cafedigno://products`,
/// `cafedigno://products/espresso`, `cafedigno://recipes`, `cafedigno://recipes/cafe-latte`,
/// `cafedigno://retailers`, `cafedigno://company`. Parsed and printed both ways.
public enum Route: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Etusivu.
    case home
    /// The Tuotteet list.
    case products
    /// A product's detail screen.
    case product(ProductID)
    /// The Kahvireseptit list.
    case recipes
    /// A recipe's detail screen.
    case recipe(RecipeID)
    /// The Jälleenmyyjät list.
    case retailers
    /// The Deling Group screen.
    case company

    /// The URL scheme of the app's routes.
    public static let scheme = "cafedigno"

    /// The section the screen belongs to.
    public var section: SectionKind {
        switch self {
        case .home: .home
        case .products, .product: .products
        case .recipes, .recipe: .recipes
        case .retailers: .retailers
        case .company: .company
        }
    }

    /// The section's own screen: its list, or its only screen.
    public static func root(of section: SectionKind) -> Route {
        switch section {
        case .home: .home
        case .products: .products
        case .recipes: .recipes
        case .retailers: .retailers
        case .company: .company
        }
    }

    /// Whether this is a detail screen (a product or a recipe).
    public var isDetail: Bool {
        switch self {
        case .product, .recipe: true
        default: false
        }
    }

    /// Parses a route's URL. Checks its form only; `CatalogBundle.screen(for:today:)` checks that the
    /// product or recipe exists. The scheme may be in any letter case (`CafeDigno://`), and a
    /// query or fragment (`?utm_source=…`) is ignored.
    public init(parsing text: String) throws(RouteError) {
        let link = text.prefix { $0 != "?" && $0 != "#" }
        let prefix = Self.scheme + "://"
        guard link.count >= prefix.count, link.prefix(prefix.count).lowercased() == prefix else { throw .notARoute(text) }
        var parts = link.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 1, parts.last == "" { parts.removeLast() }  // a trailing slash
        switch (parts.first, parts.count) {
        case ("home", 1): self = .home
        case ("products", 1): self = .products
        case ("recipes", 1): self = .recipes
        case ("retailers", 1): self = .retailers
        case ("company", 1): self = .company
        case ("products", 2) where isValidSlug(parts[1]): self = .product(ProductID(rawValue: parts[1]))
        case ("recipes", 2) where isValidSlug(parts[1]): self = .recipe(RecipeID(rawValue: parts[1]))
        default: throw .unknownPath(text)
        }
    }

    /// The route a URL opens: a deep link (`cafedigno://products/espresso`, as `init(parsing:)`
    /// reads it), or a universal link: `https://` on one of `universalLinkHosts` (the app's
    /// associated domains, such as `www.delinggroup.com`) with a deep link's path, such as
    /// `https://www.delinggroup.com/products/espresso`; `https://www.delinggroup.com/` is Etusivu.
    /// A host's letter case does not matter; a query or fragment is ignored.
    /// A URL the app does not open throws ``RouteError/notOpened(_:_:)`` saying why (its scheme, a
    /// host the app is not associated with, a port, a user name); one on an associated domain
    /// whose path names no screen, `unknownPath`.
    public init(url: URL, universalLinkHosts: Set<String> = []) throws(RouteError) {
        let text = url.absoluteString
        switch url.scheme?.lowercased() {
        case Self.scheme?:
            self = try Route(parsing: text)
            return
        case "https"?: break
        case let other: throw .notOpened(text, .scheme(other ?? ""))
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host?.lowercased(), !host.isEmpty else {
            throw .notOpened(text, .host("", associated: universalLinkHosts.sorted()))
        }
        guard universalLinkHosts.contains(where: { $0.lowercased() == host }) else {
            throw .notOpened(text, .host(host, associated: universalLinkHosts.sorted()))
        }
        if let port = components.port { throw .notOpened(text, .port(port)) }
        guard components.user == nil, components.password == nil else { throw .notOpened(text, .userName) }
        let path = components.percentEncodedPath
        do {
            self = try Route(parsing: Self.scheme + "://" + (path == "" || path == "/" ? "home" : String(path.dropFirst())))
        } catch {
            throw .unknownPath(url.absoluteString)
        }
    }

    /// The route's URL.
    public var description: String {
        let path = switch self {
        case .home: "home"
        case .products: "products"
        case .product(let id): "products/\(id.rawValue)"
        case .recipes: "recipes"
        case .recipe(let id): "recipes/\(id.rawValue)"
        case .retailers: "retailers"
        case .company: "company"
        }
        return Self.scheme + "://" + path
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = try Route(parsing: try container.decode(String.self))
        } catch let error as RouteError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a route cannot be shown.
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a `cafedigno://` URL.
    case notARoute(String)
    /// A `cafedigno://` URL naming no screen.
    case unknownPath(String)
    /// A product route whose product is not in the bundle.
    case unknownProduct(ProductID)
    /// A recipe route whose recipe is not in the bundle.
    case unknownRecipe(RecipeID)
    /// A URL that `Route(url:universalLinkHosts:)` does not open, and why.
    case notOpened(String, LinkRefusal)
    /// A route that a section's path cannot hold (`NavigationState.setPath(_:in:)`): a list,
    /// or another section's screen.
    case notInPath(Route, section: SectionKind)

    /// Why a URL is not one of the app's links.
    public enum LinkRefusal: Equatable, Sendable {
        /// Neither `cafedigno` nor `https` (`http` included: universal links are `https`).
        case scheme(String)
        /// An `https` host that is not one of the app's associated domains, which are given.
        case host(String, associated: [String])
        /// A port named: universal links are served on HTTPS's own.
        case port(Int)
        /// A user name or password before the host.
        case userName
    }

    /// A message for a person.
    public var description: String {
        switch self {
        case .notARoute(let text):
            "'\(text)' is not a Café Digno route; routes start with cafedigno://"
        case .unknownPath(let text):
            "'\(text)' names no screen; use cafedigno://home, products, products/<id>, recipes, recipes/<id>, retailers or company"
        case .unknownProduct(let id):
            "there is no product '\(id.rawValue)' in this bundle"
        case .unknownRecipe(let id):
            "there is no recipe '\(id.rawValue)' in this bundle"
        case .notOpened(let text, .scheme(let scheme)):
            "'\(text)' is not a Café Digno link: its scheme is \(scheme.isEmpty ? "missing" : scheme); the app opens cafedigno:// links and https:// links on its associated domains"
        case .notOpened(let text, .host(let host, let associated)):
            "'\(text)' is on \(host.isEmpty ? "no host" : host), which is not one of the app's associated domains "
                + (associated.isEmpty ? "(none is given: pass them as universalLinkHosts)" : "(\(associated.joined(separator: ", ")))")
        case .notOpened(let text, .port(let port)):
            "'\(text)' names port \(port); universal links use HTTPS's own port: remove :\(port)"
        case .notOpened(let text, .userName):
            "'\(text)' carries a user name before its host, which no link of the app's has"
        case .notInPath(let route, let section) where !route.isDetail:
            "\(route) is a section's own screen, not a detail screen: the \(section.rawValue) path holds detail screens only; open(_:) or select(_:) shows it"
        case .notInPath(let route, let section):
            "\(route) is a screen of the \(route.section.rawValue) section, not of \(section.rawValue): its path cannot hold it; open(_:) shows it in its own tab"
        }
    }
}

extension Route {
    /// The detail screen a link opens: a link in rich text, or a promotion's.
    public init(_ link: LinkTarget) {
        switch link {
        case .product(let id): self = .product(id)
        case .recipe(let id): self = .recipe(id)
        }
    }

    /// The screen a search result opens: a product's or a recipe's detail screen, or for a
    /// retailer, which has no detail screen, the Jälleenmyyjät list (where the app shows its row).
    public init(_ target: SearchTarget) {
        switch target {
        case .product(let id): self = .product(id)
        case .recipe(let id): self = .recipe(id)
        case .retailer: self = .retailers
        }
    }
}
