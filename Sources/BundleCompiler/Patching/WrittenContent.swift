import CatalogContent
import CatalogModel

/// What a patchable bundle holds, as the compiler wrote it: the catalogue, its pictures, its
/// `bundle_info` and each language's lists. A patch compares the next valid catalogue with it;
/// the search rows it deletes are made from it (a contentless FTS5 index deletes a row given
/// the texts it was indexed with).
struct WrittenContent: Sendable {
    var catalog: Catalog
    var images: BundleImages
    var info: [String: String]
    /// Each declared language's lists, the default's first, with the chain its texts fall
    /// back along.
    var orders: [LanguageLists]

    /// One language's lists: its products, recipes and retailers by id, in its list order.
    struct LanguageLists: Equatable, Sendable {
        var language: LanguageCode
        var chain: [LanguageCode]
        var products: [String]
        var recipes: [String]
        var retailers: [String]

        /// The rows of a search index for this language, in rowid order: products, recipes and
        /// retailers, each in list order (`BundleWriter.forEachSearchRow`).
        var searchRows: [SearchRow] {
            products.map { SearchRow(kind: .product, id: $0, language: language) }
                + recipes.map { SearchRow(kind: .recipe, id: $0, language: language) }
                + retailers.map { SearchRow(kind: .retailer, id: $0, language: language) }
        }

        /// Each kind's ids in list order, by the kind's name in `list_positions`.
        var ids: [(kind: String, ids: [String])] {
            [("product", products), ("recipe", recipes), ("retailer", retailers)]
        }
    }

    /// One row of a search index: an entity's texts in one language.
    struct SearchRow: Hashable, Sendable {
        var kind: BundleWriter.SearchKind
        var id: String
        var language: LanguageCode
    }

    /// Each language's lists of `catalog`, ordered as the writer orders them
    /// (`BundleWriter.Lists`, `BundleWriter.TranslatedLists`).
    static func orders(of catalog: Catalog) -> [LanguageLists] {
        let languages = catalog.languages
        let lists = [(languages.defaultLanguage, BundleWriter.Lists(ordering: catalog))] + BundleWriter.TranslatedLists(catalog).languages
        return lists.map { language, lists in
            LanguageLists(language: language, chain: languages.chain(for: language), products: lists.products.map(\.id.rawValue),
                          recipes: lists.recipes.map(\.id.rawValue), retailers: lists.retailers.map(\.id.rawValue))
        }
    }

    /// The rows of the search index `index`, in rowid order: `search` the default language's,
    /// `search_translated` each other language's after another, `search_letters` every
    /// language's (schema-3.sql).
    func searchRows(_ index: String) -> [SearchRow] {
        languages(of: index).flatMap(\.searchRows)
    }

    /// The languages whose runs of rows the search index `index` holds, in rowid order.
    func languages(of index: String) -> ArraySlice<LanguageLists> {
        switch index {
        case "search": orders.prefix(1)
        case "search_translated": orders.dropFirst()
        default: orders[...]
        }
    }
}
