import GRDB

/// A search result; identified by what it opens (a search lists each entity once).
public struct SearchHit: Hashable, Identifiable, Sendable, Codable {
    /// What it is and which.
    public var target: SearchTarget
    /// Its name.
    public var name: String
    /// Its short description (empty for retailers).
    public var summary: String
    /// The language of `name` and `summary`.
    public var languages: TextLanguages

    /// A search result from its parts, for previews and tests.
    public init(target: SearchTarget, name: String, summary: String, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.target = target
        self.name = name
        self.summary = summary
        self.languages = languages
    }

    /// What it opens, for `ForEach` and `List`.
    public var id: SearchTarget { target }
}

/// What a search result opens. `Route(target)` is the screen to show.
public enum SearchTarget: Hashable, Sendable, Codable {
    /// A product's detail screen.
    case product(ProductID)
    /// A recipe's detail screen.
    case recipe(RecipeID)
    /// A retailer's row in the Jälleenmyyjät list.
    case retailer(RetailerID)
}

extension SearchHit {
    /// From a row of the search query: `kind`, `entity_id`, and `name` and `summary` read
    /// through `TranslatedTexts`.
    package init(row: Row, reading: TextReading) throws {
        let id = try row.slug("entity_id")
        let target: SearchTarget
        switch try row.value("kind", as: String.self) {
        case "product": target = .product(ProductID(rawValue: id))
        case "recipe": target = .recipe(RecipeID(rawValue: id))
        case "retailer": target = .retailer(RetailerID(rawValue: id))
        case let kind: throw BundleValueError(column: "kind", problem: "'\(Row.excerpt(kind))', not product, recipe or retailer")
        }
        // A retailer's name is the same in every language, and it has no summary.
        let languages = if case .retailer = target { TextLanguages(language: reading.language) } else {
            try reading.languages(row, [.name, .summary])
        }
        self.init(target: target, name: try row.nonEmptyText("name"), summary: try row.value("summary"), languages: languages)
    }
}
