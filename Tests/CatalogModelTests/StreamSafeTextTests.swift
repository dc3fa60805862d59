@testable import CatalogModel
import Testing

/// Runs of combining marks longer than Unicode's stream-safe limit (UAX #15: 30 non-starters).
@Suite struct StreamSafeTextTests {
    static func marks(_ count: Int, _ mark: Character = "\u{301}") -> String {
        String(repeating: mark, count: count)
    }

    @Test func thirtyMarksInARowAreText() {
        #expect(StreamSafeText.excess(in: "a" + Self.marks(30)) == nil)
        #expect(StreamSafeText.excess(in: "a" + Self.marks(30) + "b" + Self.marks(30)) == nil)
        #expect(StreamSafeText.excess(in: "Café Latte, crème brûlée, Ἀθῆναι") == nil)
        #expect(StreamSafeText.excess(in: "") == nil)
    }

    @Test func theCharacterCarryingTheRunIsFoundWithTheWholeRunCounted() {
        // "Café " is six bytes: the "a" carrying the run starts at byte 6.
        #expect(StreamSafeText.excess(in: "Café a" + Self.marks(31)) == .init(offset: 6, length: 31))
        #expect(StreamSafeText.excess(in: "Café a" + Self.marks(40) + "b" + Self.marks(50)) == .init(offset: 6, length: 40))
        #expect(StreamSafeText.excess(in: "Café a" + Self.marks(30) + "b" + Self.marks(50)) == .init(offset: 6 + 1 + 60, length: 50))
        // Marks of different classes, which normalization would reorder, count alike; so do
        // the marks after a character from U+0300 up (here the Greek alpha, two bytes).
        #expect(StreamSafeText.excess(in: "Café α" + String(repeating: "\u{301}\u{316}", count: 20)) == .init(offset: 6, length: 40))
        // A run with nothing before it, of a supplementary mark (U+1D167, class 1).
        #expect(StreamSafeText.excess(in: Self.marks(31, "\u{1D167}")) == .init(offset: 0, length: 31))
    }

    @Test func aStarterOrABadByteEndsARun() {
        let bytes: [UInt8] = Array(("a" + Self.marks(20)).utf8) + [0xFF] + Array(Self.marks(20).utf8)
        #expect(bytes.withUnsafeBufferPointer(StreamSafeText.excess) == nil)
        let cut: [UInt8] = Array(("a" + Self.marks(31)).utf8.dropLast())  // the last mark's second byte missing
        #expect(cut.withUnsafeBufferPointer(StreamSafeText.excess) == nil)
        // U+0301 written overlong (E0 8C 81) is not UTF-8, so not a mark.
        let overlong: [UInt8] = [0x61] + Array(repeating: [0xE0, 0x8C, 0x81], count: 31).flatMap { $0 }
        #expect(overlong.withUnsafeBufferPointer(StreamSafeText.excess) == nil)
    }

    /// The bytes are decoded by hand; every scalar of the Basic Multilingual Plane, repeated past
    /// the limit, is refused exactly when the standard library says it is a non-starter.
    @Test func everyScalarOfThePlaneAgreesWithTheStandardLibrary() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var text = "a"
            text.unicodeScalars.append(contentsOf: repeatElement(scalar, count: 31))
            let expected = scalar.properties.canonicalCombiningClass != .notReordered
            if (StreamSafeText.excess(in: text) != nil) != expected { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty)
    }
}
