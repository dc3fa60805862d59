import CatalogContent
import CatalogModel
import GRDB

// Schema 3's tables (schema-3.sql): the catalogue's languages, every translated text, and the
// lists' order in each language but the default.
extension BundleWriter {
    /// Inserts the rows of `languages`, `translations` and `list_positions` (from `translated`,
    /// each other language's lists in its order).
    func insertLanguages(_ db: Database, _ translated: TranslatedLists) throws {
        let rows = BundleRows(db, images: images, schemaVersion: schemaVersion)
        var declared = Set<LanguageCode>()
        for declaration in catalog.languages.declarations where declared.insert(declaration.code).inserted {
            try rows.language(declaration.code, position: declared.count, fallback: declared.count == 1 ? nil : declaration.fallback)
        }
        let others = catalog.languages.translated
        try catalog.forEachEntity { reference, entity in try rows.translations(of: reference, entity, into: others) }
        for (language, lists) in translated.languages {
            for (kind, ids) in lists.ids {
                for (index, id) in ids.enumerated() { try rows.listPosition(kind, language: language, position: index + 1, id: id) }
            }
        }
    }
}
