import Tagged

/// The original specification's field limits (thesis, chapter 4), counted in characters as a
/// reader sees them: "Café" is 4.
public enum FieldLimits {
    /// Names of products, recipes, retailers and the company.
    public static let name = 50
    /// Short descriptions on list rows.
    public static let summary = 100
    /// Retailer street addresses.
    public static let address = 255
    /// Retailer phone numbers.
    public static let phone = 50
    /// Retailer opening hours.
    public static let openingHours = 255
    /// Promotion headlines and tab titles.
    public static let title = 50
    /// Promotion texts.
    public static let promotionText = 255
    /// Image text alternatives.
    public static let alt = 255
    /// Pictures on a detail screen.
    public static let pictures = 1...2
}
