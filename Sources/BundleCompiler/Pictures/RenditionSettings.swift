import CatalogModel
import Crypto

/// What the renditions' bytes depend on besides the source: these settings and the libraries'
/// versions (`PictureCodec.libraries`). Both are in the content digest, the manifest and
/// `digno --version`, so that a new encoder or setting makes a new release.
enum RenditionSettings {
    /// Raised whenever a setting below, or the way a rendition is made, changes. 2: the ladder
    /// of WebP renditions beside the one of schemas 2 and 3. 3: JPEG and PNG decoded by their own
    /// libraries, a picture with no profile passed through, 16 bits rounded to 8, a HEIC's `nclx`
    /// colour converted, the primary image never its thumbnail.
    static let version = 3
    /// JPEG's quality: 80, where photos show no artefacts at a phone's sizes (libvips' default
    /// is 75, sharp's 80).
    static let jpegQuality = 80
    /// Lossy WebP's quality: 75, libwebp's and libvips' default, and Next.js's; about as good
    /// as JPEG at 80 in two thirds of the bytes.
    static let webpQuality = 75
    /// libwebp's effort, 0 to 6: 1, because a higher one took longer for no fewer bytes. A
    /// 1170-pixel photo: 0.14 s and 100,660 bytes at 1, 0.25 s and 102,338 at 4 (libwebp's
    /// default), here; the ladder's three WebPs at 4 put a JPEG photo in the preview at 1.0 s,
    /// against 0.57 before the ladder.
    static let webpEffort = 1

    /// The settings in words, for `digno --version` and the manifest.
    static let summary = "renditions \(version): icon 60×60, logo 200×200, picture 390×780 pt at 1×, 2×, 3×; "
        + "JPEG quality \(jpegQuality) or PNG level 9 at 3×, WebP quality \(webpQuality) or lossless, effort \(webpEffort), at each; "
        + "upright, sRGB, no metadata"

    /// The settings and the libraries, the whole of what a rendition depends on but its source.
    static var identity: String { summary + "; " + PictureCodec.libraries }
}
