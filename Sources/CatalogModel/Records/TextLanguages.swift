/// Which language each text of a record is shown in.
///
/// A bundle read in the reader's languages (``CatalogBundle/reading(in:)``) shows every text in
/// the best of them it has: a text not translated into that language falls back along the
/// chain the catalogue declares (`sv` → `fi`), text by text. A record's `languages` says which
/// texts fell back, and to what, so that an app can tell a screen reader the language of each
/// (a Finnish name read by a Swedish voice is unintelligible) and show that a text is not
/// translated:
///
/// ```swift
/// Text(product.name)
///     .environment(\.locale, Locale(identifier: product.languages[.name]))
/// ```
public struct TextLanguages: Hashable, Sendable, Codable {
    /// The language the record was read in, such as "sv": the texts not in `fallbacks` are in it.
    public var language: String
    /// The texts in another language than `language`, each with the language it is in: the
    /// first one along the fallback chain that has it, such as `[.body: "fi"]`. Empty when the
    /// record is fully translated.
    public var fallbacks: [TextField: String]

    /// The languages of a record read in `language`, with the texts that fell back.
    public init(language: String, fallbacks: [TextField: String] = [:]) {
        self.language = language
        self.fallbacks = fallbacks
    }

    /// The language `field` is in.
    public subscript(field: TextField) -> String { fallbacks[field] ?? language }

    /// Whether `field` is in another language than the record's, because it is not translated.
    public func isFallback(_ field: TextField) -> Bool { fallbacks[field] != nil }
}
