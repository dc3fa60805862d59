import Foundation

extension CatalogBundle {
    /// Reads every screen and every image once, as an app browsing the whole bundle would, and
    /// then every screen and a search in each other language: what the damaged-bundle tests and
    /// the bundle fuzz target run on each bundle they make.
    package func readEveryScreen(on day: Day) throws(CatalogBundleError) {
        try readEveryScreenInItsLanguage(on: day)
        for language in languages.dropFirst() {
            try reading(in: [language]).readEveryScreenInItsLanguage(on: day)
        }
    }

    private func readEveryScreenInItsLanguage(on day: Day) throws(CatalogBundleError) {
        for section in try sections() { try readPicture(section.icon) }
        _ = try home(on: day)
        for row in try productRows() {
            for picture in try product(row.id)?.pictures ?? [] { try readPicture(picture.image) }
        }
        for row in try recipeRows() { _ = try recipe(row.id) }
        for row in try retailerRows() { _ = try image(row.logo) }
        _ = try company()
        _ = try search("es")
        _ = try retailersNearest(to: Coordinate(latitude: 60.17, longitude: 24.94))
    }

    /// A picture's renditions, each one's bytes, and the one an app picks for a phone's width.
    private func readPicture(_ id: ImageID) throws(CatalogBundleError) {
        for rendition in try renditions(of: id) { _ = try image(rendition) }
        _ = try image(id, width: 390, scale: 3)
    }
}
