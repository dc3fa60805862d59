import Foundation
import GRDB

/// A row of the Jälleenmyyjät list, which has no detail screen.
public struct RetailerRow: Identifiable, Hashable, Sendable, Codable {
    /// The retailer.
    public var id: RetailerID
    /// Its name, the same in every language.
    public var name: String
    /// Its logo.
    public var logo: ImageID
    /// Its street address.
    public var address: String
    /// Its phone number.
    public var phone: String
    /// Its opening hours.
    public var openingHours: String
    /// Anything else worth saying.
    public var otherInfo: String?
    /// Its web address.
    public var webAddress: String?
    /// Where it is, if known.
    public var coordinate: Coordinate?
    /// The products it sells, in its own order.
    public var sells: [ProductID]
    /// The language of each text: the record's, and the texts that fell back to another.
    public var languages: TextLanguages

    /// A row from its parts, for previews and tests.
    public init(
        id: RetailerID, name: String, logo: ImageID, address: String, phone: String, openingHours: String,
        otherInfo: String? = nil, webAddress: String? = nil, coordinate: Coordinate? = nil, sells: [ProductID],
        languages: TextLanguages = TextLanguages(language: "fi")
    ) {
        self.id = id
        self.name = name
        self.logo = logo
        self.address = address
        self.phone = phone
        self.openingHours = openingHours
        self.otherInfo = otherInfo
        self.webAddress = webAddress
        self.coordinate = coordinate
        self.sells = sells
        self.languages = languages
    }
}

/// A retailer near a place, as `retailersNearest(to:limit:)` gives it; identified by the retailer.
public struct NearbyRetailer: Hashable, Identifiable, Sendable {
    /// The retailer, as its row of the retailer list shows it.
    public var retailer: RetailerRow
    /// The great-circle distance from the place, in metres.
    public var metres: Double

    /// A nearby retailer from its parts, for previews and tests.
    public init(retailer: RetailerRow, metres: Double) {
        self.retailer = retailer
        self.metres = metres
    }

    /// The retailer's id, for `ForEach` and `List`.
    public var id: RetailerID { retailer.id }
}

/// A point on the earth in degrees (WGS 84).
public struct Coordinate: Hashable, Sendable, Codable {
    /// Degrees north, -90 to 90.
    public var latitude: Double
    /// Degrees east, -180 to 180.
    public var longitude: Double

    /// A coordinate from its latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance in metres (haversine, mean earth radius).
    public func metres(to other: Coordinate) -> Double {
        let radius = 6_371_008.8
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = (other.latitude - latitude) * .pi / 180, Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}

extension RetailerRow {
    /// From a `retailers` row, its texts read through `TranslatedTexts`, and what the retailer sells.
    package init(row: Row, sells: [ProductID], reading: TextReading) throws {
        self.init(
            id: RetailerID(rawValue: try row.slug("id")), name: try row.nonEmptyText("name"), logo: try row.imageID("logo"),
            address: try row.nonEmptyText("address"), phone: try row.nonEmptyText("phone"), openingHours: try row.nonEmptyText("opening_hours"),
            otherInfo: try row.value("other_info"), webAddress: try row.value("web_address"), coordinate: try Self.coordinate(row), sells: sells,
            languages: try reading.languages(row, Self.translated))
    }

    /// The row's place: both coordinates on Earth, or neither.
    static func coordinate(_ row: Row) throws -> Coordinate? {
        let latitude: Double? = try row.value("latitude"), longitude: Double? = try row.value("longitude")
        switch (latitude, longitude) {
        case (nil, nil):
            return nil
        case let (latitude?, longitude?) where (-90...90).contains(latitude) && (-180...180).contains(longitude):
            return Coordinate(latitude: latitude, longitude: longitude)
        default:
            throw BundleValueError(column: "latitude", problem: "\(latitude.map { "\($0)" } ?? "NULL") with longitude \(longitude.map { "\($0)" } ?? "NULL"), not a place on Earth")
        }
    }

    /// A retailer's texts read in the reader's language (its name is its business's, the same
    /// in every language: it has no translations).
    static let translated: [TranslatedColumn] = [.openingHours, .otherInfo]
}
