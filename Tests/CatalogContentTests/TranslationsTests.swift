import CatalogContent
import CatalogModel
import Foundation
import Testing

/// `Translations`: each field's text per language, found as fast in an entity of thousands of
/// translated lines as in one of ten, and the same value however it is found.
@Suite struct TranslationsTests {
    /// `count` ingredient lines translated into Swedish and English, in order.
    static func lines(_ count: Int) -> Translations {
        var translations = Translations()
        for line in 0..<count {
            translations.add(.text("rad \(line)"), for: .ingredient(line), in: "sv")
            translations.add(.text("line \(line)"), for: .ingredient(line), in: "en")
        }
        return translations
    }

    @Test(arguments: [3, 16, 17, 500])
    func everyTextIsFoundAndNoneIsGivenTwice(count: Int) throws {
        var translations = Self.lines(count)
        #expect(translations.entries.count == 2 * count)
        for line in 0..<count {
            #expect(translations[.ingredient(line), "sv"] == .text("rad \(line)"))
            #expect(translations[.ingredient(line), "en"] == .text("line \(line)"))
            #expect(translations[.ingredient(line), "de"] == nil)
        }
        #expect(translations[.ingredient(count), "sv"] == nil)
        let added = translations.add(.text("again"), for: .ingredient(count - 1), in: "sv")
        #expect(!added)
        #expect(translations[.ingredient(count - 1), "sv"] == .text("rad \(count - 1)"))
        // Equal to the same list however it was built, and through JSON.
        let decoded = try JSONDecoder().decode(Translations.self, from: JSONEncoder().encode(translations))
        #expect(decoded == translations && decoded.hashValue == translations.hashValue)
        #expect(decoded[.ingredient(count - 1), "en"] == .text("line \(count - 1)"))
        #expect(Self.lines(count) == translations)
        #expect(Self.lines(count + 1) != translations)
    }
}
