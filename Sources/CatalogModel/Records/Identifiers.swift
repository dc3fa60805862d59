@_exported import Tagged

/// The stable id of a product: its file name, a slug such as `coffee-beans`.
public typealias ProductID = Tagged<Product, String>

/// The stable id of a recipe: its file name, a slug such as `cafe-latte`.
public typealias RecipeID = Tagged<Recipe, String>

/// The stable id of a retailer: its file name, a slug such as `deling-group`.
public typealias RetailerID = Tagged<Retailer, String>

/// The stable id of a home-page promotion, a slug unique within `home.xml`.
public typealias PromotionID = Tagged<Promotion, String>

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
