import Tagged

/// A shop or café that sells Café Digno products, a row in the Jälleenmyyjät list.
public struct Retailer: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    public var id: RetailerID
    /// The name, at most 50 characters.
    public var name: String
    /// The retailer's logo.
    public var logo: ImageReference
    /// The street address, at most 255 characters.
    public var address: String
    /// The phone number, at most 50 characters.
    public var phone: String
    /// The opening hours, at most 255 characters.
    public var openingHours: String
    /// Anything else worth saying, if anything.
    public var otherInfo: String?
    /// The retailer's web address, if it has one.
    public var webAddress: String?
    /// Where it is, if known.
    public var coordinate: Coordinate?
    /// The products it sells, in the editor's order.
    public var sells: [ProductID]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    public var position: Int?

    /// A retailer from its fields.
    public init(
        id: RetailerID, name: String, logo: ImageReference, address: String, phone: String,
        openingHours: String, otherInfo: String? = nil, webAddress: String? = nil,
        coordinate: Coordinate? = nil, sells: [ProductID], position: Int? = nil
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
        self.position = position
    }
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
}
