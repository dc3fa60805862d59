/// The content of a screen.
public enum ScreenContent: Hashable, Sendable, Codable {
    /// Etusivu.
    case home(HomeScreen)
    /// The Tuotteet list.
    case productList([ProductRow])
    /// A product's detail screen.
    case product(ProductDetail)
    /// The Kahvireseptit list.
    case recipeList([RecipeRow])
    /// A recipe's detail screen.
    case recipe(RecipeDetail)
    /// The Jälleenmyyjät list.
    case retailerList([RetailerRow])
    /// The Deling Group screen.
    case company(CompanyScreen)
}
