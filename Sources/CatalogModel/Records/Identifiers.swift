/// What the typed ids of a catalogue share: each wraps a string, so that a recipe's id cannot be
/// passed where a product's is expected, and each is written in JSON and in routes as its string.
public protocol CatalogIdentifier: RawRepresentable<String>, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    init(rawValue: String)
}

extension CatalogIdentifier {
    /// An id from its string.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    /// An id written as a string literal, such as `"espresso"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The id's string.
    public var description: String { rawValue }
    /// Ids in the order of their strings' code points.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

// Codable comes from the standard library's `RawRepresentable` conformances: a single string.

/// The stable id of a product: its file name, a slug such as `coffee-beans`.
public struct ProductID: CatalogIdentifier {
    /// The id's string.
    public var rawValue: String
    /// An id from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The stable id of a recipe: its file name, a slug such as `cafe-latte`.
public struct RecipeID: CatalogIdentifier {
    /// The id's string.
    public var rawValue: String
    /// An id from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The stable id of a retailer: its file name, a slug such as `deling-group`.
public struct RetailerID: CatalogIdentifier {
    /// The id's string.
    public var rawValue: String
    /// An id from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The stable id of a promotion of the home screen, a slug unique within `home.xml`.
public struct PromotionID: CatalogIdentifier {
    /// The id's string.
    public var rawValue: String
    /// An id from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The id of a stored image: the SHA-256 of its bytes, in lowercase hexadecimal.
public struct ImageID: CatalogIdentifier {
    /// The id's string.
    public var rawValue: String
    /// An id from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// Whether a string is a valid id: `[a-z0-9]+(-[a-z0-9]+)*`, at most 64 characters.
package func isValidSlug(_ text: String) -> Bool {
    guard !text.isEmpty, text.utf8.count <= 64 else { return false }
    var previousWasHyphen = true  // forbids a leading hyphen
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            previousWasHyphen = false
        case UInt8(ascii: "-") where !previousWasHyphen:
            previousWasHyphen = true
        default:
            return false
        }
    }
    return !previousWasHyphen
}
