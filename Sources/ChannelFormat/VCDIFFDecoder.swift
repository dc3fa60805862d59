import CatalogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies a VCDIFF delta (RFC 3284) to a source file, writing the target file: how the store
/// turns the bundle it has into the next one from a small download. Hand-written because no
/// library the client may use (Foundation, GRDB, swift-crypto) reads VCDIFF.
///
/// It reads what `xdelta3 -S none` writes: the default code table, no secondary compression, and
/// xdelta3's two extensions (an application header, skipped, and an Adler-32 per window,
/// checked). It streams: the delta is read from its file a window at a time, one target window
/// is in memory at a time (at most `windowLimit` bytes, its encoding at most twice that), and
/// copies from the source are read by offset, so memory stays bounded whatever the files'
/// sizes. The delta is untrusted: every length and address is checked, and a delta that does
/// not decode is a `VCDIFFError`, never a crash.
package struct VCDIFFDecoder {
    /// The largest target window decoded: xdelta3's own hard limit in the smallest of its
    /// builds (`XD3_HARDMAXWINSIZE`, 2^24); `digno publish` writes 8 MiB windows.
    package static let windowLimit = 16 << 20

    package var source: String
    /// The most bytes the target may have (the size the signed head declares).
    package var targetLimit: Int

    package init(source: String, targetLimit: Int) {
        self.source = source
        self.targetLimit = targetLimit
    }

    /// Decodes the delta in the file at `delta` into a new file at `target`, and returns the
    /// target's size.
    package func apply(delta: String, to target: String) throws(VCDIFFError) -> Int {
        let deltaFile = open(delta, O_RDONLY | O_CLOEXEC)
        guard deltaFile >= 0 else { throw .io("\(delta) cannot be read", cause: ErrorCause(errno: errno)) }
        defer { close(deltaFile) }
        let sourceFile = open(source, O_RDONLY | O_CLOEXEC)
        guard sourceFile >= 0 else { throw .io("\(source) cannot be read", cause: ErrorCause(errno: errno)) }
        defer { close(sourceFile) }
        // Read as well as written: a VCD_TARGET window copies from the target written so far.
        // Never through a link: the target is a file of the caller's own folder.
        let targetFile = open(target, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard targetFile >= 0 else { throw .io("\(target) cannot be written", cause: ErrorCause(errno: errno)) }
        defer { close(targetFile) }
        var reader = try FileReader(deltaFile)
        var written = 0
        try Self.readHeader(&reader)
        while !reader.isAtEnd {
            let window = try Self.decodeWindow(&reader, sourceFile: sourceFile, targetFile: targetFile, written: written, limit: targetLimit - written)
            try Self.write(window, to: targetFile, at: written)
            written += window.count
        }
        return written
    }

    static func readHeader(_ reader: inout FileReader) throws(VCDIFFError) {
        guard try reader.bytes(4) == [0xD6, 0xC3, 0xC4, 0x00] else { throw .notVCDIFF }
        let indicator = try reader.byte()
        guard indicator & 0x01 == 0 else { throw .unsupported("secondary compression (write it with xdelta3 -S none)") }
        guard indicator & 0x02 == 0 else { throw .unsupported("a code table of its own") }
        guard indicator & ~0x07 == 0 else { throw .malformed("an unknown header flag") }
        if indicator & 0x04 != 0 {
            // xdelta3's application header (the file names): skipped.
            try reader.skip(try reader.integer())
        }
    }

    /// One window's target bytes. `limit` is how many more bytes the target may have; a window
    /// declaring more is refused before anything is decoded or allocated.
    static func decodeWindow(_ file: inout FileReader, sourceFile: Int32, targetFile: Int32, written: Int, limit: Int) throws(VCDIFFError) -> [UInt8] {
        let indicator = try file.byte()
        guard indicator & ~0x07 == 0, indicator & 0x03 != 0x03 else { throw .malformed("a window's flags") }
        var segment: (file: Int32, position: Int, length: Int)?
        if indicator & 0x03 != 0 {
            let length = try file.integer(), position = try file.integer()
            // VCD_TARGET windows copy from the target written so far.
            segment = (indicator & 0x01 != 0 ? sourceFile : targetFile, position, length)
            if indicator & 0x02 != 0, length > written || position > written - length { throw .badAddress }
        }
        // The window's encoding, read whole: its sections, then what they make.
        let encodingLength = try file.integer()
        guard encodingLength <= 2 * windowLimit else { throw .malformed("a window's encoding of \(encodingLength) bytes, more than twice the largest window") }
        var reader = Reader(try file.bytes(encodingLength)[...])
        let targetLength = try reader.integer()
        guard targetLength <= windowLimit else { throw .tooLarge(limit: windowLimit) }
        guard targetLength <= limit else { throw .tooLarge(limit: written + limit) }
        guard try reader.byte() == 0 else { throw .unsupported("compressed sections (write it with xdelta3 -S none)") }
        let dataLength = try reader.integer(), instructionsLength = try reader.integer(), addressesLength = try reader.integer()
        var checksum: UInt32?
        if indicator & 0x04 != 0 {
            let bytes = try reader.bytes(4)
            checksum = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        var data = Reader(try reader.bytes(dataLength))
        var instructions = Reader(try reader.bytes(instructionsLength))
        var addresses = Reader(try reader.bytes(addressesLength))
        guard reader.isAtEnd else { throw .malformed("a window's lengths do not add up") }

        var output: [UInt8] = []
        output.reserveCapacity(targetLength)
        var cache = AddressCache()
        let sourceLength = segment?.length ?? 0
        func copy(_ size: Int, mode: Int) throws(VCDIFFError) {
            let here = sourceLength + output.count
            let address = try cache.decode(mode: mode, here: here, from: &addresses)
            guard address < here else { throw .badAddress }
            // `size` fits the window: the instruction loop checked it.
            var remaining = size, from = address
            if from < sourceLength, let segment {
                // From the source segment, read by offset, never past it.
                let count = min(remaining, sourceLength - from)
                let (offset, overflow) = segment.position.addingReportingOverflow(from)
                guard !overflow, offset <= Int(Int32.max) * 1024 * 1024 else { throw .badAddress }
                output += try read(segment.file, at: offset, count: count)
                remaining -= count
                from += count
            }
            // From this window's own output, byte by byte: the copy may overlap what it writes.
            while remaining > 0 {
                let index = from - sourceLength
                guard index >= 0, index < output.count else { throw .badAddress }
                output.append(output[index])
                from += 1
                remaining -= 1
            }
        }
        while !instructions.isAtEnd {
            let entry = CodeTable.entries[Int(try instructions.byte())]
            for (type, tableSize, mode) in [(entry.type1, entry.size1, entry.mode1), (entry.type2, entry.size2, entry.mode2)] where type != .noop {
                let size = tableSize == 0 ? try instructions.integer() : tableSize
                guard size <= targetLength - output.count else { throw .malformed("an instruction writes past its window") }
                switch type {
                case .noop: break
                case .add: output += try data.bytes(size)
                case .run: output.append(contentsOf: repeatElement(try data.byte(), count: size))
                case .copy: try copy(size, mode: mode)
                }
            }
        }
        guard output.count == targetLength, data.isAtEnd, addresses.isAtEnd else { throw .malformed("a window's sections are not used exactly") }
        if let checksum, adler32(output) != checksum { throw .checksum }
        return output
    }

    /// `count` bytes of `file` from `offset`; `ending` when the file ends before them.
    static func read(_ file: Int32, at offset: Int, count: Int, ending: VCDIFFError = .badAddress) throws(VCDIFFError) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { pread(file, $0 + done, count - done, off_t(offset + done)) } ?? -1
            }
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw .io("reading failed", cause: ErrorCause(errno: errno)) }
            guard result > 0 else { throw ending }  // past the file's end
            done += result
        }
        return bytes
    }

    static func write(_ bytes: [UInt8], to file: Int32, at offset: Int) throws(VCDIFFError) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { pwrite(file, $0 + done, bytes.count - done, off_t(offset + done)) } ?? -1
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw .io("writing failed", cause: ErrorCause(errno: errno)) }
            done += result
        }
    }

    /// Adler-32, as xdelta3 checks each window.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes at most between reductions keeps the sums within 32 bits.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
