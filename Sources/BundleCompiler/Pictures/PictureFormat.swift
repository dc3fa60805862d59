/// The formats a content picture may be in: JPEG, PNG, HEIC (HEIF) and WebP, as editors' phones
/// and cameras save them. Judged by the file's first bytes, never by its name: a HEIC file named
/// `.jpg` is a HEIC file.
enum PictureFormat: String, Sendable, CaseIterable {
    case jpeg, png, heif, webp

    /// The format's name as an editor knows it.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .heif: "HEIC"
        case .webp: "WebP"
        }
    }

    /// The ending of a file name in the format, as a file made in it is named.
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .heif: "heic"
        case .webp: "webp"
        }
    }

    /// The formats in words, for messages: "JPEG, PNG, HEIC or WebP".
    static let names = "JPEG, PNG, HEIC or WebP"

    /// The number `CPictureCodec` knows the format by.
    var codecNumber: Int32 {
        switch self {
        case .jpeg: 1
        case .png: 2
        case .heif: 3
        case .webp: 4
        }
    }

    /// HEIF brands of still pictures in HEVC (`heic`, `heix`: what iPhones write) and the
    /// general image brands (`mif1`, `msf1`) that HEIC files from other phones lead with.
    /// AVIF's brands (`avif`, `avis`) are not among them: not one of the content's formats.
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]

    /// The format of a file beginning with `bytes`, or nil if it is none of the four.
    static func of(_ bytes: [UInt8]) -> PictureFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        // ISO base media: a box of any length whose type is `ftyp`, then the major brand.
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8),
           heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self)) {
            return .heif
        }
        return nil
    }

    /// What a file that is none of the four formats most likely is, by its first bytes, for a
    /// message that names it; nil if nothing is recognised.
    static func otherFormat(_ bytes: [UInt8]) -> String? {
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            return ["avif", "avis"].contains(brand) ? "an AVIF picture" : "a video or other ISO media file"
        }
        if bytes.starts(with: [0xFF, 0x0A]) || (bytes.count >= 8 && bytes[4..<8].elementsEqual("JXL ".utf8)) { return "a JPEG XL picture" }
        if starts("GIF87a") || starts("GIF89a") { return "a GIF picture" }
        if starts("II*\u{0}") || starts("MM\u{0}*") { return "a TIFF picture (or a camera's raw file)" }
        if starts("BM") { return "a BMP picture" }
        if starts("%PDF") { return "a PDF document" }
        if starts("<?xml") || starts("<svg") { return "an SVG drawing or other XML" }
        return nil
    }

    /// Whether the WebP file in `bytes` is lossless: a VP8L chunk among its first chunks.
    static func isLosslessWebP(_ bytes: [UInt8]) -> Bool {
        var index = 12
        while index + 8 <= bytes.count, index < 4096 {
            let type = bytes[index..<(index + 4)]
            if type.elementsEqual("VP8L".utf8) { return true }
            if type.elementsEqual("VP8 ".utf8) { return false }
            let length = bytes[(index + 4)..<(index + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            index += 8 + length + length % 2
        }
        return false
    }
}
