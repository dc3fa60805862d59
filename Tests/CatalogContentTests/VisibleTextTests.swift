@testable import CatalogContent
import CatalogModel
import Testing

/// `unwantedControl` reads UTF-8 bytes by hand; here it is held to the plain definition over
/// every scalar up to U+FFFF and a few beyond, alone and between other characters.
@Suite struct VisibleTextTests {
    static func isUnwanted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test func theByteReadingAgreesWithTheDefinitionForEveryScalar() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected: Unicode.Scalar? = Self.isUnwanted(scalar) ? scalar : nil
            let alone = String(Character(scalar)), between = "ä\(Character(scalar))€"
            if alone.unwantedControl != expected || between.unwantedControl != expected || between.dropFirst().unwantedControl != expected {
                disagreements.append(value)
            }
        }
        #expect(disagreements == [])
        #expect("☕\u{1F600}".unwantedControl == nil)
        #expect("x\u{96}y\u{202E}".unwantedControl == "\u{96}", "the first one is named")
    }
}
