import CatalogModel

/// How much of a catalogue is translated into one of its languages.
package struct TranslationCoverage: Hashable, Sendable, Codable {
    package var language: LanguageCode
    /// The texts translated into it.
    package var translated: Int
    /// The texts there are to translate (those marked `translate="no"` left out).
    package var total: Int

    package init(language: LanguageCode, translated: Int, total: Int) {
        self.language = language
        self.translated = translated
        self.total = total
    }

    /// The share translated, in whole per cent, rounded down: 100 only when complete.
    package var percent: Int { total == 0 ? 100 : translated * 100 / total }

    /// `sv: 412 of 430 texts, 95 %`.
    package var summary: String { "\(language): \(translated) of \(total) texts, \(percent) %" }
}
