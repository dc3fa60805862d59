import CatalogModel
import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `FileLoader` does to every file's bytes before parsing them: the digest, line ends,
/// NUL bytes.
extension FileLoader {
    /// SHA-256 of `bytes` in Unicode NFC (`NFC`) with every CR LF made LF (lone CRs were made
    /// LF on reading), so that neither line endings nor composed or decomposed accents change
    /// it: the same content in either form builds the same bundle, so it has the same digest.
    /// Pieces between CRs are found with `memchr` and hashed whole; most files have no CR.
    static func digest(_ bytes: [UInt8]) -> String {
        let bytes = NFC.normalized(utf8: bytes)
        var hasher = SHA256()
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            var searchFrom = 0
            while searchFrom < buffer.count, let found = memchr(base + searchFrom, 0x0D, buffer.count - searchFrom) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A {
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<index])))
                    start = index + 1
                }
                searchFrom = index + 1
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start...])))
        }
        return hasher.finalize().hexString
    }

    /// Turns each CR that no LF follows (the line end of old Mac OS files) into LF, in place.
    ///
    /// XML makes every CR LF and lone CR an LF before parsing (XML 1.0 §2.11), so the content
    /// is the same; but libxml2 counts only LF bytes as line ends, and a file with lone CRs
    /// was one long line 1 in every diagnostic. With LF in their place libxml2's lines, our
    /// columns and the content digest (which reads CR LF as LF) are those of the same file
    /// saved with LF. Byte offsets do not move. `memchr`, since every file is scanned; the
    /// bytes are only written to (and so never copied) when a lone CR is there.
    static func makeLoneCRsLF(_ bytes: inout [UInt8]) {
        let loneCRs = bytes.withUnsafeBufferPointer { buffer -> [Int] in
            guard let base = buffer.baseAddress else { return [] }
            var found: [Int] = []
            var searchFrom = 0
            while searchFrom < buffer.count, let match = memchr(base + searchFrom, 0x0D, buffer.count - searchFrom) {
                let index = base.distance(to: match.assumingMemoryBound(to: UInt8.self))
                if index + 1 == buffer.count || buffer[index + 1] != 0x0A { found.append(index) }
                searchFrom = index + 1
            }
            return found
        }
        for index in loneCRs { bytes[index] = 0x0A }
    }

    /// The offset of the first NUL byte in `bytes`, if any; `memchr`, since every file is
    /// scanned.
    static func firstNUL(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, 0, buffer.count) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
