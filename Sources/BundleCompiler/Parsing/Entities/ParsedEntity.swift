import CatalogContent
import CatalogModel

/// One entity read from a content file.
enum ParsedEntity: Hashable, Sendable {
    case catalog(CatalogHeader)
    case home(Home)
    case company(Company)
    case product(Product)
    case recipe(Recipe)
    case retailer(Retailer)
}
