import Foundation
import GRDB

/// One encoding of a picture at one size, without its bytes: what `CatalogBundle.renditions(of:)`
/// lists, and ``ImageRendition/best(among:width:scale:)`` chooses from.
///
/// A bundle of schema 4 holds a ladder for each picture: a WebP for each of its uses at screen
/// scales 1, 2 and 3 (a list icon 60 points square, a logo 200 points, a detail picture the
/// phone's 390-point width), and the JPEG or PNG that earlier schemas hold, at the largest
/// use's 3×. A bundle of schema 2 or 3 holds that one alone.
public struct ImageRendition: Identifiable, Hashable, Sendable {
    /// The SHA-256 of its bytes: ``StoredImage/id`` once read. For the picture's own image, the
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
