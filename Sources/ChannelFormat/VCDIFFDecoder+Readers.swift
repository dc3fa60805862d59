import CatalogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VCDIFFDecoder {
    /// The delta file, read from the front a piece at a time.
    struct FileReader: ByteReader {
        let file: Int32
        /// The file's size when it was opened.
        let size: Int
        private(set) var position = 0
        private var buffer: [UInt8] = []
        private var bufferStart = 0

        init(_ file: Int32) throws(VCDIFFError) {
            var info = stat()
            guard fstat(file, &info) == 0 else { throw .io("the file cannot be measured", cause: ErrorCause(errno: errno)) }
            self.file = file
            size = Int(info.st_size)
        }

        var isAtEnd: Bool { position >= size }

        mutating func byte() throws(VCDIFFError) -> UInt8 {
            guard position < size else { throw .truncated }
            if position < bufferStart || position >= bufferStart + buffer.count {
                buffer = try VCDIFFDecoder.read(file, at: position, count: min(1 << 16, size - position), ending: .truncated)
                bufferStart = position
            }
            defer { position += 1 }
            return buffer[position - bufferStart]
        }

        /// `count` bytes, checked against the file's size before anything is allocated.
        mutating func bytes(_ count: Int) throws(VCDIFFError) -> [UInt8] {
            guard count >= 0, count <= size - position else { throw .truncated }
            let start = position
            position += count
            if start >= bufferStart, start + count <= bufferStart + buffer.count {
                return Array(buffer[(start - bufferStart)..<(start - bufferStart + count)])
            }
            return try VCDIFFDecoder.read(file, at: start, count: count, ending: .truncated)
        }

        mutating func skip(_ count: Int) throws(VCDIFFError) {
            guard count >= 0, count <= size - position else { throw .truncated }
            position += count
        }
    }

    /// Bytes in memory (a window's encoding, or one of its sections: slices of the encoding,
    /// not copies) read from the front, each read checked.
    struct Reader: ByteReader {
        let bytes: ArraySlice<UInt8>
        private(set) var position: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        var isAtEnd: Bool { position == bytes.endIndex }

        mutating func byte() throws(VCDIFFError) -> UInt8 {
            guard position < bytes.endIndex else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func bytes(_ count: Int) throws(VCDIFFError) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.endIndex - position else { throw .truncated }
            defer { position += count }
            return bytes[position..<position + count]
        }
    }

    /// What both readers share: VCDIFF's integers.
    protocol ByteReader {
        mutating func byte() throws(VCDIFFError) -> UInt8
    }
}

extension VCDIFFDecoder.ByteReader {
    /// VCDIFF's integer: base 128, most significant digit first, the top bit set on all but the
    /// last; at most 2^62, far beyond any real length.
    mutating func integer() throws(VCDIFFError) -> Int {
        var value = 0
        for _ in 0..<9 {
            let digit = try byte()
            guard value < 1 << 55 else { throw .malformed("an integer too large") }
            value = value << 7 | Int(digit & 0x7F)
            if digit & 0x80 == 0 { return value }
        }
        throw .malformed("an integer too long")
    }
}
