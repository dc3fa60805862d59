import CatalogModel
import Crypto

/// One rendition to make: the box it fits in (never enlarged), its format and its quality.
struct RenditionRequest: Hashable, Sendable {
    var width: Int
    var height: Int
    var format: ImageFormat
    /// JPEG's and WebP's quality, 1 to 100; PNG and lossless WebP ignore it.
    var quality: Int
    /// WebP's lossless mode (for drawn pictures: PNG sources and transparency).
    var lossless = false

    /// The rendition a bundle of schema 2 or 3 holds for a picture in `format` (its
    /// transparency known) shown as `use` (its largest).
    static func forSchema2(use: PictureUse, source: PictureFormat, hasAlpha: Bool) -> RenditionRequest {
        RenditionRequest(width: use.largestBox.width, height: use.largestBox.height,
                         format: .forSchema2(source: source, hasAlpha: hasAlpha), quality: RenditionSettings.jpegQuality)
    }

    /// The request in the words of the settings, such as `jpeg 1170x2340 q80`: part of a cache
    /// entry's key.
    var key: String {
        "\(format == .jpeg ? "jpeg" : format == .png ? "png" : "webp") \(width)x\(height) " + (lossless ? "lossless" : "q\(quality)")
    }

    /// Every rendition of a picture in `format` (its transparency known) shown as `uses`: first
    /// the one of schemas 2 and 3 (for the largest use, at 3×, in JPEG or PNG), whose box holds
    /// every other; then a WebP for each use at 3×, 2× and 1× (lossy for photos, lossless for
    /// drawn pictures), largest first, each box once.
    static func ladder(uses: Set<PictureUse>, source: PictureFormat, hasAlpha: Bool) -> [RenditionRequest] {
        guard let largest = uses.max() else { return [] }
        let main = forSchema2(use: largest, source: source, hasAlpha: hasAlpha)
        let lossless = main.format == .png
        var requests = [main]
        var boxes = Set<[Int]>()
        let allBoxes = uses.sorted().reversed().flatMap(\.boxes).sorted { ($0.width * $0.height, $0.width) > ($1.width * $1.height, $1.width) }
        for box in allBoxes where boxes.insert([box.width, box.height]).inserted {
            requests.append(RenditionRequest(width: box.width, height: box.height, format: .webp,
                                             quality: RenditionSettings.webpQuality, lossless: lossless))
        }
        return requests
    }
}
