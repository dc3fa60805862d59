import CatalogModel

/// A shop or café that sells Café Digno products, a row in the Jälleenmyyjät list.
package struct Retailer: Identifiable, Hashable, Sendable, Codable {
    /// The stable id, the file name.
    package var id: RetailerID
    /// The name, at most 50 characters.
    package var name: String
    /// The retailer's logo.
    package var logo: ImageReference
    /// The street address, at most 255 characters.
    package var address: String
    /// The phone number, at most 50 characters.
    package var phone: String
    /// The opening hours, at most 255 characters.
    package var openingHours: String
    /// Anything else worth saying, if anything.
    package var otherInfo: String?
    /// The retailer's web address, if it has one.
    package var webAddress: String?
    /// Where it is, if known.
    package var coordinate: Coordinate?
    /// The products it sells, in the editor's order.
    package var sells: [ProductID]
    /// The editor's place in the list (lower numbers first); nil to order by name.
    package var position: Int?

    /// Its texts in the catalogue's other languages.
    package var translations = Translations()

    /// A retailer from its fields.
    package init(
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
