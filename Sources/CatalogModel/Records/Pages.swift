import Tagged

/// The Etusivu screen: the Café Digno logo, a promotional image, text about the range, and
/// promotions for new products and campaigns.
public struct HomePage: Hashable, Sendable, Codable {
    /// The Café Digno logo.
    public var logo: ImageReference
    /// The promotional image.
    public var image: ImageReference
    /// The text about the range.
    public var body: RichText
    /// News of new products and campaigns, each shown between its first and last day.
    public var promotions: [Promotion]

    /// A home page from its fields.
    public init(logo: ImageReference, image: ImageReference, body: RichText, promotions: [Promotion] = []) {
        self.logo = logo
        self.image = image
        self.body = body
        self.promotions = promotions
    }
}

/// A piece of news on the home page, shown from its first to its last day inclusive.
public struct Promotion: Identifiable, Hashable, Sendable, Codable {
    /// The stable id within the home page.
    public var id: PromotionID
    /// The headline, at most 50 characters.
    public var title: String
    /// The text, at most 255 characters.
    public var text: String
    /// Its picture.
    public var image: ImageReference
    /// The first day it is shown.
    public var firstDay: Day
    /// The last day it is shown.
    public var lastDay: Day
    /// The product or recipe it opens, if any.
    public var link: LinkTarget?

    /// A promotion from its fields.
    public init(
        id: PromotionID, title: String, text: String, image: ImageReference, firstDay: Day, lastDay: Day,
        link: LinkTarget? = nil
    ) {
        self.id = id
        self.title = title
        self.text = text
        self.image = image
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.link = link
    }

    /// Whether the promotion is shown on `day`.
    public func isRunning(on day: Day) -> Bool {
        firstDay <= day && day <= lastDay
    }
}

/// The Deling Group screen: the importer's text, pictures and web address.
public struct CompanyPage: Hashable, Sendable, Codable {
    /// The company's name.
    public var name: String
    /// The company's logo.
    public var logo: ImageReference
    /// The text about the company.
    public var body: RichText
    /// One or two pictures.
    public var images: [ImageReference]
    /// The company's web address.
    public var webAddress: String

    /// A company page from its fields.
    public init(name: String, logo: ImageReference, body: RichText, images: [ImageReference], webAddress: String) {
        self.name = name
        self.logo = logo
        self.body = body
        self.images = images
        self.webAddress = webAddress
    }
}
