import CatalogModel
import Foundation
import GRDB
import Testing

/// Reading a bundle in the reader's languages: the best language it has, each text falling back
/// along the catalogue's chain and saying so, lists in that language's order.
@Suite struct ReadingLanguagesTests {
    let shipped = try! CatalogBundle(path: BundleFixtures.shipped)
    let day = Day(year: 2026, month: 11, day: 25)!

    @Test func theReadersFirstLanguageTheBundleHasIsRead() {
        #expect(shipped.languages == ["fi", "sv", "en"])
        #expect(shipped.language == "fi")
        #expect(shipped.reading(in: ["sv-FI", "en-US"]).language == "sv")
        #expect(shipped.reading(in: ["de-DE", "en-GB"]).language == "en")
        #expect(shipped.reading(in: ["sv_AX"]).language == "sv")
        #expect(shipped.reading(in: ["EN"]).language == "en")
        #expect(shipped.reading(in: ["de", "ja"]).language == "fi", "no language of the reader's: the default")
        #expect(shipped.reading(in: []).language == "fi")
        #expect(shipped.reading(in: ["en"]).reading(in: ["fi-FI"]).language == "fi")
    }

    @Test func aLanguageTagMatchesByItsLeadingSubtags() {
        let codes = ["fi", "sv", "zh-Hant"]
        #expect(BundleLanguage.lookup(["zh-Hant-TW"], among: codes) == "zh-Hant")
        #expect(BundleLanguage.lookup(["zh-Hans-CN"], among: codes) == nil)
        #expect(BundleLanguage.lookup(["sv-x-ab-cd"], among: codes) == "sv")
        #expect(BundleLanguage.lookup(["fi-u-ca-gregory"], among: codes) == "fi")
        #expect(BundleLanguage.lookup(["s", "-", ""], among: codes) == nil)
    }

    @Test func aFullyTranslatedScreenHasNoFallbacks() throws {
        let swedish = shipped.reading(in: ["sv"])
        let espresso = try #require(try swedish.product(ProductID(rawValue: "espresso")))
        let finnish = try #require(try shipped.product(ProductID(rawValue: "espresso")))
        #expect(espresso.languages == TextLanguages(language: "sv"))
        #expect(espresso.name == finnish.name, "a product name is marked translate=\"no\"")
        #expect(espresso.summary != finnish.summary)
        #expect(espresso.body != finnish.body)
        #expect(espresso.pictures.map(\.image) == finnish.pictures.map(\.image))
        #expect(espresso.pictures.map(\.alt) != finnish.pictures.map(\.alt))
        #expect(espresso.pictures.allSatisfy { $0.languages == TextLanguages(language: "sv") })
        #expect(espresso.recipes.allSatisfy { $0.languages.language == "sv" && $0.languages.fallbacks.isEmpty })
        #expect(finnish.languages == TextLanguages(language: "fi"))
    }

    @Test func everyTextOfEveryScreenIsInTheLanguageRead() throws {
        for language in ["sv", "en"] {
            let bundle = shipped.reading(in: [language])
            for route in try everyRoute(of: bundle) {
                let screen = try bundle.screen(for: route, today: day)
                let json = String(decoding: try JSONEncoder().encode(screen), as: UTF8.self)
                #expect(!json.contains("\"fallbacks\":{\"") , "\(route) in \(language): \(json.prefix(300))")
                #expect(screen.tabs.allSatisfy { $0.languages.language == language })
            }
        }
    }

    @Test func tabTitlesAndTheNavigationBarAreTranslated() throws {
        let english = shipped.reading(in: ["en"])
        let screen = try english.screen(for: .products, today: day)
        let titles = screen.tabs.map(\.title)
        #expect(titles != (try shipped.sections()).map(\.title))
        #expect(screen.navigationBar?.title == screen.tabs.first { $0.id == .products }?.title)
    }

