import CatalogModel

/// The original specification's field limits (thesis, chapter 4), counted in characters as a
/// reader sees them: "Café" is 4.
package enum FieldLimits {
    /// Names of products, recipes, retailers and the company.
    package static let name = 50
    /// Short descriptions on list rows.
    package static let summary = 100
    /// Retailer street addresses.
    package static let address = 255
    /// Retailer phone numbers.
    package static let phone = 50
    /// Retailer opening hours.
    package static let openingHours = 255
    /// Promotion headlines and tab titles.
    package static let title = 50
    /// Promotion texts.
    package static let promotionText = 255
    /// Image text alternatives.
    package static let alt = 255
    /// Pictures on a detail screen.
    package static let pictures = 1...2
}
