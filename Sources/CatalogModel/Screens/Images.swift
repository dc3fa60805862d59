import Foundation
import GRDB

/// An image as stored in a bundle: its bytes, media type and size. A picture's image
/// (`CatalogBundle.image(_:)`), or one of its renditions (`CatalogBundle.image(_:width:scale:)`).
public struct StoredImage: Identifiable, Hashable, Sendable {
    /// The SHA-256 of the bytes.
    public var id: ImageID
    /// `image/png`, `image/jpeg` or (a rendition of a bundle of schema 4) `image/webp`.
    public var mediaType: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The file's bytes.
    public var bytes: Data

    /// An image from its parts, for previews and tests.
    public init(id: ImageID, mediaType: String, width: Int, height: Int, bytes: Data) {
        self.id = id
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// A picture on a screen: which image, and the text a screen reader reads.
///
/// Its `id` is its image: the compiler refuses one image shown twice on a screen
/// (`duplicate-picture`), so `ForEach(detail.pictures)` needs no other id.
public struct Picture: Identifiable, Hashable, Sendable, Codable {
    /// The image.
    public var image: ImageID
    /// Its text alternative.
    public var alt: String
    /// The language of `alt` (`languages[.alt]`).
    public var languages: TextLanguages

    /// The image, unique among a screen's pictures.
    public var id: ImageID { image }

    /// A picture from its image and text alternative, by default in Finnish.
    public init(image: ImageID, alt: String, languages: TextLanguages = TextLanguages(language: "fi")) {
        self.image = image
        self.alt = alt
        self.languages = languages
    }
}

// Reading from a bundle's rows. Every value is read as what it may be (`Row.value(_:)`,
// `Row.slug(_:)` …, in Bundle/Row+BundleValues.swift): a value of the wrong kind throws
// `BundleValueError`, which a read turns into `CatalogBundleError.damaged`, never a crash. The
// records do not conform to GRDB's `FetchableRecord`: the conformance would be public, and would
// put GRDB into the API of every app.

extension StoredImage {
    /// From a row of `images` or `renditions`: `sha256`, `media_type`, `width`, `height`,
    /// `bytes`.
    package init(row: Row) throws {
        let format = try ImageFormat(row: row)
        let width: Int = try row.value("width"), height: Int = try row.value("height")
        guard width > 0, height > 0 else { throw BundleValueError(column: "width", problem: "a size of \(width) × \(height) pixels") }
        self.init(id: try row.imageID("sha256"), mediaType: format.mediaType, width: width, height: height, bytes: try row.value("bytes"))
    }
}

extension Picture {
    /// From a row with `image` and `alt` columns, or with the columns named, the alt text read
    /// through `TranslatedTexts`.
    package init(row: Row, reading: TextReading, image: String = "image", alt: String = "alt") throws {
        self.init(image: try row.imageID(image), alt: try row.nonEmptyText(alt), languages: try reading.languages(row, [.alt: alt]))
    }
}