    @Test func anUntranslatedTextFallsBackAndSaysSo() throws {
        let partial = try Self.withoutTranslations(of: BundleFixtures.shipped, language: "sv", where: """
            (kind = 'product' AND entity_id = 'espresso' AND field IN ('body', 'picture:1'))
            OR (kind = 'recipe' AND entity_id = 'cafe-latte' AND field IN ('ingredient:2', 'summary'))
            OR (kind = 'section' AND entity_id = 'recipes') OR (kind = 'retailer' AND field = 'hours')
            OR (kind = 'home' AND field = 'image_alt') OR (kind = 'company' AND field = 'name')
            """)
        let swedish = try CatalogBundle(path: partial).reading(in: ["sv-FI"])
        let finnish = try CatalogBundle(path: partial)

        let espresso = try #require(try swedish.product(ProductID(rawValue: "espresso")))
        let espressoFinnish = try #require(try finnish.product(ProductID(rawValue: "espresso")))
        #expect(espresso.languages == TextLanguages(language: "sv", fallbacks: [.body: "fi"]))
        #expect(espresso.body == espressoFinnish.body)
        #expect(espresso.languages[.body] == "fi" && espresso.languages[.summary] == "sv" && espresso.languages.isFallback(.body))
        #expect(espresso.pictures.first?.languages == TextLanguages(language: "sv", fallbacks: [.alt: "fi"]))
        #expect(espresso.pictures.first?.alt == espressoFinnish.pictures.first?.alt)

        let latte = try #require(try swedish.recipe(RecipeID(rawValue: "cafe-latte")))
        #expect(latte.languages.fallbacks == [.summary: "fi"])
        #expect(latte.ingredients.map(\.languages.fallbacks) == latte.ingredients.indices.map { $0 == 1 ? [.text: "fi"] : [:] })
        let latteRow = try #require(try swedish.recipeRows().first { $0.id.rawValue == "cafe-latte" })
        #expect(latteRow.languages.fallbacks == [.summary: "fi"])

        let tabs = try swedish.sections()
        #expect(tabs.map(\.languages.fallbacks) == tabs.map { $0.id == .recipes ? [.title: "fi"] : [:] })
        let retailers = try swedish.retailerRows()
        #expect(!retailers.isEmpty && retailers.allSatisfy { $0.languages.fallbacks == [.openingHours: "fi"] })
        let home = try swedish.home(on: day)
        #expect(home.picture.languages.fallbacks == [.alt: "fi"] && home.languages.fallbacks.isEmpty)
        #expect(try swedish.company().languages.fallbacks == [.name: "fi"])
    }

    @Test func aTextFallsBackAlongTheChainToTheFirstLanguageThatHasIt() throws {
        // Swedish of Åland (sv-AX) falls back to Swedish, then Finnish.
        let path = try Self.copy(BundleFixtures.shipped) { db in
            try db.execute(sql: """
                INSERT INTO languages (code, position, fallback) VALUES ('sv-AX', 4, 'sv');
                INSERT INTO list_positions (kind, language, position, entity_id)
                    SELECT kind, 'sv-AX', position, entity_id FROM list_positions WHERE language = 'sv';
                INSERT INTO translations (kind, entity_id, field, language, text)
                    SELECT kind, entity_id, field, 'sv-AX', 'Åländsk ' || text FROM translations
                    WHERE language = 'sv' AND kind = 'product' AND entity_id = 'espresso' AND field = 'summary';
                DELETE FROM translations WHERE language = 'sv' AND kind = 'product' AND entity_id = 'espresso' AND field = 'name';
                """)
        }
        let aland = try CatalogBundle(path: path).reading(in: ["sv-AX"])
        #expect(aland.language == "sv-AX")
        let espresso = try #require(try aland.product(ProductID(rawValue: "espresso")))
        #expect(espresso.summary.hasPrefix("Åländsk "))
        #expect(espresso.languages == TextLanguages(language: "sv-AX", fallbacks: [.name: "fi", .body: "sv"]))
        #expect(espresso.pictures.allSatisfy { $0.languages.fallbacks == [.alt: "sv"] })
    }

