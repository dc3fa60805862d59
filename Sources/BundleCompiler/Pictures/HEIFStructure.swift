/// What a HEIF file's boxes say about its primary image, read before libheif decodes a pixel:
/// what codec it is in (a HEIF file is HEIC only if it is HEVC), the size it says it has and the
/// size its HEVC streams will decode to (a file may say 1200 × 1200 and hold 12000 × 12000), its
/// bit depth and its `nclx` colour.
///
/// Read by hand: Debian's libvips 8.14 does not pass libheif's limits through, and libheif takes
/// the size from the `ispe` box, which need not be the coded one; the coded size is in each
/// stream's sequence parameter set (H.265 7.3.2.2), inside its `hvcC` box. Only the boxes that
/// locate the primary image are read (ISO/IEC 23008-12 and 14496-12).
struct HEIFStructure: Equatable, Sendable {
    /// The primary item's type: `hvc1` (one HEVC image), `grid` (HEVC tiles, as iPhones write
    /// them), `av01` (AVIF), `jpeg`, …
    var primaryType: String
    /// The codec of the tiles when the primary image is a grid.
    var tileType: String?
    /// The size the file says the primary image has: its `ispe` box, or a grid's own fields.
    var width: Int
    var height: Int
    /// The pixels libheif decodes: each HEVC stream at its coded size, all tiles of a grid.
    var codedPixels: Int
    /// The largest coded tile, in pixels (the image itself when it is not a grid).
    var largestTilePixels: Int
    /// The largest bit depth of the streams: 8, or 10 and 12 in high-dynamic-range files.
    var bitDepth: Int
    /// The primary image's `nclx` colour, where its colour box is one (and it has no ICC profile).
    var colour: NCLX?
    /// Whether a coded stream is larger than the size the file says by more than one coding block
    /// (64 pixels) a side: a file made to be decoded far larger than it looks.
    var codedSizeLies: Bool
    /// Whether the primary image has an embedded HEVC thumbnail (a `thmb` reference) of at most
    /// `thumbnailSide` pixels a side as coded: what the preview shows while the renditions are
    /// made (`StandIn`). Phones write one of 320 × 240 or so.
    var hasThumbnail = false

    /// The largest thumbnail the preview decodes, coded, a side: larger is not a thumbnail.
    static let thumbnailSide = 1024

    /// ITU-T H.273's numbers for the colour: primaries and transfer characteristics.
    struct NCLX: Equatable, Sendable {
        var primaries: Int
        var transfer: Int
    }

    /// Whether the primary image is HEVC: HEIC, one of the content's formats.
    var isHEIC: Bool { primaryType == "hvc1" || (primaryType == "grid" && tileType == "hvc1") }

    /// What the file is, by its primary image's codec, when it is not HEIC.
    var otherKind: String {
        switch primaryType == "grid" ? tileType ?? "" : primaryType {
        case "av01": "an AVIF picture"
        case "jpeg": "a JPEG inside a HEIF file"
        case "j2k1": "a JPEG 2000 inside a HEIF file"
        case "vvc1": "a VVC (H.266) picture"
        default: "a HEIF file whose image is not HEVC"
        }
    }

    enum Failure: Error, Equatable {
        /// A box runs past its parent or the file, or a required box is missing or unreadable.
        case damaged(String)
    }

    static func read(_ bytes: [UInt8]) -> Result<HEIFStructure, Failure> {
        do { return .success(try Reader(bytes).structure()) } catch let failure as Failure { return .failure(failure) } catch {
            return .failure(.damaged("\(error)"))
        }
    }

    /// A box: its type and where its content lies in the file.
    private struct Box {
        var type: String
        var content: Range<Int>
    }

    private struct Reader {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func number(_ at: Int, _ count: Int, in range: Range<Int>) throws -> Int {
            guard count >= 0, at >= range.lowerBound, count <= range.upperBound - at else { throw Failure.damaged("a box ends too soon") }
            // Numbers of 7 or 8 bytes are sizes and offsets: none in a file of at most 64 MiB
            // needs more than 6, and no sum of them can then overflow.
            guard count <= 6 || bytes[at..<(at + count - 6)].allSatisfy({ $0 == 0 }) else { throw Failure.damaged("a box gives a size past any file") }
            return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }

