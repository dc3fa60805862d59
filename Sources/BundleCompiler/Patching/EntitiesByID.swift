import CatalogContent
import CatalogModel

/// A catalogue's products, recipes and retailers by id, for looking up the entity of a search
/// row or a list; each kind indexed when first asked for (a patch of one text asks few).
final class EntitiesByID {
    let catalog: Catalog
    private lazy var products = Self.indexes(catalog.products.map(\.id.rawValue))
    private lazy var recipes = Self.indexes(catalog.recipes.map(\.id.rawValue))
    private lazy var retailers = Self.indexes(catalog.retailers.map(\.id.rawValue))

    init(_ catalog: Catalog) {
        self.catalog = catalog
    }

    private static func indexes(_ ids: [String]) -> [String: Int] {
        Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func product(_ id: String) -> Product? { products[id].map { catalog.products[$0] } }
    func recipe(_ id: String) -> Recipe? { recipes[id].map { catalog.recipes[$0] } }
    func retailer(_ id: String) -> Retailer? { retailers[id].map { catalog.retailers[$0] } }

    /// What a search row of `index` holds: the entity's texts in the row's language (along its
    /// chain), for `search_letters` its name alone, folded but for the language's own letters.
    func texts(of row: WrittenContent.SearchRow, chain: [LanguageCode], index: String) -> [String]? {
        let texts: BundleWriter.SearchTexts
        switch row.kind {
        case .product: guard let entity = product(row.id) else { return nil }; texts = BundleWriter.SearchTexts(entity.translated(along: chain))
        case .recipe: guard let entity = recipe(row.id) else { return nil }; texts = BundleWriter.SearchTexts(entity.translated(along: chain))
        case .retailer: guard let entity = retailer(row.id) else { return nil }; texts = BundleWriter.SearchTexts(entity.translated(along: chain))
        }
        if index == "search_letters" { return [SearchLetters.folded(texts.name, language: row.language.rawValue)] }
        return [texts.name, texts.summary, texts.content]
    }
}