    @Test func listsAreInTheLanguagesOrder() throws {
        for language in ["fi", "sv", "en"] {
            let bundle = shipped.reading(in: [language])
            let stored = try Self.listOrder(BundleFixtures.shipped, kind: "recipe", language: language)
            let rows = try bundle.recipeRows()
            #expect(rows.map(\.id.rawValue) == stored, "\(language)")
            // A page is a range of that order.
            #expect(try bundle.recipeRows(offset: 3, limit: 4).map(\.id) == Array(rows[3..<7].map(\.id)))
            #expect(try bundle.retailerRows(offset: 1, limit: 2).map(\.id) == Array(try bundle.retailerRows()[1..<3].map(\.id)))
            #expect(try bundle.retailerRows(offset: .max, limit: .max).isEmpty)
        }
        let swedish = try shipped.reading(in: ["sv"]).recipeRows().map(\.id)
        let english = try shipped.reading(in: ["en"]).recipeRows().map(\.id)
        #expect(swedish != english, "the names sort differently in Swedish and English")
    }

    @Test func searchHitsAreShownInTheLanguageRead() throws {
        let swedish = shipped.reading(in: ["sv"])
        let hits = try swedish.search("espresso")
        let espresso = try #require(hits.first { $0.target == .product(ProductID(rawValue: "espresso")) })
        let product = try #require(try swedish.product(ProductID(rawValue: "espresso")))
        #expect(espresso.summary == product.summary && espresso.languages == TextLanguages(language: "sv"))
        let retailer = try #require(try swedish.search("a").first { if case .retailer = $0.target { true } else { false } })
        #expect(retailer.summary.isEmpty && retailer.languages.fallbacks.isEmpty, "a retailer has no summary to fall back")
    }

    @Test func eachLanguageSearchesItsOwnTexts() throws {
        let swedish = shipped.reading(in: ["sv"]), english = shipped.reading(in: ["en"])
        #expect(try swedish.search("mjölk").contains { $0.target == .recipe("cafe-latte") })
        #expect(try swedish.search("mjolk").map(\.target) == (try swedish.search("mjölk")).map(\.target), "no name has either")
        #expect(try swedish.search("maitokahvi").isEmpty && english.search("maitokahvi").isEmpty)
        #expect(try shipped.search("maitokahvi").contains { $0.target == .recipe("cafe-latte") })
        #expect(try english.search("whole milk").contains { $0.target == .recipe("cafe-latte") })
        // Paging through hits: the same first hits whatever the limit.
        let all = try english.search("co", limit: 50)
        #expect(try english.search("co", limit: 3) == Array(all.prefix(3)))
        #expect(try english.search("co", limit: 0).isEmpty && english.search("  ").isEmpty)
    }

    @Test func searchFoldsEveryAccentButTheLanguagesOwnLetters() {
        #expect(SearchLetters.folded("Café Päärynä Ålö", language: "fi") == "Cafe Päärynä Ålö")
        #expect(SearchLetters.folded("Café Päärynä Ålö", language: "sv-FI") == "Cafe Päärynä Ålö")
        #expect(SearchLetters.folded("Café Päärynä Ålö", language: "en") == "Cafe Paaryna Alo")
        #expect(SearchLetters.folded("Caffè crème brûlée, naïve", language: "sv") == "Caffe creme brulee, naive")
        // Decomposed input is the same letters.
        #expect(SearchLetters.folded("Pa\u{308}a\u{308}", language: "fi") == "Pää")
        #expect(SearchLetters.folded("", language: "fi").isEmpty)
        // ASCII as it is, and between other letters.
        #expect(SearchLetters.folded("Kolumbia Supremo, 250 g\r\n", language: "en") == "Kolumbia Supremo, 250 g\r\n")
        #expect(SearchLetters.folded("Crème 2 ä\r\nö", language: "fi") == "Creme 2 ä\r\nö")
        #expect(SearchLetters.ownLetters(of: "EN").isEmpty && SearchLetters.ownLetters(of: "FI") == ["å", "ä", "ö"])
    }

    @Test func aSchema2BundleIsFinnishWhateverTheReaderPrefers() throws {
        let old = try CatalogBundle(path: BundleFixtures.smallSchema2)
        #expect(old.languages == ["fi"])
        let swedish = old.reading(in: ["sv"])
        #expect(swedish.language == "fi")
        #expect(try swedish.productRows() == (try old.productRows()))
    }

