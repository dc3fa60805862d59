import GRDB

/// The Etusivu screen.
public struct HomeScreen: Hashable, Sendable, Codable {
    /// The Café Digno logo.
    public var logo: ImageID
    /// The promotional picture.
    public var picture: Picture
    /// The text about the range.
    public var body: RichText
    /// The promotions running on the day asked for, in the editor's order.
    public var promotions: [PromotionCard]
    /// The language of `body` (`languages[.body]`); the picture's alt text has its own.
    public var languages: TextLanguages

    /// A home screen from its parts, for previews and tests.
    public init(logo: ImageID, picture: Picture, body: RichText, promotions: [PromotionCard], languages: TextLanguages = TextLanguages(language: "fi")) {
        self.logo = logo
        self.picture = picture
        self.body = body
        self.promotions = promotions
        self.languages = languages
    }
}

/// A promotion as the home screen shows it.
public struct PromotionCard: Identifiable, Hashable, Sendable, Codable {
    /// Its id.
    public var id: PromotionID
    /// Its headline.
    public var title: String
    /// Its text.
    public var text: String
    /// Its picture.
    public var picture: Picture
    /// The product or recipe it opens, if any.
    public var link: LinkTarget?
    /// Its first day.
    public var firstDay: Day
    /// Its last day.
    public var lastDay: Day
    /// The language of `title` and `text`; the picture's alt text has its own.
    public var languages: TextLanguages

    /// A promotion from its parts, for previews and tests.
    public init(
        id: PromotionID, title: String, text: String, picture: Picture, link: LinkTarget?, firstDay: Day, lastDay: Day,
        languages: TextLanguages = TextLanguages(language: "fi")
    ) {
        self.id = id
        self.title = title
        self.text = text
        self.picture = picture
        self.link = link
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.languages = languages
    }
}

extension PromotionCard {
    package init(row: Row, reading: TextReading) throws {
        let product = try row.optionalSlug("link_product"), recipe = try row.optionalSlug("link_recipe")
        let link: LinkTarget? = product.map { .product(ProductID(rawValue: $0)) } ?? recipe.map { .recipe(RecipeID(rawValue: $0)) }
        self.init(id: PromotionID(rawValue: try row.slug("id")), title: try row.nonEmptyText("title"), text: try row.nonEmptyText("text"),
                  picture: try Picture(row: row, reading: reading, alt: "image_alt"), link: link,
                  firstDay: try row.day("first_day"), lastDay: try row.day("last_day"),
                  languages: try reading.languages(row, [.title, .text]))
    }
}
