import CatalogModel

/// A language a catalogue is written in, as `xml:lang` and catalog.xml's `<language code>`
/// write it: a BCP 47 language tag of a primary language and, if need be, a region (`fi`,
/// `sv`, `en`, `sv-FI`).
package struct LanguageCode: RawRepresentable, Hashable, Sendable, Codable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    package init(stringLiteral value: String) {
        rawValue = value
    }

    package var description: String { rawValue }

    package static func < (a: LanguageCode, b: LanguageCode) -> Bool { a.rawValue < b.rawValue }

    /// Finnish, the language of a catalogue that declares none.
    package static let finnish: LanguageCode = "fi"
}
