import CatalogContent
import CatalogModel
import GRDB

/// The bundle's rows, every table's but the search index's and `search_entries`, each entity's
/// written by `BundleRows`.
extension BundleWriter {
    /// `entities` sorted by id: the order in which their rows go into the tables keyed by
    /// their id (`product_images`, `recipe_ingredients`, `retailer_products`…), so that each
    /// insert lands at the end of its B-tree rather than somewhere in the middle. Only the
    /// speed depends on it: `VACUUM INTO` copies rows in key order whatever order they went in.
    /// Entity tables themselves keep list order, which is their rowid order in the bundle.
    private static func inIDOrder<Entity>(_ entities: [Entity], id: (Entity) -> String) -> LazyMapSequence<[Int], Entity> {
        // Byte order, which is the order of SQLite's BINARY collation.
        var ids = ByteKeys(capacity: entities.count, averageLength: 24)
        for entity in entities { ids.append(id(entity).utf8) }
        return ids.sortedIndices().lazy.map { entities[$0] }
    }

    /// Inserts the rows of every table but the search index and `search_entries`.
    func insertAll(_ db: Database, _ lists: Lists) throws {
        let rows = BundleRows(db, images: images, schemaVersion: schemaVersion)
        for (key, value) in info.sorted(by: { $0.key < $1.key }) { try rows.info(key, value) }
        for sha256 in images.bySHA256.keys.sorted() { try rows.picture(sha256) }
        for (index, section) in catalog.sections.enumerated() { try rows.section(section, position: index + 1) }
        for (index, product) in lists.products.enumerated() { try rows.product(product, position: index + 1) }
        for product in Self.inIDOrder(lists.products, id: \.id.rawValue) { try rows.productPictures(product) }
        for (index, recipe) in lists.recipes.enumerated() { try rows.recipe(recipe, position: index + 1) }
        for recipe in Self.inIDOrder(lists.recipes, id: \.id.rawValue) { try rows.recipeParts(recipe) }
        for (index, retailer) in lists.retailers.enumerated() { try rows.retailer(retailer, position: index + 1) }
        for retailer in Self.inIDOrder(lists.retailers, id: \.id.rawValue) { try rows.retailerSells(retailer) }
        try rows.home(catalog.home)
        for (index, promotion) in catalog.home.promotions.enumerated() { try rows.promotion(promotion, position: index + 1) }
        try rows.company(catalog.company)
    }
}
