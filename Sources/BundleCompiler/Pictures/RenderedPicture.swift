import CBuildTuning
import CatalogContent
import Crypto
import Foundation

/// A content picture made ready for a bundle: its source's SHA-256 (the content digest's
/// line) and its renditions.
struct RenderedPicture: Sendable {
    /// The SHA-256 of the source file's bytes, in hexadecimal.
    var source: String
    /// The rendition every bundle holds in `images` (JPEG or PNG, for the largest use at 3×):
    /// the picture's id is its SHA-256.
    var rendition: Rendition
    /// The rest of its ladder, for bundles of schema 4 (`renditions`): WebP at every rung, each
    /// size once, largest first.
    var ladder: [Rendition]
    /// Whether the renditions came from the cache.
    var fromCache: Bool
    /// Whether the source is smaller than its use's largest rendition on both sides: it is
    /// not enlarged, so the largest screens show it less sharp.
    var isSmallerThanUse: Bool
    /// The preview's: `rendition` is the picture's stand-in, its renditions still being made
    /// (`RenditionDeferral`), and `ladder` is empty; nil for renditions.
    var standIn: StandIn.Kind? = nil
}