        /// What follows the first `skip` bytes of `range` (a full box's version and flags, a
        /// count), refused when the box is shorter than that.
        func rest(of range: Range<Int>, after skip: Int) throws -> Range<Int> {
            guard skip <= range.count else { throw Failure.damaged("a box ends too soon") }
            return (range.lowerBound + skip)..<range.upperBound
        }

        func text(_ at: Int, in range: Range<Int>) throws -> String {
            _ = try number(at, 4, in: range)
            return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
        }

        /// The boxes in `range`, one after another.
        func boxes(in range: Range<Int>) throws -> [Box] {
            var found: [Box] = []
            var at = range.lowerBound
            while at + 8 <= range.upperBound {
                var size = try number(at, 4, in: range)
                let type = try text(at + 4, in: range)
                var header = 8
                if size == 1 {
                    size = try number(at + 8, 8, in: range)
                    header = 16
                } else if size == 0 {
                    size = range.upperBound - at
                }
                guard size >= header, size <= range.upperBound - at else { throw Failure.damaged("the \(type) box runs past its end") }
                found.append(Box(type: type, content: (at + header)..<(at + size)))
                at += size
                // A file has a few dozen boxes at a level; thousands is a file made to be slow.
                guard found.count <= 10_000 else { throw Failure.damaged("too many boxes") }
            }
            return found
        }

        func box(_ type: String, in boxes: [Box]) throws -> Box {
            guard let box = boxes.first(where: { $0.type == type }) else { throw Failure.damaged("it has no \(type) box") }
            return box
        }

        func structure() throws -> HEIFStructure {
            let top = try boxes(in: 0..<bytes.count)
            let meta = try box("meta", in: top)
            // `meta` is a full box: version and flags first.
            let inMeta = try boxes(in: try rest(of: meta.content, after: 4))
            let primary = try primaryItem(try box("pitm", in: inMeta))
            let types = try itemTypes(try box("iinf", in: inMeta))
            guard let primaryType = types[primary] else { throw Failure.damaged("its primary image is not among its items") }
            let properties = try itemProperties(try box("iprp", in: inMeta))
            let iref = inMeta.first { $0.type == "iref" }
            let references = try iref.map { try itemReferences($0, type: "dimg") } ?? [:]
            let idat = inMeta.first { $0.type == "idat" }?.content
            let locations = try inMeta.first { $0.type == "iloc" }.map(itemLocations) ?? [:]

            func property(_ type: String, of item: Int) -> Box? { properties[item]?.first { $0.type == type } }
            func spatialExtent(of item: Int) throws -> (Int, Int)? {
                guard let ispe = property("ispe", of: item) else { return nil }
                return (try number(ispe.content.lowerBound + 4, 4, in: ispe.content), try number(ispe.content.lowerBound + 8, 4, in: ispe.content))
            }
            /// An HEVC item's coded size and bit depth, from its `hvcC` box's parameter set.
            func coded(_ item: Int) throws -> (width: Int, height: Int, depth: Int) {
                guard let hvcC = property("hvcC", of: item) else { throw Failure.damaged("an HEVC image has no hvcC box") }
                guard let sps = try sequenceParameterSet(in: hvcC.content) else { throw Failure.damaged("an HEVC image has no sequence parameter set") }
                return try SequenceParameterSet.read(sps)
            }

            var structure = HEIFStructure(primaryType: primaryType, width: 0, height: 0, codedPixels: 0, largestTilePixels: 0, bitDepth: 8,
                                          colour: nil, codedSizeLies: false)
            if let colr = property("colr", of: primary), try text(colr.content.lowerBound, in: colr.content) == "nclx" {
                structure.colour = NCLX(primaries: try number(colr.content.lowerBound + 4, 2, in: colr.content),
                                        transfer: try number(colr.content.lowerBound + 6, 2, in: colr.content))
            }
            switch primaryType {
            case "hvc1":
                let size = try coded(primary)
                let said = try spatialExtent(of: primary) ?? (size.width, size.height)
                structure.width = said.0
                structure.height = said.1
                structure.codedPixels = size.width * size.height
                structure.largestTilePixels = structure.codedPixels
                structure.bitDepth = size.depth
                structure.codedSizeLies = size.width > said.0 + 64 || size.height > said.1 + 64
            case "grid":
                let tiles = references[primary] ?? []
                guard !tiles.isEmpty else { throw Failure.damaged("its grid has no tiles") }
                guard let location = locations[primary] else { throw Failure.damaged("its grid's fields cannot be found") }
                let grid = try itemData(location, idat: idat)
                // ImageGrid: version, flags (bit 0: 32-bit sizes), rows - 1, columns - 1, width, height.
                let wide = try number(grid.lowerBound + 1, 1, in: grid) & 1 == 1
                let rows = try number(grid.lowerBound + 2, 1, in: grid) + 1
                let columns = try number(grid.lowerBound + 3, 1, in: grid) + 1
                let field = wide ? 4 : 2
                structure.width = try number(grid.lowerBound + 4, field, in: grid)
                structure.height = try number(grid.lowerBound + 4 + field, field, in: grid)
                guard rows * columns == tiles.count else { throw Failure.damaged("its grid of \(rows) × \(columns) has \(tiles.count) tiles") }
                structure.tileType = types[tiles[0]]
                guard structure.isHEIC else { break }
                for tile in Set(tiles) {
                    guard types[tile] == "hvc1" else { throw Failure.damaged("its grid mixes codecs") }
                    let size = try coded(tile)
                    structure.largestTilePixels = max(structure.largestTilePixels, size.width * size.height)
                    structure.bitDepth = max(structure.bitDepth, size.depth)
                    // A tile is at most its share of the grid, rounded up to a coding block.
                    if size.width > structure.width / columns + 64 || size.height > structure.height / rows + 64 { structure.codedSizeLies = true }
                }
                structure.codedPixels = structure.largestTilePixels * tiles.count
            default:
                if let said = try spatialExtent(of: primary) {
                    structure.width = said.0
                    structure.height = said.1
                }
            }
            // A thumbnail refers to the image it shows (`thmb`, from the thumbnail to the primary).
            // One only: libvips takes the first of several, in an order libheif does not promise.
            let thumbnails = try (iref.map { try itemReferences($0, type: "thmb") } ?? [:]).filter { $0.value.contains(primary) }.keys
            if structure.isHEIC, thumbnails.count == 1, let thumbnail = thumbnails.first, types[thumbnail] == "hvc1",
               let size = try? coded(thumbnail), size.width <= HEIFStructure.thumbnailSide, size.height <= HEIFStructure.thumbnailSide {
                structure.hasThumbnail = true
            }
            return structure
        }

