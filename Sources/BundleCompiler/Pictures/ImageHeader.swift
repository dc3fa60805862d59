/// The format and pixel size of a PNG or JPEG file, read from its header.
///
/// Hand-written: Foundation on Linux has no image decoding, and the compiler needs only the
/// signature and the size, which both formats state in their first bytes (PNG's IHDR chunk,
/// JPEG's start-of-frame marker), and that the file is not cut short (PNG's chunk chain to
/// IEND, the JPEG's own image reaching its end-of-image marker: `JPEGStructure`) or, for a PNG,
/// damaged (each chunk's CRC-32).
struct ImageHeader: Hashable, Sendable {
    /// `.png` or `.jpeg`.
    var format: PictureFormat
    var width: Int
    var height: Int

    enum Failure: Error, Equatable {
        /// No bytes at all: a copy or an export that failed.
        case empty
        /// Neither the PNG nor the JPEG signature.
        case notAnImage
        /// The signature is right but the size cannot be read.
        case unreadableDimensions(PictureFormat)
        /// The file ends too soon: a PNG chunk runs past the end or there is no IEND chunk; a
        /// JPEG has no end-of-image marker after its first scan. Decoders show such a file
        /// half drawn or not at all.
        case truncated(PictureFormat)
        /// A PNG chunk whose bytes do not match its CRC-32: decoders refuse the file, or
        /// show it broken.
        case checksum(chunk: String)
    }

    static func read(_ bytes: [UInt8]) -> Result<ImageHeader, Failure> {
        if bytes.isEmpty { return .failure(.empty) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard let header = png(bytes) else { return .failure(.unreadableDimensions(.png)) }
            return pngFailure(bytes).map { .failure($0) } ?? .success(header)
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            switch JPEGStructure.read(bytes) {
            case .success(let structure):
                let header = ImageHeader(format: .jpeg, width: structure.width, height: structure.height)
                return structure.isWhole ? .success(header) : .failure(.truncated(.jpeg))
            case .failure(.noFrame): return .failure(.unreadableDimensions(.jpeg))
            case .failure(.cutShort): return .failure(.truncated(.jpeg))
            }
        }
        return .failure(.notAnImage)
    }

    /// PNG: the first chunk must be IHDR, holding width and height as big-endian 32-bit numbers.
    private static func png(_ bytes: [UInt8]) -> ImageHeader? {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let width = bigEndian(bytes, at: 16, count: 4)
        let height = bigEndian(bytes, at: 20, count: 4)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else { return nil }
        return ImageHeader(format: .png, width: width, height: height)
    }

    /// What is wrong with the PNG's chunks (length, type, data, CRC), if anything: they must
    /// follow one another to an IEND chunk that ends inside the file, each with the CRC-32 of
    /// its type and data. Bytes after IEND are ignored, as decoders ignore them.
    private static func pngFailure(_ bytes: [UInt8]) -> Failure? {
        var index = 8
        while index + 12 <= bytes.count {
            let length = bigEndian(bytes, at: index, count: 4)
            let end = index + 12 + length
            guard end <= bytes.count else { return .truncated(.png) }
            let type = bytes[(index + 4)..<(index + 8)]
            if CRC32.of(bytes[(index + 4)..<(end - 4)]) != UInt32(bigEndian(bytes, at: end - 4, count: 4)) {
                return .checksum(chunk: String(decoding: type, as: UTF8.self))
            }
            if type.elementsEqual("IEND".utf8) { return nil }
            index = end
        }
        return .truncated(.png)
    }

    /// The samples a pixel of the PNG in `bytes` has once decoded at 8 bits: grey 1, grey and
    /// alpha 2, colour (or a palette's) 3, with alpha or a tRNS transparency chunk 4 (2 in grey).
    static func pngChannels(_ bytes: [UInt8]) -> Int {
        guard bytes.count > 25 else { return 4 }
        let base = switch bytes[25] {
        case 0: 1
        case 4: 2
        case 6: 4
        default: 3
        }
        guard base == 1 || base == 3 else { return base }
        // A tRNS chunk before the image data adds alpha.
        var index = 8
        while index + 8 <= bytes.count {
            let type = bytes[(index + 4)..<(index + 8)]
            if type.elementsEqual("tRNS".utf8) { return base + 1 }
            if type.elementsEqual("IDAT".utf8) { break }
            index += 12 + bigEndian(bytes, at: index, count: 4)
        }
        return base
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
