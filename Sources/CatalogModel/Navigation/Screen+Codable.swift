// Screens encode with explicit nulls and a `kind` for their content, so that the JSON a
// client or `digno show --format json` sees always has the same keys:
// {"route": …, "tabs": [{"id", "title", "icon", "languages", "selected"}], "navigationBar": null or
//  {"title": string or null, "backButton": string or null}, "screen": {"kind": …, …}}.

extension Screen {
    private enum Key: String, CodingKey {
        case route, tabs, navigationBar, screen
    }

    /// A tab as the JSON writes it: with whether it is the active one.
    private struct TabEntry: Codable {
        var id: SectionKind
        var title: String
        var icon: ImageID
        var languages: TextLanguages
        var selected: Bool
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        route = try container.decode(Route.self, forKey: .route)
        tabs = try container.decode([TabEntry].self, forKey: .tabs).map {
            SectionTab(id: $0.id, title: $0.title, icon: $0.icon, languages: $0.languages)
        }
        navigationBar = try container.decodeIfPresent(NavigationBar.self, forKey: .navigationBar)
        content = try container.decode(ScreenContent.self, forKey: .screen)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(route, forKey: .route)
        try container.encode(tabs.map { TabEntry(id: $0.id, title: $0.title, icon: $0.icon, languages: $0.languages, selected: $0.id == selectedTab) }, forKey: .tabs)
        try container.encode(navigationBar, forKey: .navigationBar)  // null when none shows
        try container.encode(content, forKey: .screen)
    }
}

extension NavigationBar {
    private enum Key: String, CodingKey {
        case title, backButton
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(title: try container.decodeIfPresent(String.self, forKey: .title),
                  backButton: try container.decodeIfPresent(String.self, forKey: .backButton))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(title, forKey: .title)
        try container.encode(backButton, forKey: .backButton)
    }
}

extension ScreenContent {
    private enum Key: String, CodingKey {
        case kind, rows
    }

    private enum Kind: String, Codable {
        case home, productList, product, recipeList, recipe, retailerList, company
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .home: self = .home(try HomeScreen(from: decoder))
        case .productList: self = .productList(try container.decode([ProductRow].self, forKey: .rows))
        case .product: self = .product(try ProductDetail(from: decoder))
        case .recipeList: self = .recipeList(try container.decode([RecipeRow].self, forKey: .rows))
        case .recipe: self = .recipe(try RecipeDetail(from: decoder))
        case .retailerList: self = .retailerList(try container.decode([RetailerRow].self, forKey: .rows))
        case .company: self = .company(try CompanyScreen(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .home(let screen):
            try container.encode(Kind.home, forKey: .kind)
            try screen.encode(to: encoder)
        case .productList(let rows):
            try container.encode(Kind.productList, forKey: .kind)
            try container.encode(rows, forKey: .rows)
        case .product(let detail):
            try container.encode(Kind.product, forKey: .kind)
            try detail.encode(to: encoder)
        case .recipeList(let rows):
            try container.encode(Kind.recipeList, forKey: .kind)
            try container.encode(rows, forKey: .rows)
        case .recipe(let detail):
            try container.encode(Kind.recipe, forKey: .kind)
            try detail.encode(to: encoder)
        case .retailerList(let rows):
            try container.encode(Kind.retailerList, forKey: .kind)
            try container.encode(rows, forKey: .rows)
        case .company(let screen):
            try container.encode(Kind.company, forKey: .kind)
            try screen.encode(to: encoder)
        }
    }
}
