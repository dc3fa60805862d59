import Foundation

// What an app asks of a bundle, each call in two forms: synchronous, on the calling thread, and
// `async`, on a reader thread (Swift picks the `async` one inside an async context). Both run
// the same `BundleQuery`.

extension CatalogBundle {
    /// The tab sections in tab order.
    public func sections() throws(CatalogBundleError) -> [SectionTab] { try read(.sections(textReading)) }
    /// The tab sections in tab order.
    public func sections() async throws(CatalogBundleError) -> [SectionTab] { try await read(.sections(textReading)) }

    /// The home screen, with the promotions running on `day`.
    public func home(on day: Day) throws(CatalogBundleError) -> HomeScreen { try read(.home(on: day, textReading)) }
    /// The home screen, with the promotions running on `day`.
    public func home(on day: Day) async throws(CatalogBundleError) -> HomeScreen { try await read(.home(on: day, textReading)) }

    /// Product list rows in list order; `limit` rows from `offset` for paging.
    public func productRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [ProductRow] {
        try read(.productRows(offset: offset, limit: limit, textReading))
    }
    /// Product list rows in list order; `limit` rows from `offset` for paging.
    public func productRows(offset: Int = 0, limit: Int = .max) async throws(CatalogBundleError) -> [ProductRow] {
        try await read(.productRows(offset: offset, limit: limit, textReading))
    }

    /// A product's detail screen; nil if there is no such product.
    public func product(_ id: ProductID) throws(CatalogBundleError) -> ProductDetail? { try read(.product(id, textReading)) }
    /// A product's detail screen; nil if there is no such product.
    public func product(_ id: ProductID) async throws(CatalogBundleError) -> ProductDetail? { try await read(.product(id, textReading)) }

    /// Recipe list rows in list order; `limit` rows from `offset` for paging.
    public func recipeRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [RecipeRow] {
        try read(.recipeRows(offset: offset, limit: limit, textReading))
    }
    /// Recipe list rows in list order; `limit` rows from `offset` for paging.
    public func recipeRows(offset: Int = 0, limit: Int = .max) async throws(CatalogBundleError) -> [RecipeRow] {
        try await read(.recipeRows(offset: offset, limit: limit, textReading))
    }

    /// A recipe's detail screen; nil if there is no such recipe.
    public func recipe(_ id: RecipeID) throws(CatalogBundleError) -> RecipeDetail? { try read(.recipe(id, textReading)) }
    /// A recipe's detail screen; nil if there is no such recipe.
    public func recipe(_ id: RecipeID) async throws(CatalogBundleError) -> RecipeDetail? { try await read(.recipe(id, textReading)) }

    /// Retailer rows in list order; `limit` rows from `offset` for paging.
    public func retailerRows(offset: Int = 0, limit: Int = .max) throws(CatalogBundleError) -> [RetailerRow] {
        try read(.retailerRows(offset: offset, limit: limit, textReading))
    }
    /// Retailer rows in list order; `limit` rows from `offset` for paging.
    public func retailerRows(offset: Int = 0, limit: Int = .max) async throws(CatalogBundleError) -> [RetailerRow] {
        try await read(.retailerRows(offset: offset, limit: limit, textReading))
    }

    /// The company screen.
    public func company() throws(CatalogBundleError) -> CompanyScreen { try read(.company(textReading)) }
    /// The company screen.
    public func company() async throws(CatalogBundleError) -> CompanyScreen { try await read(.company(textReading)) }

    /// An image's bytes, media type and size; nil if there is no such image.
    public func image(_ id: ImageID) throws(CatalogBundleError) -> StoredImage? { try read(.image(id)) }
    /// An image's bytes, media type and size; nil if there is no such image.
    public func image(_ id: ImageID) async throws(CatalogBundleError) -> StoredImage? { try await read(.image(id)) }

    /// Every rendition of a picture, widest first, without their bytes: in a bundle of schema
    /// 4 its ladder (``ImageRendition``), in an earlier one its one image. Empty if there is no
    /// such picture.
    public func renditions(of image: ImageID) throws(CatalogBundleError) -> [ImageRendition] {
        try read(.renditions(of: image, ladder: release.schemaVersion >= 4))
    }
    /// Every rendition of a picture, widest first, without their bytes: in a bundle of schema
    /// 4 its ladder (``ImageRendition``), in an earlier one its one image. Empty if there is no
    /// such picture.
    public func renditions(of image: ImageID) async throws(CatalogBundleError) -> [ImageRendition] {
        try await read(.renditions(of: image, ladder: release.schemaVersion >= 4))
    }

    /// A rendition's bytes; nil if the bundle has no such rendition.
    public func image(_ rendition: ImageRendition) throws(CatalogBundleError) -> StoredImage? { try read(.image(rendition)) }
    /// A rendition's bytes; nil if the bundle has no such rendition.
    public func image(_ rendition: ImageRendition) async throws(CatalogBundleError) -> StoredImage? { try await read(.image(rendition)) }

    /// The rendition of a picture to show it `width` points wide on a screen of `scale`
    /// (``ImageRendition/best(among:width:scale:)``), with its bytes; nil if there is no such
    /// picture.
    public func image(_ id: ImageID, width: Double, scale: Double) throws(CatalogBundleError) -> StoredImage? {
        try read(.image(id, width: width, scale: scale, ladder: release.schemaVersion >= 4))
    }
    /// The rendition of a picture to show it `width` points wide on a screen of `scale`
    /// (``ImageRendition/best(among:width:scale:)``), with its bytes; nil if there is no such
    /// picture.
    public func image(_ id: ImageID, width: Double, scale: Double) async throws(CatalogBundleError) -> StoredImage? {
        try await read(.image(id, width: width, scale: scale, ladder: release.schemaVersion >= 4))
    }
}
