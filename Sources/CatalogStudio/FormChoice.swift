import Foundation

/// A value chosen in a form: a picture's file (an icon, a logo), a link's target, a position,
/// a day. Merged as a whole, written as its element or attribute.
struct FormChoice: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// `icon` or `logo`: a file under `images/`.
        case picture
        /// The file of a picture with words (the home's and a promotion's `image`): its `src`,
        /// its words edited as texts.
        case pictureFile
        /// A retailer's `location`: latitude and longitude in degrees, `;` between, or none.
        case location
        /// A promotion's `link`: `product:espresso`, `recipe:latte` or none.
        case link
        /// The entity's `position` attribute: a number, or none.
        case position
        /// A promotion's `first-day` or `last-day`: YYYY-MM-DD.
        case day
    }

    /// The element or attribute: `icon`, `logo`, `image`, `location`, `link`, `position`,
    /// `first-day`, `last-day`.
    var key: String
    var kind: Kind
    var value: String

    /// A location's value from its latitude and longitude as typed: none when both are empty.
    static func location(latitude: String, longitude: String) -> String {
        let latitude = latitude.trimmingCharacters(in: .whitespaces), longitude = longitude.trimmingCharacters(in: .whitespaces)
        return latitude.isEmpty && longitude.isEmpty ? "" : latitude + ";" + longitude
    }

    /// A location's latitude and longitude, empty for none.
    static func coordinates(_ value: String) -> (latitude: String, longitude: String) {
        let parts = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}
