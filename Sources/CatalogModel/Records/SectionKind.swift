
/// One of the app's five tab sections.
public enum SectionKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// Etusivu: the start screen.
    case home
    /// Tuotteet: the product list and product screens.
    case products
    /// Kahvireseptit: the recipe list and recipe screens.
    case recipes
    /// Jälleenmyyjät: the retailer list.
    case retailers
    /// Deling Group: the company screen.
    case company
}