    @Test func damagedLanguagesAreDamageNotACrash() throws {
        let cases: [(String, String)] = [
            ("UPDATE languages SET fallback = 'en' WHERE code = 'sv'", "fallback"),
            ("UPDATE languages SET fallback = 'sv' WHERE code = 'fi'", "fallback"),
            ("DELETE FROM languages WHERE code = 'fi'", "fallback"),
            ("UPDATE languages SET code = 'sv''; DROP' WHERE code = 'en'", "not a language code"),
            ("DELETE FROM languages", "no default language"),
        ]
        for (change, reason) in cases {
            let path = try Self.copy(BundleFixtures.shipped) { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: change)
            }
            #expect(throws: CatalogBundleError.self, "\(change)") {
                do { _ = try CatalogBundle(path: path, trust: InMemoryTrustStore()) } catch {
                    #expect("\(error)".contains(reason), "\(change): \(error)")
                    throw error
                }
            }
        }
        // Search runs found from a count a damaged bundle gives as anything: no crash, no other language's rows.
        for change in ["DELETE FROM search_entries", "UPDATE search_entries SET rowid = 9223372036854775000 WHERE rowid = 1",
                       "UPDATE search_entries SET rowid = -5 WHERE rowid = (SELECT max(rowid) FROM search_entries)"] {
            let path = try Self.copy(BundleFixtures.shipped) { db in try db.execute(sql: change) }
            for language in ["fi", "sv", "en"] {
                let bundle = try CatalogBundle(path: path, trust: InMemoryTrustStore()).reading(in: [language])
                do {
                    let hits = try bundle.search("es")
                    #expect(hits.allSatisfy { $0.languages.language == language }, "\(change)")
                } catch {
                    #expect(error.isDamage, "\(change), \(language): \(error)")
                }
            }
        }
                // A translation read from a chain's language that is not there: damage, on the screen that reads it.
        let path = try Self.copy(BundleFixtures.shipped) { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; UPDATE translations SET text = '' WHERE language = 'sv' AND field = 'name'")
        }
        #expect(throws: CatalogBundleError.self) { _ = try CatalogBundle(path: path).reading(in: ["sv"]).productRows() }
        #expect(try CatalogBundle(path: path).productRows().count == 3, "Finnish does not read the Swedish rows")
    }

    // MARK: - Helpers

    private func everyRoute(of bundle: CatalogBundle) throws -> [Route] {
        var routes: [Route] = [.home, .products, .recipes, .retailers, .company]
        routes += try bundle.productRows().map { .product($0.id) }
        routes += try bundle.recipeRows().map { .recipe($0.id) }
        return routes
    }

    /// A copy of `bundle` changed in SQLite by `change`.
    static func copy(_ bundle: String, _ change: (Database) throws -> Void) throws -> String {
        let path = BundleFixtures.folder.appendingPathComponent("languages-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: bundle, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try change(db) }
        try queue.close()
        return path
    }

    /// A copy of `bundle` without the translations into `language` that `condition` selects.
    static func withoutTranslations(of bundle: String, language: String, where condition: String) throws -> String {
        try copy(bundle) { db in
            try db.execute(sql: "DELETE FROM translations WHERE language = ? AND (\(condition))", arguments: [language])
            #expect(db.changesCount > 5)
        }
    }

    /// The ids of a list in `language`'s order, as the bundle stores it.
    static func listOrder(_ bundle: String, kind: String, language: String) throws -> [String] {
        let queue = try DatabaseQueue(path: bundle, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try queue.read { db in
            try String.fetchAll(db, sql: language == "fi"
                ? "SELECT id FROM \(kind)s ORDER BY position"
                : "SELECT entity_id FROM list_positions WHERE kind = ? AND language = ? ORDER BY position",
                arguments: language == "fi" ? [] : [kind, language])
        }
    }
}

extension CatalogBundleError {
    /// Whether this is a damaged bundle's error.
    var isDamage: Bool {
        if case .damaged = self { return true }
        return false
    }
}
