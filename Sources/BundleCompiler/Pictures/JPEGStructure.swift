import Foundation

/// A JPEG file's structure, walked marker by marker from its start as a decoder reads it: the
/// frame (its kind, precision, size and components), how many scans it has, and whether the
/// main image ends with its end-of-image marker. Segments are skipped by their length, so the
/// markers of an EXIF thumbnail (inside its APP1 segment) are never taken for the main image's.
///
/// Read by hand: libjpeg-turbo 2.1.5 reads the same markers, but only while decoding, and has no
/// limit on a progressive file's scans; this reading decides before a pixel is decoded.
struct JPEGStructure: Equatable, Sendable {
    /// The start-of-frame marker's number: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC3
    /// lossless, 0xC9 and 0xCA arithmetic-coded, the rest hierarchical.
    var frame: UInt8
    /// Bits per sample: 8, or 12 (and up to 16 in lossless files).
    var precision: Int
    var width: Int
    var height: Int
    /// Each component's sampling factors, horizontal and vertical (1 to 4).
    var components: [Sampling]
    /// How many start-of-scan markers the main image has before its end.
    var scans: Int
    /// Whether the walk reached the end-of-image marker after the last scan: a file cut short
    /// has none (or only its thumbnail's, inside a segment).
    var isWhole: Bool

    struct Sampling: Equatable, Sendable {
        var horizontal: Int
        var vertical: Int
    }

    /// Whether the frame is one libjpeg-turbo decodes: baseline, extended and progressive
    /// Huffman-coded (0xC0–0xC2) or arithmetic-coded (0xC9, 0xCA), at 8 bits.
    var isDecodable: Bool { [0xC0, 0xC1, 0xC2, 0xC9, 0xCA].contains(frame) && precision == 8 }

    /// Whether libjpeg keeps every coefficient of the picture while decoding: a progressive file,
    /// or one whose components come in separate scans.
    var keepsCoefficients: Bool { frame == 0xC2 || frame == 0xCA || scans > 1 }

    /// What the file is, where it is not a JPEG the compiler takes: "a 12-bit JPEG", "a
    /// lossless JPEG", "a hierarchical JPEG"; nil where it is one.
    var unsupportedKind: String? {
        if isDecodable { return nil }
        if frame == 0xC3 || frame == 0xCB { return "a lossless JPEG" }
        if [0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF].contains(frame) { return "a hierarchical JPEG" }
        return "a \(precision)-bit JPEG"
    }

    enum Failure: Error, Equatable {
        /// No frame header before the first scan or the end, or one with no size.
        case noFrame
        /// The file ends inside a segment or a scan's data, or with no end-of-image marker.
        case cutShort
    }

    /// The structure of the JPEG in `bytes` (which starts with its SOI marker).
    static func read(_ bytes: [UInt8]) -> Result<JPEGStructure, Failure> {
        bytes.withUnsafeBufferPointer { read($0) }
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JPEGStructure, Failure> {
        var structure: JPEGStructure?
        var scans = 0
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return structure == nil ? .failure(.noFrame) : .failure(.cutShort) }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // a fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            if marker == 0xD9 {
                guard var found = structure, scans > 0 else { return structure == nil ? .failure(.noFrame) : .failure(.cutShort) }
                found.scans = scans
                found.isWhole = true
                return .success(found)
            }
            guard index + 4 <= bytes.count else { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let end = index + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), structure == nil {
                guard let frame = frame(marker, bytes[(index + 4)..<end]) else { return .failure(.noFrame) }
                structure = frame
            }
            index = end
            if marker == 0xDA {
                guard structure != nil else { return .failure(.noFrame) }
                scans += 1
                // The scan's entropy-coded data runs to the next marker that is not a stuffed
                // zero (FF 00) or a restart (FF D0–D7).
                guard let next = nextMarker(bytes, from: index) else { break }
                index = next
            }
        }
        guard var found = structure else { return .failure(.noFrame) }
        found.scans = scans
        found.isWhole = false
        return .success(found)
    }

    /// The frame header's fields: precision, height, width, then each component's id, sampling
    /// factors and quantisation table.
    private static func frame(_ marker: UInt8, _ fields: Slice<UnsafeBufferPointer<UInt8>>) -> JPEGStructure? {
        let fields = Array(fields)
        guard fields.count >= 6 else { return nil }
        let height = Int(fields[1]) << 8 | Int(fields[2])
        let width = Int(fields[3]) << 8 | Int(fields[4])
        let count = Int(fields[5])
        guard width > 0, height > 0, count > 0, fields.count >= 6 + 3 * count else { return nil }
        let components = (0..<count).map { component in
            let factors = fields[6 + 3 * component + 1]
            return Sampling(horizontal: max(1, Int(factors >> 4)), vertical: max(1, Int(factors & 0x0F)))
        }
        return JPEGStructure(frame: marker, precision: Int(fields[0]), width: width, height: height, components: components, scans: 0, isWhole: false)
    }

    /// Where the marker after entropy-coded data starting at `start` begins, or nil if the file
    /// ends first.
    private static func nextMarker(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index < bytes.count {
            guard let found = memchr(base + index, 0xFF, bytes.count - index) else { return nil }
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard at + 1 < bytes.count else { return nil }
            let next = bytes[at + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) { index = at + 2; continue }
            if next == 0xFF { index = at + 1; continue }  // fill bytes before a marker
            return at
        }
        return nil
    }

    /// The bytes libjpeg keeps for the coefficients of the whole picture when it must
    /// (`keepsCoefficients`): 64 two-byte coefficients for every 8 × 8 block of every
    /// component, at the component's own sampling; none otherwise.
    var coefficientBytes: Int {
        guard keepsCoefficients else { return 0 }
        let most = (horizontal: components.map(\.horizontal).max() ?? 1, vertical: components.map(\.vertical).max() ?? 1)
        return components.reduce(0) { total, component in
            // The component's blocks across and down, rounded up to its sampling factor as
            // libjpeg pads them.
            func blocks(_ size: Int, _ factor: Int, _ most: Int) -> Int {
                let count = (size * factor + most * 8 - 1) / (most * 8)
                return (count + factor - 1) / factor * factor
            }
            return total + blocks(width, component.horizontal, most.horizontal) * blocks(height, component.vertical, most.vertical) * 128
        }
    }
}