        func primaryItem(_ pitm: Box) throws -> Int {
            let version = try number(pitm.content.lowerBound, 1, in: pitm.content)
            return try number(pitm.content.lowerBound + 4, version == 0 ? 2 : 4, in: pitm.content)
        }

        /// Each item's type, from the `infe` boxes of `iinf`.
        func itemTypes(_ iinf: Box) throws -> [Int: String] {
            let version = try number(iinf.content.lowerBound, 1, in: iinf.content)
            var types: [Int: String] = [:]
            for infe in try boxes(in: try rest(of: iinf.content, after: 4 + (version == 0 ? 2 : 4))) where infe.type == "infe" {
                let at = infe.content.lowerBound
                let infeVersion = try number(at, 1, in: infe.content)
                guard infeVersion >= 2 else { continue }  // items of HEIF images are version 2 or 3
                let idSize = infeVersion == 2 ? 2 : 4
                let id = try number(at + 4, idSize, in: infe.content)
                types[id] = try text(at + 4 + idSize + 2, in: infe.content)
            }
            return types
        }

        /// Each item's properties, in the order `ipma` lists them.
        func itemProperties(_ iprp: Box) throws -> [Int: [Box]] {
            let inside = try boxes(in: iprp.content)
            let container = try boxes(in: try box("ipco", in: inside).content)
            let ipma = try box("ipma", in: inside)
            let content = ipma.content
            let version = try number(content.lowerBound, 1, in: content)
            let wideIndex = try number(content.lowerBound + 3, 1, in: content) & 1 == 1
            let count = try number(content.lowerBound + 4, 4, in: content)
            var at = content.lowerBound + 8
            var properties: [Int: [Box]] = [:]
            for _ in 0..<min(count, content.count) {
                let id = try number(at, version < 1 ? 2 : 4, in: content)
                at += version < 1 ? 2 : 4
                let associations = try number(at, 1, in: content)
                at += 1
                for _ in 0..<associations {
                    let entry = try number(at, wideIndex ? 2 : 1, in: content)
                    at += wideIndex ? 2 : 1
                    let index = entry & (wideIndex ? 0x7FFF : 0x7F)
                    if index > 0, index <= container.count { properties[id, default: []].append(container[index - 1]) }
                }
            }
            return properties
        }

