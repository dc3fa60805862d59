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

    /// Parses a route's URL. Checks its form only; `CatalogBundle.screen(for:)` checks that the
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
    public init(url: URL, universalLinkHosts: Set<String> = []) throws(RouteError) {
        guard url.scheme?.lowercased() == "https" else {
            self = try Route(parsing: url.absoluteString)
            return
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host?.lowercased(),
              universalLinkHosts.contains(where: { $0.lowercased() == host }), components.port == nil, components.user == nil else {
            throw .notARoute(url.absoluteString)
        }
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
