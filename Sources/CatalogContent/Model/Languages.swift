import CatalogModel

/// The languages a catalogue declares in catalog.xml's `<languages>`: the default first, in
/// which every text is written, then each other language with the one it falls back to for a
/// text not translated into it. A catalogue that declares none is in Finnish only.
package struct Languages: Hashable, Sendable, Codable {
    /// One `<language>`.
    package struct Declaration: Hashable, Sendable, Codable {
        package var code: LanguageCode
        /// The language a text not translated into this one is shown in; nil for the default.
        package var fallback: LanguageCode?
        /// Whether a missing translation into it is an error, not a warning.
        package var required: Bool

        package init(code: LanguageCode, fallback: LanguageCode? = nil, required: Bool = false) {
            self.code = code
            self.fallback = fallback
            self.required = required
        }
    }

    /// As declared, the default first.
    package var declarations: [Declaration]

    package init(_ declarations: [Declaration]) {
        self.declarations = declarations
    }

    /// Finnish only: a catalogue with no `<languages>`.
    package static let finnishOnly = Languages([Declaration(code: .finnish)])

    /// The language every text is written in first.
    package var defaultLanguage: LanguageCode { declarations.first?.code ?? .finnish }

    /// The other languages, each once, as declared.
    package var translated: [LanguageCode] {
        var seen: Set<LanguageCode> = [defaultLanguage]
        return declarations.dropFirst().map(\.code).filter { seen.insert($0).inserted }
    }

    /// Whether a missing translation into `language` is an error.
    package func requires(_ language: LanguageCode) -> Bool {
        declarations.contains { $0.code == language && $0.required }
    }

    /// Whether `language` is declared.
    package func declares(_ language: LanguageCode) -> Bool {
        declarations.contains { $0.code == language }
    }

    /// The languages a text in `language` is looked for in, best first: the language itself,
    /// its fallback, that one's, and so on to the default. A chain that loops or names an
    /// undeclared language (the rules report both) stops there, then goes to the default.
    package func chain(for language: LanguageCode) -> [LanguageCode] {
        var chain: [LanguageCode] = []
        var next: LanguageCode? = language
        while let current = next, !chain.contains(current), declares(current) || current == language {
            chain.append(current)
            next = declarations.first { $0.code == current }?.fallback
        }
        if !chain.contains(defaultLanguage) { chain.append(defaultLanguage) }
        return chain
    }
}

/// The translations of one entity's texts: for each field a reader sees, its text in each
/// language but the default, which the entity's own fields hold. What is not text (ids,
/// pictures, positions, links, relations, addresses, phone numbers, coordinates) is written
/// once and has none.
///
/// Keyed by the field as the rules name it (`FieldPath`): `name`, `summary`, `title`, `text`,
/// `hours`, `info`, `body`, `method`; `ingredient[i]` for an ingredient line; `image` and
/// `image[i]` (`picture`) for a picture's alt text.
package struct Translations: Hashable, Sendable, Codable {
    /// A translated text: plain, or rich for a body or method.
    package enum Value: Hashable, Sendable, Codable {
        case text(String)
        case richText(RichText)

        /// The plain text, for either kind.
        package var plainText: String {
            switch self {
            case .text(let text): text
            case .richText(let rich): rich.plainText
            }
        }
    }

    /// One translated text.
    package struct Entry: Hashable, Sendable, Codable {
        package var field: FieldPath
        package var language: LanguageCode
        package var value: Value
    }

    /// In the order they were written: a short list (a few per field), searched from the start.
    /// A list, not a dictionary, so that an entity read twice prints the same way.
    package private(set) var entries: [Entry] = []

    /// Where each entry is, once there are more than `indexedFrom` (a recipe of thousands of
    /// translated ingredient lines made every lookup a walk of the list: validating it took
    /// time in the square of its lines). Not part of the value: two equal lists are equal.
    private var index: [Key: Int] = [:]
    private struct Key: Hashable {
        var field: FieldPath
        var language: LanguageCode
    }
    private static let indexedFrom = 32

    /// The fields its editor marked `translate="no"`: names that are names, the same in every
    /// language, which no language is missing.
    package var fixed: Set<FieldPath> = []

    package init() {}

    /// Whether there is no translation at all.
    package var isEmpty: Bool { entries.isEmpty }

    /// The text of `field` in `language`, if translated into it.
    package subscript(field: FieldPath, language: LanguageCode) -> Value? {
        if !index.isEmpty { return index[Key(field: field, language: language)].map { entries[$0].value } }
        // By index, the language compared first: `first(where:)` copied each entry it passed
        // (retaining its text), which the rules, the coverage and the projections pay for every
        // field of every entity in every language.
        for index in entries.indices where entries[index].language == language && entries[index].field == field {
            return entries[index].value
        }
        return nil
    }

    /// Sets the text of `field` in `language`; false, changing nothing, if it already has one.
    @discardableResult
    package mutating func add(_ value: Value, for field: FieldPath, in language: LanguageCode) -> Bool {
        if self[field, language] != nil { return false }
        entries.append(Entry(field: field, language: language, value: value))
        if entries.count > Self.indexedFrom {
            if index.isEmpty {
                for (position, entry) in entries.enumerated() { index[Key(field: entry.field, language: entry.language)] = position }
            } else {
                index[Key(field: field, language: language)] = entries.count - 1
            }
        }
        return true
    }

    package static func == (a: Translations, b: Translations) -> Bool {
        a.entries == b.entries && a.fixed == b.fixed
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(fixed)
    }

    private enum CodingKeys: String, CodingKey {
        case entries, fixed
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for entry in try container.decode([Entry].self, forKey: .entries) { add(entry.value, for: entry.field, in: entry.language) }
        fixed = try container.decode(Set<FieldPath>.self, forKey: .fixed)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(fixed, forKey: .fixed)
    }

    /// The text of `field` along `chain` (best first), and the language it is in; nil if no
    /// language of the chain but the default has it.
    package func first(_ field: FieldPath, along chain: [LanguageCode]) -> (value: Value, language: LanguageCode)? {
        for language in chain {
            if let value = self[field, language] { return (value, language) }
        }
        return nil
    }
}
