import CatalogModel

/// What home.xml says: the Café Digno logo, a promotional image, text about the range, and
/// promotions for new products and campaigns, for the Etusivu screen.
package struct Home: Hashable, Sendable, Codable {
    /// The Café Digno logo.
    package var logo: ImageReference
    /// The promotional image.
    package var image: ImageReference
    /// The text about the range.
    package var body: RichText
    /// News of new products and campaigns, each shown between its first and last day.
    package var promotions: [Promotion]

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// The home screen from its fields.
    package init(logo: ImageReference, image: ImageReference, body: RichText, promotions: [Promotion] = []) {
        self.logo = logo
        self.image = image
        self.body = body
        self.promotions = promotions
    }
}

/// A piece of news on the home screen, shown from its first to its last day inclusive.
package struct Promotion: Identifiable, Hashable, Sendable, Codable {
    /// The stable id within home.xml.
    package var id: PromotionID
    /// The headline, at most 50 characters.
    package var title: String
    /// The text, at most 255 characters.
    package var text: String
    /// Its picture.
    package var image: ImageReference
    /// The first day it is shown.
    package var firstDay: Day
    /// The last day it is shown.
    package var lastDay: Day
    /// The product or recipe it opens, if any.
    package var link: LinkTarget?

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// A promotion from its fields.
    package init(
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
    package func isRunning(on day: Day) -> Bool {
        firstDay <= day && day <= lastDay
    }
}
