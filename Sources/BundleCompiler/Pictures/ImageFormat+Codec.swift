import CatalogModel

// A rendition's encoding is the app's word for it, `ImageFormat` (JPEG, PNG, WebP); what the
// compiler adds to it is here.
extension ImageFormat {
    /// The format's name as a person knows it: JPEG, PNG, WebP.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }

    /// The number `CPictureCodec` knows the format by.
    var codecNumber: Int32 {
        switch self {
        case .jpeg: 1
        case .png: 2
        case .webp: 3
        }
    }

    /// The format of the one rendition a bundle of schema 2 or 3 holds for a picture: PNG for a
    /// PNG source (drawn pictures: logos, icons, the placeholders, kept sharp and lossless) and
    /// for any picture with transparency; JPEG for the rest (photos). Those bundles' `images`
    /// table allows no other type: apps in the field decode only these two.
    static func forSchema2(source: PictureFormat, hasAlpha: Bool) -> ImageFormat {
        source == .png || hasAlpha ? .png : .jpeg
    }
}
