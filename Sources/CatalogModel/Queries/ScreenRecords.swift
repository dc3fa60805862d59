import Foundation
import Tagged

/// The id of a stored image: the SHA-256 of its bytes, in hexadecimal.
public typealias ImageID = Tagged<StoredImage, String>

/// An image as stored in a bundle: its bytes, media type and size.
public struct StoredImage: Identifiable, Hashable, Sendable {
    /// The SHA-256 of the bytes.
    public var id: ImageID
    /// `image/png` or `image/jpeg`.
    public var mediaType: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The file's bytes.
    public var bytes: Data
}

/// A picture on a screen: which image, and the text a screen reader reads.
public struct Picture: Hashable, Sendable, Codable {
    /// The image.
    public var image: ImageID
    /// Its text alternative.
    public var alt: String
}

/// A tab of the tab bar.
public struct SectionTab: Identifiable, Hashable, Sendable, Codable {
    /// The section it opens.
    public var id: SectionKind
    /// Its title, such as "Tuotteet".
    public var title: String
    /// Its icon.
    public var icon: ImageID
}

/// The Etusivu screen.
public struct HomeScreen: Hashable, Sendable, Codable {
    /// The Café Digno logo.
    public var logo: ImageID
    /// The promotional picture.
    public var picture: Picture
    /// The text about the range.
    public var body: RichText
    /// The promotions running on the day asked for, in the editor's order.
    public var promotions: [PromotionCard]
}

/// A promotion as the home screen shows it.
public struct PromotionCard: Identifiable, Hashable, Sendable, Codable {
    /// Its id.
    public var id: PromotionID
    /// Its headline.
    public var title: String
    /// Its text.
    public var text: String
    /// Its picture.
    public var picture: Picture
    /// The product or recipe it opens, if any.
    public var link: LinkTarget?
    /// Its first day.
    public var firstDay: Day
    /// Its last day.
    public var lastDay: Day
}

/// A row of the Tuotteet list: icon, name, short description.
public struct ProductRow: Identifiable, Hashable, Sendable, Codable {
    /// The product.
    public var id: ProductID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// Its list icon.
    public var icon: ImageID
}

/// A product's detail screen.
public struct ProductDetail: Identifiable, Hashable, Sendable, Codable {
    /// The product.
    public var id: ProductID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// The product text.
    public var body: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// The recipes that use it, in list order.
    public var recipes: [RecipeRow]
    /// The retailers that sell it, in list order.
    public var retailers: [RetailerRow]
}

/// A row of the Kahvireseptit list: icon, name, short description.
public struct RecipeRow: Identifiable, Hashable, Sendable, Codable {
    /// The recipe.
    public var id: RecipeID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// Its list icon.
    public var icon: ImageID
}

/// A recipe's detail screen.
public struct RecipeDetail: Identifiable, Hashable, Sendable, Codable {
    /// The recipe.
    public var id: RecipeID
    /// Its name.
    public var name: String
    /// Its short description.
    public var summary: String
    /// The ingredient lines in order, with the product each one is, if any.
    public var ingredients: [Ingredient]
    /// How to make it.
    public var method: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// The products it uses, in list order.
    public var products: [ProductRow]
}

/// A row of the Jälleenmyyjät list, which has no detail screen.
public struct RetailerRow: Identifiable, Hashable, Sendable, Codable {
    /// The retailer.
    public var id: RetailerID
    /// Its name.
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
}

/// The Deling Group screen.
public struct CompanyScreen: Hashable, Sendable, Codable {
    /// The company's name.
    public var name: String
    /// Its logo.
    public var logo: ImageID
    /// The text about it.
    public var body: RichText
    /// One or two pictures.
    public var pictures: [Picture]
    /// Its web address.
    public var webAddress: String
}

/// A search result.
public struct SearchHit: Hashable, Sendable, Codable {
    /// What it is and which.
    public var target: SearchTarget
    /// Its name.
    public var name: String
    /// Its short description (empty for retailers).
    public var summary: String
}

/// What a search result opens.
public enum SearchTarget: Hashable, Sendable, Codable {
    /// A product's detail screen.
    case product(ProductID)
    /// A recipe's detail screen.
    case recipe(RecipeID)
    /// A retailer's row in the Jälleenmyyjät list.
    case retailer(RetailerID)
}

/// A retailer near a place, as `retailersNearest(to:limit:)` gives it.
public struct NearbyRetailer: Hashable, Sendable {
    /// The retailer, as its row of the retailer list shows it.
    public var retailer: RetailerRow
    /// The great-circle distance from the place, in metres.
    public var metres: Double

    /// A nearby retailer from its parts, for previews and tests.
    public init(retailer: RetailerRow, metres: Double) {
        self.retailer = retailer
        self.metres = metres
    }
}