        /// The items each item refers to by references of `type`: `dimg`, those it derives from
        /// (a grid's tiles, in order); `thmb`, those it is the thumbnail of.
        func itemReferences(_ iref: Box, type: String) throws -> [Int: [Int]] {
            let version = try number(iref.content.lowerBound, 1, in: iref.content)
            let idSize = version == 0 ? 2 : 4
            var references: [Int: [Int]] = [:]
            for reference in try boxes(in: try rest(of: iref.content, after: 4)) where reference.type == type {
                let content = reference.content
                let from = try number(content.lowerBound, idSize, in: content)
                let count = try number(content.lowerBound + idSize, 2, in: content)
                references[from] = try (0..<count).map { try number(content.lowerBound + idSize + 2 + $0 * idSize, idSize, in: content) }
            }
            return references
        }

        /// Where an item's data is: in the file or in `idat`, and its first extent.
        struct Location {
            var inIdat: Bool
            var offset: Int
            var length: Int
        }

        func itemLocations(_ iloc: Box) throws -> [Int: Location] {
            let content = iloc.content
            let version = try number(content.lowerBound, 1, in: content)
            let sizes = try number(content.lowerBound + 4, 2, in: content)
            let offsetSize = sizes >> 12, lengthSize = (sizes >> 8) & 0xF, baseSize = (sizes >> 4) & 0xF
            let indexSize = version >= 1 ? sizes & 0xF : 0
            var at = content.lowerBound + 6
            let count = try number(at, version < 2 ? 2 : 4, in: content)
            at += version < 2 ? 2 : 4
            var locations: [Int: Location] = [:]
            for _ in 0..<min(count, content.count) {
                let id = try number(at, version < 2 ? 2 : 4, in: content)
                at += version < 2 ? 2 : 4
                var method = 0
                if version >= 1 {
                    method = try number(at, 2, in: content) & 0xF
                    at += 2
                }
                at += 2  // data reference index
                let base = try number(at, baseSize, in: content)
                at += baseSize
                let extents = try number(at, 2, in: content)
                at += 2
                for extent in 0..<extents {
                    at += indexSize
                    let offset = try number(at, offsetSize, in: content)
                    let length = try number(at + offsetSize, lengthSize, in: content)
                    at += offsetSize + lengthSize
                    if extent == 0 { locations[id] = Location(inIdat: method == 1, offset: base + offset, length: length) }
                }
            }
            return locations
        }

        func itemData(_ location: Location, idat: Range<Int>?) throws -> Range<Int> {
            let within = location.inIdat ? (idat ?? 0..<0) : 0..<bytes.count
            let start = within.lowerBound + location.offset
            let end = location.length == 0 ? within.upperBound : start + location.length
            guard location.offset >= 0, start <= end, end <= within.upperBound else { throw Failure.damaged("an item's data lies outside the file") }
            return start..<end
        }

        /// The first sequence parameter set (NAL unit type 33) in an `hvcC` box.
        func sequenceParameterSet(in content: Range<Int>) throws -> [UInt8]? {
            // HEVCDecoderConfigurationRecord: 22 bytes of fields, then its arrays of NAL units.
            let arrays = try number(content.lowerBound + 22, 1, in: content)
            var at = content.lowerBound + 23
            for _ in 0..<arrays {
                let type = try number(at, 1, in: content) & 0x3F
                let units = try number(at + 1, 2, in: content)
                at += 3
                for _ in 0..<units {
                    let length = try number(at, 2, in: content)
                    guard length <= content.upperBound - (at + 2) else { throw Failure.damaged("an HEVC parameter set runs past its box") }
                    if type == 33 { return Array(bytes[(at + 2)..<(at + 2 + length)]) }
                    at += 2 + length
                }
            }
            return nil
        }
    }
}
