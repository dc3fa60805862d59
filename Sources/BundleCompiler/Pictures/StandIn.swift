/// What the preview shows of a picture whose renditions are still being made (issue 61): its
/// embedded thumbnail, upright, as a JPEG in the main rendition's box (a camera JPEG's EXIF
/// thumbnail, a phone HEIC's `thmb` item); or, where it has none or it cannot be decoded, a plain
/// placeholder of the picture's shape, which the preview serves as words saying that the
/// picture is being prepared. Only the preview makes one, for its own scratch bundle, until the
/// renditions are made: a release's renditions, and the rendition cache's, are always made from
/// the primary image.
package struct StandIn: Equatable, Sendable {
    package enum Kind: String, Equatable, Sendable {
        case thumbnail, placeholder
    }

    var kind: Kind
    /// What the preview's bundle holds in the picture's place.
    var rendition: Rendition

    /// The longest side of a placeholder, in pixels: it has the picture's shape, and the page
    /// scales it to the picture's box.
    static let placeholderSide = 64

    /// The stand-in of the picture in `bytes`: its thumbnail in `request`'s box when it has one
    /// that decodes, else a placeholder of its `shape` (the size as shown, upright).
    static func make(_ bytes: [UInt8], source: PictureCodec.Source, heif: HEIFStructure?, shape: (width: Int, height: Int),
                     request: RenditionRequest) -> StandIn {
        let box = RenditionRequest(width: request.width, height: request.height, format: .jpeg, quality: RenditionSettings.jpegQuality)
        switch source.format {
        case .jpeg:
            // Decoded as the compiler decodes any JPEG, after the same reading of its structure,
            // turned by the picture's own orientation (a thumbnail is stored as the picture is).
            if let thumbnail = EXIFThumbnail.find(in: bytes).map(Array.init), case .success(let structure) = JPEGStructure.read(thumbnail),
               structure.isDecodable, structure.width <= HEIFStructure.thumbnailSide, structure.height <= HEIFStructure.thumbnailSide,
               case .success(let rendition) = PictureCodec.render(thumbnail, PictureCodec.Source(format: .jpeg, orientation: source.orientation), box) {
                return StandIn(kind: .thumbnail, rendition: rendition)
            }
        case .heif:
            var thumbnailSource = source
            thumbnailSource.thumbnail = true
            if heif?.hasThumbnail == true, case .success(let rendition) = PictureCodec.render(bytes, thumbnailSource, box) {
                return StandIn(kind: .thumbnail, rendition: rendition)
            }
        case .png, .webp:
            break
        }
        return StandIn(kind: .placeholder, rendition: placeholder(shape))
    }

    /// A light grey PNG of `shape`'s proportions, at most `placeholderSide` pixels a side.
    static func placeholder(_ shape: (width: Int, height: Int)) -> Rendition {
        let longest = max(shape.width, shape.height, 1)
        let width = max(1, (max(shape.width, 1) * placeholderSide + longest / 2) / longest)
        let height = max(1, (max(shape.height, 1) * placeholderSide + longest / 2) / longest)
        // Rows of one grey byte a pixel, each after its filter byte (none).
        let rows = [UInt8]((0..<height).flatMap { _ in [0] + [UInt8](repeating: 0xE4, count: width) })
        return Rendition(format: .png, width: width, height: height, bytes: png(width: width, height: height, greyRows: rows))
    }

    /// A PNG of 8-bit grey `greyRows`, their zlib stream in one stored (uncompressed) block. By
    /// hand: a few kilobytes at most, for which no encoder is worth linking here.
    private static func png(width: Int, height: Int, greyRows rows: [UInt8]) -> [UInt8] {
        precondition(rows.count <= 0xFFFF)
        func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(data.count, 4) + body + bigEndian(Int(CRC32.of(body[...])), 4)
        }
        var a = 1, b = 0
        for byte in rows {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = rows.count
        let stream: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            + rows + bigEndian(b << 16 | a, 4)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(width, 4) + bigEndian(height, 4) + [8, 0, 0, 0, 0])
            + chunk("IDAT", stream) + chunk("IEND", [])
    }
}
