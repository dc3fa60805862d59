import Foundation
import GRDB

// Each screen record read from a row of the bundle, every value read as what it may be
// (`Row.value(_:)`, `Row.slug(_:)` …): a value of the wrong kind throws `BundleValueError`,
// which a read turns into `CatalogBundleError.damaged`, never a crash.

extension SectionTab {
    init(row: Row) throws {
        let id: String = try row.value("id")
        guard let kind = SectionKind(rawValue: id) else {
            throw BundleValueError(column: "id", problem: "'\(Row.excerpt(id))', not one of the five sections")
        }
        self.init(id: kind, title: try row.nonEmptyText("title"), icon: try row.imageID("icon"))
    }
}

extension Picture {
    /// From a row with `image` and `alt` columns, or with the columns named.
    init(row: Row, image: String = "image", alt: String = "alt") throws {
        self.init(image: try row.imageID(image), alt: try row.nonEmptyText(alt))
    }
}

extension PromotionCard {
    init(row: Row) throws {
        let product = try row.optionalSlug("link_product"), recipe = try row.optionalSlug("link_recipe")
        let link: LinkTarget? = product.map { .product(ProductID(rawValue: $0)) } ?? recipe.map { .recipe(RecipeID(rawValue: $0)) }
        self.init(id: PromotionID(rawValue: try row.slug("id")), title: try row.nonEmptyText("title"), text: try row.nonEmptyText("text"),
                  picture: try Picture(row: row, alt: "image_alt"), link: link,
                  firstDay: try row.day("first_day"), lastDay: try row.day("last_day"))
    }
}

extension ProductRow {
    init(row: Row) throws {
        self.init(id: ProductID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"))
    }
}

extension RecipeRow {
    init(row: Row) throws {
        self.init(id: RecipeID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), summary: try row.nonEmptyText("summary"),
                  icon: try row.imageID("icon"))
    }
}

extension Ingredient {
    init(row: Row) throws {
        self.init(text: try row.nonEmptyText("text"), product: try row.optionalSlug("product_id").map { ProductID(rawValue: $0) })
    }
}

extension RetailerRow {
    /// From a `retailers` row and what the retailer sells.
    init(row: Row, sells: [ProductID]) throws {
        let latitude: Double? = try row.value("latitude"), longitude: Double? = try row.value("longitude")
        let coordinate: Coordinate?
        switch (latitude, longitude) {
        case (nil, nil):
            coordinate = nil
        case let (latitude?, longitude?) where (-90...90).contains(latitude) && (-180...180).contains(longitude):
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        default:
            throw BundleValueError(column: "latitude", problem: "\(latitude.map { "\($0)" } ?? "NULL") with longitude \(longitude.map { "\($0)" } ?? "NULL"), not a place on Earth")
        }
        self.init(
            id: RetailerID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), logo: try row.imageID("logo"),
            address: try row.nonEmptyText("address"), phone: try row.nonEmptyText("phone"), openingHours: try row.nonEmptyText("opening_hours"),
            otherInfo: try row.value("other_info"), webAddress: try row.value("web_address"), coordinate: coordinate, sells: sells)
    }
}

extension StoredImage {
    init(row: Row) throws {
        let mediaType: String = try row.value("media_type")
        guard mediaType == "image/png" || mediaType == "image/jpeg" else {
            throw BundleValueError(column: "media_type", problem: "'\(Row.excerpt(mediaType))', not image/png or image/jpeg")
        }
        let width: Int = try row.value("width"), height: Int = try row.value("height")
        guard width > 0, height > 0 else { throw BundleValueError(column: "width", problem: "a size of \(width) × \(height) pixels") }
        self.init(id: try row.imageID("sha256"), mediaType: mediaType, width: width, height: height, bytes: try row.value("bytes"))
    }
}
