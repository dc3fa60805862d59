import CatalogContent
import CatalogModel

/// What `catalog.xml` holds.
struct CatalogHeader: Hashable, Sendable {
    var brand: String
    var releaseVersion: String
    var releaseDate: Day
    var sections: [Section]
    var languages: Languages
    /// The most bytes a bundle may have (`<budget bundle="…"/>`), if catalog.xml sets it.
    var budget: BundleBudget?
}
