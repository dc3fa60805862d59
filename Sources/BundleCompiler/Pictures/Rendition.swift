import CatalogModel
import Crypto

/// A picture as the app receives it: resized from the content's picture (its source) for a
/// use, upright, in sRGB, with no metadata, encoded in a format iOS 16 and every current
/// browser decode.
struct Rendition: Equatable, Sendable {
    var format: ImageFormat
    /// The size as shown, in pixels.
    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// The SHA-256 of the bytes, in hexadecimal: the picture's id in a bundle.
    var sha256: String { SHA256.hash(data: bytes).hexString }
}
