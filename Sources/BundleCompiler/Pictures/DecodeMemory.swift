/// The memory a picture's decode takes, known from its own structure before a pixel is decoded
/// (the codestream the decoder will read, not only the size its header says), and so the
/// decodes a build may run at once (`DecodeBudget`).
///
/// Each figure is an upper bound, measured (docs/CONTENT-FORMAT.md, "Pictures"): a JPEG shrunk
/// while decoding holds its shrunk pixels, and a progressive one every coefficient as well; a
/// PNG is decoded whole at 8 bits a sample; a HEIC's streams are decoded at their coded size
/// and converted to RGB whole, with no shrinking; a lossless WebP holds every pixel.
struct DecodeMemory: Equatable, Sendable {
    enum Source: Equatable, Sendable {
        case jpeg(JPEGStructure)
        /// A PNG's size and its samples a pixel after decoding (alpha counted where it may come
        /// from a tRNS chunk).
        case png(width: Int, height: Int, channels: Int)
        case heif(HEIFStructure)
        case webp(width: Int, height: Int, lossless: Bool)
    }

    var source: Source

    /// What the resizes and encodes of one picture's renditions hold, for a rendition box:
    /// the decoded box in memory, the resize's and an encoder's buffers, at four bytes a pixel.
    static func renditionBytes(box: (width: Int, height: Int)) -> Int { 3 * box.width * box.height * 4 + 8 << 20 }

    /// The bytes the decode and the renditions of a picture take, when its largest rendition
    /// fits `box` (a JPEG and a WebP are shrunk while decoding toward it) and it is turned by
    /// `orientation`.
    func bytes(box: (width: Int, height: Int), orientation: Int = 1) -> Int {
        Self.renditionBytes(box: box) + decodeBytes(box: box, orientation: orientation)
    }

    /// The decode's part of `bytes(box:orientation:)`.
    func decodeBytes(box: (width: Int, height: Int), orientation: Int = 1) -> Int {
        switch source {
        case .jpeg(let structure):
            // The shrink libjpeg decodes at, as CPictureCodec chooses it.
            let shrink = Self.fittingShrink(width: structure.width, height: structure.height, orientation: orientation, box: box)
            let scale = shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1
            let bands = structure.components.count == 1 ? 1 : structure.components.count == 4 ? 4 : 3
            let shrunk = ((structure.width + scale - 1) / scale) * ((structure.height + scale - 1) / scale) * bands
            // libjpeg's own row buffers: a few rows of blocks of the whole width, per component.
            let rows = structure.width * 16 * 4 * structure.components.count
            return shrunk + structure.coefficientBytes + rows
        case .png(let width, let height, let channels):
            return width * height * channels + width * channels * 2 * 4
        case .heif(let structure):
            // libde265's frame of each stream and its coding data, 2.5 bytes a pixel (4:2:0 in
            // 1.5); libheif's RGB image, which libvips reads from, 3 (4 with alpha); for a grid,
            // its YCbCr image of the whole too, 1.5. Twice as much above 8 bits a sample. A
            // 48-megapixel HEIC took 280 MB.
            let sample = structure.bitDepth > 8 ? 2 : 1
            let shown = structure.width * structure.height
            // libheif decodes up to four tiles of a grid at once.
            let streams = min(structure.codedPixels, structure.largestTilePixels * 4)
            let whole = structure.primaryType == "grid" ? 11 : 8  // halves of a byte a pixel
            return (streams * 5 + shown * whole) / 2 * sample
        case .webp(let width, let height, let lossless):
            let shrink = Self.fittingShrink(width: width, height: height, orientation: 1, box: box)
            let shrunk = Int(Double(width) / shrink + 1) * Int(Double(height) / shrink + 1) * 4
            return shrunk + (lossless ? width * height * 4 : width * 64)
        }
    }

    /// The factor that fits a picture into `box`, at least 1 (as libvips' thumbnail computes it).
    static func fittingShrink(width: Int, height: Int, orientation: Int, box: (width: Int, height: Int)) -> Double {
        let turned = orientation >= 5
        let horizontal = Double(width) / Double(turned ? box.height : box.width)
        let vertical = Double(height) / Double(turned ? box.width : box.height)
        return max(1, max(horizontal, vertical))
    }

    /// Why the decode takes what it does, in an editor's words, for a refusal.
    var reason: String {
        switch source {
        case .jpeg(let structure) where structure.keepsCoefficients:
            "a progressive JPEG keeps every part of the picture in memory while decoding"
        case .jpeg:
            "a JPEG is decoded at full size"
        case .png:
            "a PNG is decoded whole, at full size"
        case .heif(let structure):
            structure.bitDepth > 8 ? "a HEIC in \(structure.bitDepth)-bit colour is decoded whole, at full size" : "a HEIC is decoded whole, at full size"
        case .webp(_, _, let lossless):
            lossless ? "a lossless WebP is decoded whole, at full size" : "a WebP is decoded at full size"
        }
    }
}
