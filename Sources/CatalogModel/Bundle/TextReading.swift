import GRDB

/// A language a bundle holds, and the one its untranslated texts are shown in (nil for the
/// default).
package struct BundleLanguage: Hashable, Sendable {
    package var code: String
    package var fallback: String?
}

/// The language a bundle's screens are read in, and the languages a text is looked for in: the
/// chain from it to the default. Every query reads its texts through it
/// (`TranslatedTexts`), so the default language and every other take one path.
package struct TextReading: Hashable, Sendable {
    /// The language read in, such as "sv".
    package let language: String
    /// The catalogue's default language, whose texts are the entity tables' own.
    package let defaultLanguage: String
    /// The languages looked in before the default, best first: `["sv"]` for Swedish falling
    /// back to Finnish; empty when reading the default language.
    package let chain: [String]
    /// The language's place among the bundle's, from 0 for the default: where its rows of the
    /// languages' search indexes are.
    package let index: Int

    /// Reading the default language of `languages` (the first).
    package init(defaultOf languages: [BundleLanguage]) {
        language = languages.first?.code ?? BundleLanguage.schema2Language
        defaultLanguage = language
        chain = []
        index = 0
    }

    /// Reading `language`, one of `languages`, whose fallbacks the bundle's check made sure
    /// lead to the default without a loop.
    package init(_ language: String, in languages: [BundleLanguage]) {
        let fallbacks = Dictionary(languages.map { ($0.code, $0.fallback) }, uniquingKeysWith: { first, _ in first })
        var chain: [String] = []
        var next: String? = language
        while let code = next, let fallback = fallbacks[code] ?? nil, !chain.contains(code), chain.count < languages.count {
            chain.append(code)
            next = fallback
        }
        self.language = language
        self.defaultLanguage = languages.first?.code ?? BundleLanguage.schema2Language
        self.chain = chain
        self.index = languages.firstIndex { $0.code == language } ?? 0
    }

    /// The language of a text read through `TranslatedTexts`, from its `<name>:from` column:
    /// the chain's language it names (1 for the first), or the default for NULL.
    func language(from row: Row, column: String) throws -> String {
        guard let index: Int = try row.value(column + ":from") else { return defaultLanguage }
        guard chain.indices.contains(index - 1) else {
            throw BundleValueError(column: column, problem: "a text from language \(index) of \(chain.count)")
        }
        return chain[index - 1]
    }

    /// A record's languages from its row: each text (field, column) read through
    /// `TranslatedTexts`; a text whose column is empty or NULL (a retailer's missing info)
    /// falls back to nothing.
    package func languages(_ row: Row, _ texts: KeyValuePairs<TextField, String>) throws -> TextLanguages {
        try languages(row, texts.map { ($0.key, $0.value) })
    }

    /// The languages of `texts` of a row read with `TranslatedTexts.add(_:of:kind:entity:)`,
    /// each under its column's name.
    package func languages(_ row: Row, _ texts: [TranslatedColumn]) throws -> TextLanguages {
        try languages(row, texts.map { ($0.textField, $0.column) })
    }

    private func languages(_ row: Row, _ texts: [(field: TextField, column: String)]) throws -> TextLanguages {
        var languages = TextLanguages(language: language)
        guard !chain.isEmpty else { return languages }  // the default language's texts are all in it
        for (field, column) in texts {
            let text: String? = try row.value(column)
            guard text?.isEmpty == false else { continue }
            let shown = try language(from: row, column: column)
            if shown != language { languages.fallbacks[field] = shown }
        }
        return languages
    }

    /// How a list of `kind` (product, recipe, retailer), its table aliased `alias`, is ordered
    /// in this language: a join (none for the default, whose order is the table's `position`)
    /// and the position to order by, from 1 in list order. `afterRows`: the rows are few and
    /// found first (a product's recipes), so the join is a CROSS JOIN, which SQLite keeps inside
    /// the loop over them; otherwise it reads the language's whole list in order to skip the
    /// sort (39 ms for a product's recipes at 100,000 entities, instead of 0.5).
    /// The kind and the language are bound values; `alias` is an alias our queries write.
    func listOrder(of kind: String, alias: String, afterRows: Bool = false) -> (join: SQL, position: SQL) {
        guard !chain.isEmpty else { return ("", "\(sql: alias).position") }
        let order = "\(alias)_order"
        return ("""
                \(sql: afterRows ? "CROSS JOIN" : "JOIN") list_positions AS \(sql: order) ON \(sql: order).kind = \(kind) \
                AND \(sql: order).language = \(language) AND \(sql: order).entity_id = \(sql: alias).id
                """,
                "\(sql: order).position")
    }
}

extension BundleLanguage {
    /// The language of a bundle of schema 2, which names none: the compiler wrote Finnish alone.
    package static let schema2Language = "fi"

