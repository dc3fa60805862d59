/// A value chosen in a form: a picture's file (an icon, a logo), a link's target, a position,
/// a day. Merged as a whole, written as its element or attribute.
struct FormChoice: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// `icon` or `logo`: a file under `images/`.
        case picture
        /// A promotion's `link`: `product:espresso`, `recipe:latte` or none.
        case link
        /// The entity's `position` attribute: a number, or none.
        case position
        /// A promotion's `first-day` or `last-day`: YYYY-MM-DD.
        case day
    }

    /// The element or attribute: `icon`, `logo`, `link`, `position`, `first-day`, `last-day`.
    var key: String
    var kind: Kind
    var value: String
}
