#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches over a file's bytes. Each is one pass with `memchr` or a loop over the buffer,
/// never a slice per byte: they run over whole files of up to 4 MiB, in debug builds too,
/// where a slice per byte cost a second a file.
extension SourceText {
    /// The offset of the first `byte` at or after `start`, and before `end` if given, if any.
    static func firstOffset(of byte: UInt8, in bytes: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start >= 0, start < end else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The offset of the first `marker` at or after `start`, if any.
    static func firstOffset(of marker: String, in bytes: [UInt8], from start: Int) -> Int? {
        let marker = Array(marker.utf8)
        guard let first = marker.first else { return nil }
        var from = start
        while let candidate = firstOffset(of: first, in: bytes, from: from) {
            if startsWith(bytes, marker, at: candidate) { return candidate }
            from = candidate + 1
        }
        return nil
    }

    /// The offset just after the first `marker` at or after `start` (such as the `-->` that
    /// ends a comment), or past the end of `bytes` if there is none.
    static func offset(after marker: String, in bytes: [UInt8], from start: Int) -> Int {
        (firstOffset(of: marker, in: bytes, from: start) ?? max(start, bytes.count)) + marker.utf8.count
    }

    /// The offset of the last `marker` that starts before `end`, if any.
    static func offset(ofLast marker: String, in bytes: [UInt8], before end: Int) -> Int? {
        let marker = Array(marker.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var start = min(end - 1, buffer.count - marker.count)
            while start >= 0 {
                if marker.isEmpty || buffer[start] == marker[0], startsWith(buffer, marker, at: start) { return start }
                start -= 1
            }
            return nil
        }
    }

    /// Whether `marker` is written at `offset`.
    static func startsWith(_ bytes: [UInt8], _ marker: String, at offset: Int) -> Bool {
        startsWith(bytes, Array(marker.utf8), at: offset)
    }

    static func startsWith(_ bytes: [UInt8], _ marker: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBufferPointer { startsWith($0, marker, at: offset) }
    }

    private static func startsWith(_ buffer: UnsafeBufferPointer<UInt8>, _ marker: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + marker.count <= buffer.count else { return false }
        for (index, byte) in marker.enumerated() where buffer[offset + index] != byte { return false }
        return true
    }

    /// The offset of the first byte that is not part of valid UTF-8, if any: the first byte of
    /// the first sequence that is not well-formed (Unicode, table 3-7), as Swift's decoder
    /// finds it.
    func firstInvalidUTF8Offset() -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                // The sequence's length and the range its second byte must fall in.
                let length: Int
                var second: ClosedRange<UInt8> = 0x80...0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; second = 0xA0...0xBF
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; second = 0x80...0x9F
                case 0xF0: length = 4; second = 0x90...0xBF
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; second = 0x80...0x8F
                default: return index
                }
                guard index + length <= buffer.count, second.contains(buffer[index + 1]) else { return index }
                for offset in 2..<length where !(0x80...0xBF).contains(buffer[index + offset]) { return index }
                index += length
            }
            return nil
        }
    }
}
