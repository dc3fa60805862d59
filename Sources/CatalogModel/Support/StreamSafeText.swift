/// Unicode's stream-safe text format (UAX #15, section 13): no more than 30 non-starters
/// (characters of a canonical combining class other than 0, such as U+0301 COMBINING ACUTE
/// ACCENT) in a row. Normalization sorts each run of non-starters, which takes time growing
/// with the square of the run's length (a letter with 160,000 accents took 21.8 s to read), and
/// such a run draws a column of accents hundreds of thousands of characters high on one letter,
/// which the character count of a field's limit counts as one character. No language needs
/// more than a few; text with a longer run is refused, by the compiler before it normalizes a
/// content file and by the bundle reader.
///
/// Counted as the text is written, one scalar at a time: a precomposed letter counts as a
/// starter, though its decomposition may end with a non-starter or two.
package enum StreamSafeText {
    /// The most non-starters a run may hold.
    package static let maximumRun = 30

    /// A run of non-starters longer than `maximumRun`: where the character carrying it starts
    /// (a byte offset: the starter before the run, or the run's first mark when nothing is
    /// before it), and how many non-starters the run holds.
    package struct Excess: Equatable, Sendable {
        package var offset: Int
        package var length: Int
    }

    /// The first run of non-starters in UTF-8 `bytes` longer than the limit; nil when there is
    /// none. Linear, and a scan of the bytes alone for text with no character from U+0300 up
    /// (every character below it is a starter: U+0300 is the first of another class). A byte
    /// that is not UTF-8 counts as a starter: whether the bytes are UTF-8 is checked elsewhere.
    package static func excess(in bytes: UnsafeBufferPointer<UInt8>) -> Excess? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        var run = 0
        var runStart = 0
        while index < count {
            if base[index] < 0xCC {
                // ASCII, a continuation byte, or a character below U+0300: a starter.
                if run > maximumRun { break }
                run = 0
                index += 1
                // Then to the next byte from 0xCC up, eight at a time, as `NFC` in the compiler
                // does: in a word, a byte with its top bit set whose low seven bits plus 0x34
                // reach 0x80 is one (no carry crosses a byte).
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x3434_3434_3434_3434) & word & 0x8080_8080_8080_8080 != 0 { break }
                    index += 8
                }
                continue
            }
            let (scalar, length) = decode(bytes, at: index)
            if let scalar, scalar.properties.canonicalCombiningClass != .notReordered {
                if run == 0 { runStart = index }
                run += 1
            } else {
                if run > maximumRun { break }
                run = 0
            }
            index += length
        }
        guard run > maximumRun else { return nil }
        // The character carrying the run: the one before its first mark, found by stepping
        // back over continuation bytes; the first mark itself when the run opens the text.
        var carrier = runStart
        if carrier > 0 {
            carrier -= 1
            while carrier > 0, base[carrier] & 0xC0 == 0x80 { carrier -= 1 }
        }
        return Excess(offset: carrier, length: run)
    }

    /// The first run longer than the limit in `text`; nil when there is none.
    package static func excess(in text: String) -> Excess? {
        var text = text
        return text.withUTF8 { excess(in: $0) }
    }

    /// The scalar whose UTF-8 starts at `index` (a lead byte from 0xCC up), and how many bytes
    /// to step; nil and one byte for a sequence that is not UTF-8.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 1
        guard length > 1, index + length <= bytes.count else { return (nil, 1) }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // An overlong form (U+0301 as E0 8C 81, say) is not UTF-8: a starter, as any bad byte.
        guard value >= (length == 3 ? 0x800 : length == 4 ? 0x10000 : 0x80) else { return (nil, 1) }
        return (Unicode.Scalar(value), length)
    }
}
