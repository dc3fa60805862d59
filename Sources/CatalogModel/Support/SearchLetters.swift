import Foundation

/// Text as the letter-keeping search index holds it, and as a query is matched against it:
/// every accent removed but from the letters that are letters of their own in the language
/// (å, ä and ö in Finnish and Swedish: `pää` is not `paa`), so that `cafe` still finds `Café`
/// while `pää` finds `pää` and not `paa`. The compiler writes the index's text with it and the
/// app folds each query with it, so both fold alike. SQLite's tokenizer then folds case.
///
/// Written here because SQLite's `unicode61` tokenizer folds either every accent
/// (`remove_diacritics 2`) or none (`0`), and Foundation's `folding(options:)` likewise.
package enum SearchLetters {
    /// The letters with a diacritic that a language has as letters of its own, in lower case;
    /// none for a language not listed, whose every accent is folded.
    package static func ownLetters(of language: String) -> Set<Character> {
        switch language.lowercased().split(separator: "-").first.map(String.init) {
        case "fi", "sv": ["å", "ä", "ö"]
        default: []
        }
    }

    /// `text` with every accent removed but from `language`'s own letters, in NFC.
    package static func folded(_ text: String, language: String) -> String {
        // ASCII has no accent to remove and is its own NFC. Most names are ASCII, and
        // normalizing each character through Foundation took 17 µs a name (5 s of a build's
        // 300,000 names in three languages).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let own = ownLetters(of: language)
        var result = String.UnicodeScalarView()
        for character in text {
            if character.isASCII {
                result.append(contentsOf: character.unicodeScalars)
                continue
            }
            if !own.isEmpty, let lower = character.lowercased().first, own.contains(lower) {
                result.append(contentsOf: String(character).precomposedStringWithCanonicalMapping.unicodeScalars)
                continue
            }
            // Decomposed, without its combining marks (é is e and U+0301).
            for scalar in String(character).decomposedStringWithCanonicalMapping.unicodeScalars
            where scalar.properties.generalCategory != .nonspacingMark {
                result.append(scalar)
            }
        }
        return String(result).precomposedStringWithCanonicalMapping
    }
}
