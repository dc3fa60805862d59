@testable import CatalogModel
import Testing

/// The queries bind their values: a language code is never written into SQL, so one holding
/// SQL (which a bundle's check refuses first) finds no text in it rather than changing the query.
@Suite struct BoundValuesTests {
    @Test func aLanguageHoldingSQLIsReadAsAValue() throws {
        let shipped = try CatalogBundle(path: BundleFixtures.shipped)
        let reading = TextReading(defaultOf: [BundleLanguage(code: "fi", fallback: nil)])
        let finnish = try shipped.read(BundleQuery<[SectionTab]>.sections(reading))
        let products = try shipped.read(BundleQuery<[ProductRow]>.productRows(offset: 0, limit: 100, reading))
        for code in ["sv' OR 'a' = 'a", "sv'--", "en\" OR 1"] {
            let languages = [BundleLanguage(code: "fi", fallback: nil), BundleLanguage(code: code, fallback: "fi")]
            let sections = try shipped.read(BundleQuery<[SectionTab]>.sections(TextReading(code, in: languages)))
            #expect(sections.map(\.title) == finnish.map(\.title), "\(code): no text is in that language")
            #expect(sections.allSatisfy { $0.languages.isFallback(.title) })
            // A list's order in that language (its own rows in `list_positions`): none, so no row.
            let rows = try shipped.read(BundleQuery<[ProductRow]>.productRows(offset: 0, limit: 100, TextReading(code, in: languages)))
            #expect(rows.isEmpty && !products.isEmpty, "\(code): \(rows.count) rows")
        }
    }
}
