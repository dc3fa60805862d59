import Foundation

/// What changed from one release of the catalogue to another: every product, recipe, retailer,
/// promotion, section, the home and the company added, removed or changed, each change down
/// to the field, with text changes word by word, and the pictures added and dropped. Made by
/// `digno diff` and written by `digno publish` as a release's notes; its JSON
/// (`encoded()`) is stable and documented in docs/CLI.md.
public struct CatalogChanges: Codable, Sendable, Hashable {
    /// The format this library writes and reads.
    public static let formatVersion = 1

    /// One side of the comparison.
    public struct Release: Codable, Sendable, Hashable {
        public var releaseVersion: String
        public var releaseDate: Day
        /// The content digest, when the side is a bundle or a content folder that was read whole.
        public var contentDigest: String?

        package init(releaseVersion: String, releaseDate: Day, contentDigest: String?) {
            self.releaseVersion = releaseVersion
            self.releaseDate = releaseDate
            self.contentDigest = contentDigest
        }
    }

    /// What an entity is.
    public enum Kind: String, Codable, Sendable, CaseIterable, Comparable {
        case section, home, promotion, company, product, recipe, retailer

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }

        /// The kind's name in the plural, as a summary line says it.
        public var plural: String {
            switch self {
            case .section: "sections"
            case .home: "home"
            case .promotion: "promotions"
            case .company: "company"
            case .product: "products"
            case .recipe: "recipes"
            case .retailer: "retailers"
            }
        }
    }

    /// What happened to an entity.
    public enum Change: String, Codable, Sendable {
        case added, removed, changed
    }

    /// A run of words in a text change.
    public struct Words: Codable, Sendable, Hashable {
        public enum Operation: String, Codable, Sendable {
            case same, removed, added
        }

        public var op: Operation
        public var text: String

        package init(_ op: Operation, _ text: String) {
            self.op = op
            self.text = text
        }
    }

    /// One field's change. A text field has `old`, `new` and `words`; another single value
    /// (a picture, a position, a day, a link) has `old` and `new` (absent when it had none); a
    /// set (pictures, what a retailer sells, the products a recipe uses, links) has `added` and
    /// `removed`.
    public struct Field: Codable, Sendable, Hashable {
        public var field: String
        public var old: String?
        public var new: String?
        public var words: [Words]?
        public var added: [String]?
        public var removed: [String]?
        /// The language of the field's words when it is not the release's default language
        /// (`sv`): a translation, or a text a reader of another language sees in it (an
        /// ingredient list or pictures' alt texts when any of them is). That of `new`, or of
        /// `old` when there is no `new`. Absent for the default language, for what is not
        /// words, and in notes written before 2026-11.
        public var language: String?

        package init(field: String, old: String? = nil, new: String? = nil, words: [Words]? = nil, added: [String]? = nil,
                     removed: [String]? = nil, language: String? = nil) {
            self.field = field
            self.old = old
            self.new = new
            self.words = words
            self.added = added
            self.removed = removed
            self.language = language
        }
    }

    /// One entity that was added, removed or changed. Its `id` is its kind and slug together,
    /// unique among the changes, so `List(changes.entities)` needs no other id.
    public struct Entity: Identifiable, Codable, Sendable, Hashable {
        /// An entity's kind and slug: unique among the changes (a product and a recipe may
        /// share a slug).
        public struct ID: Hashable, Sendable {
            public var kind: Kind
            public var slug: String

            public init(kind: Kind, slug: String) {
                self.kind = kind
                self.slug = slug
            }
        }

        public var kind: Kind
        /// The entity's slug within its kind: its file's name (`espresso`); a section's kind;
        /// `home`, `company`. In the JSON, `id`.
        public var slug: String
        /// Its name (a promotion's title) in the newer release, or the older one if removed.
        public var name: String
        public var change: Change
        /// The fields that changed; empty for an entity added or removed.
        public var fields: [Field]

        /// The kind and slug.
        public var id: ID { ID(kind: kind, slug: slug) }

        private enum CodingKeys: String, CodingKey {
            case kind, slug = "id", name, change, fields
        }

        package init(kind: Kind, slug: String, name: String, change: Change, fields: [Field]) {
            self.kind = kind
            self.slug = slug
            self.name = name
            self.change = change
            self.fields = fields
        }
    }

    /// The pictures (by SHA-256) in the newer release and not the older, and the other way.
    public struct Pictures: Codable, Sendable, Hashable {
        public var added: [String]
        public var removed: [String]

        package init(added: [String], removed: [String]) {
            self.added = added
            self.removed = removed
        }
    }

    public var format: Int
    public var old: Release
    public var new: Release
    /// In kind order (sections, home, promotions, company, products, recipes, retailers), then
    /// by id. As written: in the release's default language, each translation's change a field
    /// of its own (`sv: summary`, with `language` "sv"). As `reading(in:)` returns them: as a
    /// reader of its `language` sees them.
    public var entities: [Entity]
    public var pictures: Pictures
    /// The newer release's languages, the default first (`["fi", "sv", "en"]`), when it has
    /// more than one; absent for a release in one language and in notes written before 2026-11.
    public var languages: [String]?
    /// For each language but the default, the entities as a reader of it sees them: each text
    /// in that language, or in the one it falls back to (`Field.language` says which), names in
    /// it, a field named as in the default language's changes (`summary`). Use `reading(in:)`.
    public var inLanguages: [String: [Entity]]?
    /// The language `entities` are read in, after `reading(in:)`; absent in notes as written.
    public var language: String?

    package init(old: Release, new: Release, entities: [Entity], pictures: Pictures,
                 languages: [String]? = nil, inLanguages: [String: [Entity]]? = nil) {
        format = Self.formatVersion
        self.old = old
        self.new = new
        self.entities = entities
        self.pictures = pictures
        self.languages = languages
        self.inLanguages = inLanguages
    }

    /// The changes as a reader sees them who reads the first of `preferredLanguages` (as
    /// `Locale.preferredLanguages` lists them) that the release has, as
    /// ``CatalogBundle/reading(in:)`` chooses it: its `entities` are those of `inLanguages` for
    /// that language, or the default language's alone (without the translations' fields) when
    /// none matches or the match is the default. Notes written before 2026-11, or of a release
    /// in one language, are returned as they are.
    ///
    /// ```swift
    /// let notes = store.releaseNotes()?.reading(in: Locale.preferredLanguages)
    /// ```
    public func reading(in preferredLanguages: [String]) -> CatalogChanges {
        guard let languages, let defaultLanguage = languages.first else { return self }
        let best = BundleLanguage.lookup(preferredLanguages, among: languages) ?? defaultLanguage
        var copy = self
        copy.language = best
        if best != defaultLanguage, let read = inLanguages?[best] {
            copy.entities = read
        } else {
            copy.language = defaultLanguage
            copy.entities = entities.compactMap { entity in
                var entity = entity
                guard entity.change == .changed, entity.fields.contains(where: { $0.language != nil }) else { return entity }
                // An entity whose translations alone changed did not change for this reader.
                entity.fields.removeAll { $0.language != nil }
                return entity.fields.isEmpty ? nil : entity
            }
        }
        return copy
    }

    /// Whether nothing a reader sees changed (the release version and date aside).
    public var isEmpty: Bool { entities.isEmpty && pictures.added.isEmpty && pictures.removed.isEmpty }

    /// How many entities of `kind` were added, removed and changed.
    public func count(_ kind: Kind) -> (added: Int, removed: Int, changed: Int) {
        var counts = (added: 0, removed: 0, changed: 0)
        for entity in entities where entity.kind == kind {
            switch entity.change {
            case .added: counts.added += 1
            case .removed: counts.removed += 1
            case .changed: counts.changed += 1
            }
        }
        return counts
    }

    /// Release notes as `digno publish` writes them (the JSON of `encoded()`), or nil when the
    /// bytes are not that JSON or are of another format: an app shows its "what's new" from it.
    public static func decoded(from data: Data) -> CatalogChanges? {
        guard let changes = try? JSONDecoder().decode(CatalogChanges.self, from: data), changes.format == formatVersion else { return nil }
        return changes
    }

    /// The JSON: keys sorted, days as `YYYY-MM-DD`, so that the same changes are the same bytes.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()  // strings, numbers and days always encode
    }
}
