/// A camera JPEG's EXIF thumbnail: the JPEG that IFD1 of its APP1 `Exif` segment locates
/// (`JPEGInterchangeFormat`, 0x0201, and its length, 0x0202; CIPA DC-008, 4.6.5), in the file's
/// bytes. What the preview shows while the renditions are made (`StandIn`); never a rendition's
/// source. Nil where there is none or where any offset points outside its segment.
///
/// Read by hand: libvips reads the EXIF block but not its thumbnail, and libexif is not among
/// the libraries linked. Every number is checked against the segment before it is used.
enum EXIFThumbnail {
    static func find(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        // Segments up to the first scan: EXIF comes before the picture's data.
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let end = index + 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            guard end <= bytes.count, end >= index + 4 else { return nil }
            if marker == 0xE1, end - index >= 10, bytes[(index + 4)..<(index + 10)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return thumbnail(in: bytes[(index + 10)..<end])
            }
            index = end
        }
        return nil
    }

    /// The thumbnail in a TIFF structure (the EXIF block after its `Exif\0\0`).
    private static func thumbnail(in tiff: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let start = tiff.startIndex
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[start], tiff[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        /// The number of `size` bytes at `offset` from the TIFF header, or nil past its end.
        func number(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset <= tiff.count - size else { return nil }
            let field = tiff[(start + offset)..<(start + offset + size)]
            return (littleEndian ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard number(2, 2) == 42, let ifd0 = number(4, 4), let count0 = number(ifd0, 2),
              let ifd1 = number(ifd0 + 2 + 12 * count0, 4), ifd1 > 0, let count1 = number(ifd1, 2) else { return nil }
        var offset: Int?
        var length: Int?
        for entry in 0..<count1 {
            let at = ifd1 + 2 + 12 * entry
            guard let tag = number(at, 2), let type = number(at + 2, 2) else { return nil }
            // A LONG, or a SHORT (left-aligned in the entry's four bytes).
            let value = type == 3 ? number(at + 8, 2) : number(at + 8, 4)
            if tag == 0x0201 { offset = value }
            if tag == 0x0202 { length = value }
        }
        guard let offset, let length, length >= 4, offset >= 8, offset <= tiff.count - length else { return nil }
        let thumbnail = tiff[(start + offset)..<(start + offset + length)]
        guard thumbnail.starts(with: [0xFF, 0xD8]) else { return nil }
        return thumbnail
    }
}
