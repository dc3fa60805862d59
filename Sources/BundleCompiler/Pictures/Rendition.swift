import Crypto

/// A picture as the app receives it: resized from the content's picture (its source) for a
/// use, upright, in sRGB, with no metadata, encoded in a format iOS 16 and every current
/// browser decode.
struct Rendition: Equatable, Sendable {
    var format: RenditionFormat
    /// The size as shown, in pixels.
    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// The SHA-256 of the bytes, in hexadecimal: the picture's id in a bundle.
    var sha256: String { SHA256.hash(data: bytes).hexString }
}

/// A rendition's encoding.
enum RenditionFormat: String, Sendable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

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
    static func forSchema2(source: PictureFormat, hasAlpha: Bool) -> RenditionFormat {
        source == .png || hasAlpha ? .png : .jpeg
    }
}

/// Where the content shows a picture, which decides the sizes of its renditions.
enum PictureUse: Int, Comparable, Sendable {
    /// A list's or a tab's icon: square, 60 points.
    case icon
    /// A logo: the home's, the company's, a retailer's; at most 200 points wide.
    case logo
    /// A detail picture, the home's promotional image, a promotion's: the phone's width, 390
    /// points on the common iPhones.
    case picture

    static func < (lhs: PictureUse, rhs: PictureUse) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The use's size in points: the box its renditions fit in at a screen scale of 1.
    var points: (width: Int, height: Int) {
        switch self {
        case .icon: (60, 60)
        case .logo: (200, 200)
        case .picture: (390, 780)
        }
    }

    /// The screen scales of iPhones (1× only in the simulator, and on the site for the older
    /// screens of computers): a rung of the ladder for each.
    static let scales = [1, 2, 3]

    /// The boxes this use's renditions fit in, in pixels, largest first: its size in points at
    /// 3×, 2× and 1×. A picture may be up to twice as tall as wide.
    var boxes: [(width: Int, height: Int)] {
        Self.scales.reversed().map { scale in (points.width * scale, points.height * scale) }
    }

    /// The box the largest rendition fits in, in pixels: the use's size at a screen scale of 3
    /// (the largest iPhones have).
    var largestBox: (width: Int, height: Int) { boxes[0] }
}

/// One rendition to make: the box it fits in (never enlarged), its format and its quality.
struct RenditionRequest: Hashable, Sendable {
    var width: Int
    var height: Int
    var format: RenditionFormat
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
