import CatalogContent
import CatalogModel
import GRDB

// Schema 3's tables (schema-3.sql): the catalogue's languages, every translated text, and the
// lists' order in each language but the default.
extension BundleWriter {
    /// Inserts the rows of `languages`, `translations` and `list_positions` (from `translated`,
    /// each other language's lists in its order).
    func insertLanguages(_ db: Database, _ translated: TranslatedLists) throws {
        func insert(_ sql: String) throws -> SQLiteInsert { try SQLiteInsert(db, sql) }
        let languages = catalog.languages
        let insertLanguage = try insert("INSERT INTO languages (code, position, fallback) VALUES (?, ?, ?)")
        var declared = Set<LanguageCode>()
        for declaration in languages.declarations where declared.insert(declaration.code).inserted {
            try insertLanguage(.text(declaration.code.rawValue), .integer(declared.count),
                               .text(declared.count == 1 ? nil : declaration.fallback?.rawValue))
        }
        let others = languages.translated

        let insertTranslation = try insert("INSERT INTO translations (kind, entity_id, field, language, text) VALUES (?, ?, ?, ?, ?)")
        try catalog.forEachDefaultText(fixedOnly: true) { entity, translations, texts in
            let (kind, id) = (entity.kind.rawValue, entity.id)
            for entry in translations.entries where others.contains(entry.language) {
                guard let field = entry.field.translatedFieldName else { continue }
                let text: String
                switch entry.value {
                case .text(let plain): text = plain
                case .richText(let rich): text = RichTextJSON.encode(rich)
                }
                try insertTranslation(.text(kind), .text(id), .text(field), .text(entry.language.rawValue), .text(text))
            }
            // A text marked translate="no" (plain text only) is the same in every language:
            // written as each one's, so that a reader finds it translated, not fallen back.
            for field in translations.fixed.sorted(by: { $0.orderKey < $1.orderKey }) {
                guard let column = field.translatedFieldName, let text = texts[field] else { continue }
                for language in others where translations[field, language] == nil {
                    try insertTranslation(.text(kind), .text(id), .text(column), .text(language.rawValue), .text(text))
                }
            }
        }

        let insertPosition = try insert("INSERT INTO list_positions (kind, language, position, entity_id) VALUES (?, ?, ?, ?)")
        for (language, lists) in translated.languages {
            let orders: [(String, [String])] = [
                ("product", lists.products.map(\.id.rawValue)), ("recipe", lists.recipes.map(\.id.rawValue)),
                ("retailer", lists.retailers.map(\.id.rawValue)),
            ]
            for (kind, ids) in orders {
                for (index, id) in ids.enumerated() {
                    try insertPosition(.text(kind), .text(language.rawValue), .integer(index + 1), .text(id))
                }
            }
        }
    }
}