    /// The languages of a bundle of `schemaVersion`, the default first, each falling back to
    /// one before it. Each must be what schema-3.sql's check allows: letters and hyphens (the
    /// queries bind a code as a value whatever it holds).
    package static func read(_ db: Database, schemaVersion: Int) throws -> [BundleLanguage] {
        guard schemaVersion >= 3 else { return [BundleLanguage(code: schema2Language, fallback: nil)] }
        var languages: [BundleLanguage] = []
        for row in try Row.fetchAll(db, sql: "SELECT code, fallback FROM languages ORDER BY position LIMIT 100") {
            let code: String = try row.value("code"), fallback: String? = try row.value("fallback")
            guard (2...35).contains(code.utf8.count), code.utf8.allSatisfy(isLanguageCodeByte) else {
                throw BundleValueError(column: "code", problem: "'\(Row.excerpt(code))', not a language code")
            }
            guard !languages.contains(where: { $0.code == code }) else {
                throw BundleValueError(column: "code", problem: "'\(code)' twice")
            }
            switch (languages.isEmpty, fallback) {
            case (true, nil): break
            case (true, .some): throw BundleValueError(column: "fallback", problem: "a fallback for the default language, '\(code)'")
            case (false, nil): throw BundleValueError(column: "fallback", problem: "none for '\(code)', which is not the default language")
            case (false, let fallback?):
                guard languages.contains(where: { $0.code == fallback }) else {
                    throw BundleValueError(column: "fallback", problem: "'\(Row.excerpt(fallback))' for '\(code)', not a language before it")
                }
            }
            languages.append(BundleLanguage(code: code, fallback: fallback))
        }
        guard !languages.isEmpty else { throw BundleValueError("it has no default language") }
        return languages
    }

    /// A letter or a hyphen, in ASCII.
    private static func isLanguageCodeByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The best of `codes` for a reader who prefers `preferred`, best first: the first of
    /// `preferred` that one of `codes` matches, whole or with its last subtags removed
    /// (`sv-FI` reads `sv`, `zh-Hant-TW` reads `zh-Hant`), as RFC 4647's lookup does; nil when
    /// none matches. Case does not matter, and `_` is read as `-` (`Locale.identifier`'s
    /// `sv_FI`). Written here rather than with `Bundle.preferredLocalizations(from:forPreferences:)`,
    /// which answers its own development language when nothing matches, and matches
    /// differently on each platform.
    package static func lookup(_ preferred: [String], among codes: [String]) -> String? {
        let lowered = codes.map { $0.lowercased() }
        for range in preferred {
            var tag = range.lowercased().replacingOccurrences(of: "_", with: "-")
            while !tag.isEmpty {
                if let index = lowered.firstIndex(of: tag) { return codes[index] }
                guard let dash = tag.lastIndex(of: "-") else { break }
                tag = String(tag[..<dash])
                // A single-letter subtag (an extension's singleton, such as `-u`) goes with its value.
                if let dash = tag.lastIndex(of: "-"), tag.distance(from: dash, to: tag.endIndex) == 2 { tag = String(tag[..<dash]) }
            }
        }
        return nil
    }
}

/// The columns and joins of a query that reads texts in a reading's language: each text is its
/// translation into the first language of the chain that has one, or else the entity table's
/// own (the default language). Beside each text `<name>`, the column `<name>:from` says where
/// it came from (`TextReading.language(from:column:)`).
struct TranslatedTexts {
    let reading: TextReading
    private(set) var columns: [SQL] = []
    private(set) var joins: [SQL] = []

    init(_ reading: TextReading) {
        self.reading = reading
    }

    /// Reads `column` (an SQL expression in the default language) as `name`, translated by the
    /// rows of `translations` for `kind` and `entity` (SQL: `"\("product")"`, a bound value, or
    /// `p.id`, a column) and `field` (SQL too: `"\("name")"`, or `"\("picture:") || pi.position"`).
    /// The reading's languages are bound values.
    mutating func add(_ name: String, _ column: String, kind: SQL, entity: SQL, field: SQL) {
        guard !reading.chain.isEmpty else {
            columns.append("\(sql: column) AS \(sql: quoted(name)), NULL AS \(sql: quoted(name + ":from"))")
            return
        }
        var found: [String] = []
        for language in reading.chain {
            let alias = "t\(joins.count + 1)"
            joins.append("""
                LEFT JOIN translations AS \(sql: alias) ON \(sql: alias).kind = \(literal: kind) AND \(sql: alias).entity_id = \(literal: entity) \
                AND \(sql: alias).language = \(language) AND \(sql: alias).field = \(literal: field)
                """)
            found.append(alias)
        }
        let cases = found.enumerated().map { "WHEN \($1).text IS NOT NULL THEN \($0 + 1)" }.joined(separator: " ")
        columns.append("""
            coalesce(\(sql: found.map { "\($0).text" }.joined(separator: ", ")), \(sql: column)) AS \(sql: quoted(name)), \
            CASE \(sql: cases) END AS \(sql: quoted(name + ":from"))
            """)
    }

    /// Reads `text` of the row aliased `alias` as its column's name (`body_json`), translated:
    /// the entity's `kind` and id (`entity`) as for `add(_:_:kind:entity:field:)`, and for a
    /// text of a list the row's `position` in its field (`picture:2`).
    mutating func add(_ text: TranslatedColumn, of alias: String, kind: SQL, entity: SQL) {
        add(text.column, "\(alias).\(text.column)", kind: kind, entity: entity, field: text.fieldSQL(positionColumn: "\(alias).position"))
    }

    /// A column name of ours, quoted as an identifier.
    private func quoted(_ name: String) -> String { "\"\(name)\"" }

    /// The texts' columns, for a select list.
    var select: SQL { columns.joined(separator: ", ") }
    /// The joins, to follow the entity table in a FROM clause.
    var join: SQL { joins.joined(separator: "\n") }
}
