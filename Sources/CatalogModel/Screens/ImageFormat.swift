import Foundation
import GRDB

/// How a rendition's bytes are encoded. iOS 16 and macOS 13 decode all three (`UIImage(data:)`,
/// `NSImage(data:)`), as every current browser does.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

    /// The media type, such as `image/webp`.
    public var mediaType: String { rawValue }
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
