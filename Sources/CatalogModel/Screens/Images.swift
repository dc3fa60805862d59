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

/// How a rendition's bytes are encoded. iOS 16 and macOS 13 decode all three (`UIImage(data:)`,
/// `NSImage(data:)`), as every current browser does.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

    /// The media type, such as `image/webp`.
    public var mediaType: String { rawValue }
}

/// One encoding of a picture at one size, without its bytes: what `CatalogBundle.renditions(of:)`
/// lists, and `ImageRendition.best(among:width:scale:)` chooses from.
///
/// A bundle of schema 4 holds a ladder for each picture: a WebP for each of its uses at screen
/// scales 1, 2 and 3 (a list icon 60 points square, a logo 200 points, a detail picture the
/// phone's 390-point width), and the JPEG or PNG that earlier schemas hold, at the largest
/// use's 3×. A bundle of schema 2 or 3 holds that one alone.
public struct ImageRendition: Identifiable, Hashable, Sendable {
    /// The SHA-256 of its bytes: `StoredImage.id` once read. For the picture's own image, the
    /// picture's id.
    public var id: ImageID
    /// The picture it shows: the id the screens name.
    public var image: ImageID
    public var format: ImageFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The size of its bytes.
    public var byteCount: Int

    /// A rendition from its parts, for previews and tests.
    public init(id: ImageID, image: ImageID, format: ImageFormat, width: Int, height: Int, byteCount: Int) {
        self.id = id
        self.image = image
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }

    /// The rendition among `renditions` to show a picture `width` points wide on a screen of
    /// `scale` (`displayScale` in SwiftUI, `UIScreen.scale`): the narrowest with at least the
    /// pixels the screen shows (`width` × `scale`), or the widest when none has as many (a
    /// picture is never larger than its source); of those as wide, the fewest bytes. Nil when
    /// `renditions` is empty.
    ///
    /// ```swift
    /// let chosen = ImageRendition.best(among: try bundle.renditions(of: picture.image), width: 390, scale: 3)
    /// ```
    public static func best(among renditions: [ImageRendition], width: Double, scale: Double) -> ImageRendition? {
        let needed = (width * scale).rounded(.up)
        let wide = renditions.filter { Double($0.width) >= needed }
        let candidates = wide.isEmpty ? renditions : wide
        let chosenWidth = wide.isEmpty ? candidates.map(\.width).max() : candidates.map(\.width).min()
        return candidates.filter { $0.width == chosenWidth }.min { ($0.byteCount, $0.format.rawValue) < ($1.byteCount, $1.format.rawValue) }
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

extension ImageFormat {
    /// From a row's `media_type`: what `images` allows (JPEG, PNG), and `renditions` WebP too.
    package init(row: Row) throws {
        let mediaType: String = try row.value("media_type")
        guard let format = ImageFormat(rawValue: mediaType) else {
            throw BundleValueError(column: "media_type", problem: "'\(Row.excerpt(mediaType))', not image/png, image/jpeg or image/webp")
        }
        self = format
    }
}

extension ImageRendition {
    /// From a row with `sha256`, `image`, `media_type`, `width`, `height` and `byte_count`.
    package init(row: Row) throws {
        let width: Int = try row.value("width"), height: Int = try row.value("height"), byteCount: Int = try row.value("byte_count")
        guard width > 0, height > 0 else { throw BundleValueError(column: "width", problem: "a size of \(width) × \(height) pixels") }
        guard byteCount > 0 else { throw BundleValueError(column: "byte_count", problem: "\(byteCount) bytes") }
        self.init(id: try row.imageID("sha256"), image: try row.imageID("image"), format: try ImageFormat(row: row),
                  width: width, height: height, byteCount: byteCount)
    }
}

extension Picture {
    /// From a row with `image` and `alt` columns, or with the columns named, the alt text read
    /// through `TranslatedTexts`.
    package init(row: Row, reading: TextReading, image: String = "image", alt: String = "alt") throws {
        self.init(image: try row.imageID(image), alt: try row.nonEmptyText(alt), languages: try reading.languages(row, [.alt: alt]))
    }
}
