import CatalogModel
import Foundation

/// Unicode Normalization Form C (composed: "é" as U+00E9, not "e" and U+0301), the form every
/// text, attribute value and id is read in, and the form the content digest hashes. Editors
/// and copy tools write either form (macOS often the decomposed one); the app, the duplicate
/// checks and the digest must see one text, not two.
///
/// Nearly all content is NFC already, and most of it can be told so from its bytes alone:
/// - **Below U+0300.** Every code point below U+0300 has NFC_Quick_Check=Yes and canonical
///   combining class 0 (Unicode's DerivedNormalizationProps.txt: the first NFC_QC=Maybe is
///   U+0300 COMBINING GRAVE ACCENT, the first NFC_QC=No U+0340). U+0300 is also the NFC
///   data's `minCompNoMaybeCP` in ICU (`Normalizer2Impl`, index IX_MIN_COMP_NO_MAYBE_CP),
///   below which ICU's own quick check says yes without a lookup; `unorm2_quickCheck` over
///   every code point, with the system's ICU 72.1 (Unicode 15.0), finds none below it that is
///   not yes. A text of such characters passes UAX #15's quick check, so it is NFC. In UTF-8
///   they are exactly the texts with no byte from 0xCC up (U+0300 is CC 80; continuation bytes
///   are at most 0xBF): Finnish with å, ä and ö costs a scan, eight bytes at a time (0.1 ns a
///   byte in a release build, a tenth of what making the `String` costs).
/// - **U+2002 to U+20CF** (spaces, dashes, quotes, bullets, the ellipsis, currency signs such
///   as €) are NFC_QC=Yes with combining class 0 too, in the same data and the same ICU check:
///   an en dash, common in the content ("1–2 dl"), is stepped over where it stands, not sent
///   to the slow path.
/// Anything else is asked of the standard library's quick check (`UTF8Span.checkForNFC`), and
/// only a text that fails it is normalised, by Foundation. A test checks both ranges against
/// the standard library's data.
enum NFC {
    /// `text` in NFC: `text` itself when it already is (no copy).
    static func normalized(_ text: String) -> String {
        var text = text
        if text.withUTF8(isKnownNFC) { return text }
        return normalized(unknown: text)
    }

    /// `bytes`, UTF-8, as a `String` in NFC.
    static func string(decoding bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return isKnownNFC(bytes) ? text : normalized(unknown: text)
    }

    /// `bytes` (a whole file, for the content digest) in NFC: the bytes themselves when they
    /// already are. Bytes that are not UTF-8 are read with U+FFFD in place of each bad
    /// sequence; such a file is an error, so its digest never reaches a manifest.
    static func normalized(utf8 bytes: [UInt8]) -> [UInt8] {
        if bytes.withUnsafeBufferPointer(isKnownNFC) { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        let normalized = normalized(unknown: text)
        return normalized.utf8.elementsEqual(bytes) ? bytes : Array(normalized.utf8)
    }

    /// Whether UTF-8 `bytes` are NFC by their bytes alone: every character below U+0300 or
    /// from U+2002 to U+20CF. False says only that a closer look is needed.
    static func isKnownNFC(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while true {
            // To the next byte from 0xCC up, eight at a time: in a word, a byte with its top
            // bit set whose low seven bits plus 0x34 reach 0x80 is one (no carry crosses a
            // byte, as each low part plus 0x34 is at most 0xB3).
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x3434_3434_3434_3434) & word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            while index < count, base[index] < 0xCC { index += 1 }
            guard index < count else { return true }
            // E2 80 82 (U+2002) to E2 83 8F (U+20CF), and nothing else, is stepped over.
            guard index + 2 < count, base[index] == 0xE2, (0x80...0x83).contains(base[index + 1]),
                base[index + 2] & 0xC0 == 0x80
            else { return false }
            let scalar = 0x2000 | (UInt32(base[index + 1] & 0x3F) << 6) | UInt32(base[index + 2] & 0x3F)
            guard knownRange.contains(scalar) else { return false }
            index += 3
        }
    }

    /// The characters from U+0300 up that `isKnownNFC` passes (internal for the test).
    static let knownRange: ClosedRange<UInt32> = 0x2002...0x20CF

    /// `text`, whose bytes `isKnownNFC` did not pass, in NFC: first the standard library's
    /// quick check, which passes Greek, Cyrillic, CJK and most other NFC text; then Foundation.
    static func normalized(unknown text: String) -> String {
        // Normalization sorts each run of combining marks, in time growing with the square of
        // its length. A longer run than stream-safe text allows (which a file can write as
        // character references, which its bytes do not show) is left as it is: the catalogue
        // rules refuse it (`combining-marks`), so it never reaches a bundle.
        if StreamSafeText.excess(in: text) != nil { return text }
        #if compiler(>=6.2)  // UTF8Span came with Swift 6.2; the package's tools version is 6.0
        if #available(macOS 26, iOS 26, *) {
            var span = text.utf8Span
            if span.checkForNFC(quickCheck: true) { return text }
        }
        #endif
        return text.precomposedStringWithCanonicalMapping
    }
}
