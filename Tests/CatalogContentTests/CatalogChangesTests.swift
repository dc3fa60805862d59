@testable import CatalogContent
import CatalogModel
import Foundation
import Testing
import TestSupport

/// `CatalogChanges` between two catalogues: what is added, removed and changed, field by field,
/// text word by word, positions only for what really moved.
@Suite struct CatalogChangesTests {
    func changes(_ change: (inout Catalog) -> Void) -> CatalogChanges {
        var new = Sample.catalog
        change(&new)
        return CatalogChanges(from: Sample.catalog, to: new, oldDigest: "old", newDigest: "new")
    }

    @Test func theSameCatalogueHasNoChanges() {
        let same = changes { $0.releaseVersion = "2026.11.1" }
        #expect(same.isEmpty)
        #expect(same.old.releaseVersion == "2026.11.0" && same.new.releaseVersion == "2026.11.1")
        #expect(same.old.contentDigest == "old" && same.new.contentDigest == "new")
    }

    @Test func entitiesAddedAndRemovedAreListedByKindThenID() {
        let result = changes { catalog in
            catalog.products.append(Sample.product("coffee-beans", name: "Kahvipavut", body: "Kokonaiset pavut."))
            catalog.recipes.removeAll { $0.id == "cafe-au-lait" }
            catalog.home.promotions = []
        }
        #expect(result.entities.map { "\($0.kind.rawValue) \($0.slug) \($0.change.rawValue) \($0.name)" } == [
            "promotion uutuus removed Uutuus",
            "product coffee-beans added Kahvipavut",
            "recipe cafe-au-lait removed Café au lait",
        ])
        #expect(result.entities.allSatisfy { $0.fields.isEmpty })
        #expect(result.count(.product) == (1, 0, 0) && result.count(.recipe) == (0, 1, 0))
    }

    @Test func aChangedTextIsShownWordByWord() throws {
        let result = changes { catalog in
            catalog.products[0].summary = "Tummapaahteinen, hienoksi jauhettu espressojauhe"
        }
        let field = try #require(result.entities.first?.fields.first)
        #expect(field.field == "summary")
        #expect(field.old == "Tummapaahteinen espressojauhe" && field.new == "Tummapaahteinen, hienoksi jauhettu espressojauhe")
        #expect(field.words == [.init(.same, "Tummapaahteinen"), .init(.added, ", hienoksi jauhettu"), .init(.same, " espressojauhe")])
    }

    @Test func theWordsGiveBackBothTexts() {
        let pairs = [("", "uusi teksti"), ("vanha teksti", ""), ("a b c d", "a x c d e"), ("  alku", "alku  "), ("yksi\nkaksi", "yksi kaksi"),
                     ("Kahvi, maito ja sokeri.", "Maito, kahvi ja sokeri!")]
        for (old, new) in pairs {
            let words = WordDifference.words(from: old, to: new)
            #expect(words.filter { $0.op != .added }.map(\.text).joined() == old, "\(old) → \(new)")
            #expect(words.filter { $0.op != .removed }.map(\.text).joined() == new, "\(old) → \(new)")
            #expect(zip(words, words.dropFirst()).allSatisfy { $0.op != $1.op }, "runs are merged")
        }
    }

    @Test func setsShowWhatWasGainedAndLost() throws {
        let result = changes { catalog in
            catalog.retailers[0].sells = ["espresso"]
            catalog.recipes[0].ingredients[0].product = "ground-coffee"
            catalog.products[0].images = [picture("Uusi paketti")]
            catalog.products[0].body = paragraph("Sopii kaikkeen.")
        }
        let byID = Dictionary(uniqueKeysWithValues: result.entities.map { ($0.slug, $0) })
        let sells = try #require(byID["deling-group"]?.fields.first)
        #expect(sells.field == "sells" && sells.added == [] && sells.removed == ["ground-coffee"])
        let recipeFields = try #require(byID["cafe-latte"]?.fields)
        #expect(recipeFields.map(\.field) == ["ingredients", "products"])
        // The ingredient lines aligned: the one line changed, numbered from 1.
        #expect(recipeFields[0].added == ["1: 1–2 annosta Café Digno Espressoa [product:ground-coffee]"] && recipeFields[0].removed?.count == 1)
        #expect(recipeFields[1].added == ["ground-coffee"] && recipeFields[1].removed == ["espresso"])
        let productFields = try #require(byID["espresso"]?.fields)
        #expect(productFields.map(\.field) == ["body", "pictures", "links"])
        #expect(productFields[1].added == ["images/picture.png \"Uusi paketti\""])
        #expect(productFields[1].removed == ["images/picture.png \"Espressopaketti\""])
        #expect(productFields[2].removed == ["recipe:cafe-latte"] && productFields[2].added == [])
    }

    @Test func onlyWhatMovedGetsAPosition() throws {
        // A product added first moves nothing else.
        let inserted = changes { $0.products.insert(Sample.product("a-first", name: "Aamukahvi", body: "Uusi."), at: 0) }
        #expect(inserted.entities.map(\.slug) == ["a-first"])
        // Two swapped: one of them moved.
        let swapped = changes { $0.products.swapAt(0, 1) }
        #expect(swapped.entities.count == 1)
        #expect(swapped.entities.first?.fields == [.init(field: "position", old: "1", new: "2")] ||
                swapped.entities.first?.fields == [.init(field: "position", old: "2", new: "1")])
        // Sections reordered too.
        let sections = changes { $0.sections.insert($0.sections.removeLast(), at: 0) }
        #expect(sections.entities.map { "\($0.kind.rawValue) \($0.slug)" } == ["section company"])
        #expect(sections.entities.first?.fields == [.init(field: "position", old: "5", new: "1")])
    }

    @Test func singlesShowOldAndNew() throws {
        let result = changes { catalog in
            catalog.home.promotions[0].lastDay = day("2027-01-31")
            catalog.home.promotions[0].link = nil
            catalog.retailers[0].coordinate = Coordinate(latitude: 60.17, longitude: 24.94)
            catalog.company.webAddress = "https://delinggroup.fi"
        }
        let fields = result.entities.flatMap { entity in entity.fields.map { "\(entity.slug).\($0.field): \($0.old ?? "-") → \($0.new ?? "-")" } }
        #expect(fields == [
            "uutuus.last day: 2026-12-31 → 2027-01-31",
            "uutuus.link: product:espresso → -",
            "company.web address: https://www.delinggroup.com → https://delinggroup.fi",
            "deling-group.coordinate: - → 60.17, 24.94",
        ])
    }

    @Test func theJSONIsStable() throws {
        let result = changes { $0.products[0].name = "Espresso Forte" }
        let json = String(decoding: result.encoded(), as: UTF8.self)
        #expect(json.hasPrefix("{\n  \"entities\" : [\n    {\n      \"change\" : \"changed\",\n      \"fields\" : [\n        {\n          \"field\" : \"name\","))
        #expect(json.contains("\"format\" : 1"))
        #expect(json.contains("\"releaseDate\" : \"2026-11-01\""))
        #expect(try JSONDecoder().decode(CatalogChanges.self, from: result.encoded()) == result)
    }

    @Test func aSelectionWithOrdersGivesTheSameChangesAsTheWholeCatalogues() {
        // What digno diff does for two bundles: only the entities that differ or moved, and
        // the lists' orders.
        var new = Sample.catalog
        new.products[1].summary = "Uusi"
        new.products.swapAt(0, 1)
        let whole = CatalogChanges(from: Sample.catalog, to: new, oldDigest: nil, newDigest: nil)
        var oldPart = Sample.catalog, newPart = new
        oldPart.products = oldPart.products.filter { ["ground-coffee", "espresso"].contains($0.id.rawValue) }
        oldPart.recipes = []
        newPart.recipes = []
        oldPart.retailers = []
        newPart.retailers = []
        let orders = (old: CatalogChanges.ListOrders(products: Sample.catalog.products.map(\.id.rawValue), recipes: Sample.catalog.recipes.map(\.id.rawValue),
                                                     retailers: ["deling-group"]),
                      new: CatalogChanges.ListOrders(products: new.products.map(\.id.rawValue), recipes: new.recipes.map(\.id.rawValue),
                                                     retailers: ["deling-group"]))
        let part = CatalogChanges(from: oldPart, to: newPart, oldDigest: nil, newDigest: nil, orders: orders,
                                  pictures: (Sample.catalog.pictureSHA256s, new.pictureSHA256s))
        #expect(part == whole)
        #expect(!whole.isEmpty)
    }

    @Test func aListShuffledWholeMovesAllButTheLongestKeptRunInWorkGrowingWithItsSize() {
        let old = (0..<40_000).map { "id-\($0)" }
        let reversed = CatalogChanges.ListOrders.moved(from: old, to: old.reversed())
        #expect(reversed.count == old.count - 1)
        // Every other pair swapped: half of them moved.
        var swapped = old
        for index in stride(from: 0, to: swapped.count - 1, by: 2) { swapped.swapAt(index, index + 1) }
        #expect(CatalogChanges.ListOrders.moved(from: old, to: swapped).count == old.count / 2)
        // One added at the top and one removed: nothing moved.
        #expect(CatalogChanges.ListOrders.moved(from: old, to: ["new"] + old.dropLast()).isEmpty)
        // A list reversed at a quarter of the size and at the whole: n log n makes about 4.5
        // times the work, the square of the changes 16.
        let quarter = Array(old.prefix(old.count / 4))
        let growth = Work.growth(small: { _ = CatalogChanges.ListOrders.moved(from: quarter, to: quarter.reversed()) },
                                 large: { _ = CatalogChanges.ListOrders.moved(from: old, to: old.reversed()) })
        #expect(growth < 8, "\(growth) times the work for 4 times the list")
    }

    @Test func textsTooDifferentAreReplacedWholeBetweenTheirCommonEnds() {
        let old = "Alku sama. " + (0..<3_000).map { "vanha\($0)" }.joined(separator: " ") + " Loppu sama."
        let new = "Alku sama. " + (0..<3_000).map { "uusi\($0)" }.joined(separator: " ") + " Loppu sama."
        let words = WordDifference.words(from: old, to: new)
        #expect(words.map(\.op) == [.same, .removed, .added, .same])
        #expect(words.first?.text == "Alku sama. " && words.last?.text == " Loppu sama.")
        #expect(words.filter { $0.op != .added }.map(\.text).joined() == old)
        #expect(words.filter { $0.op != .removed }.map(\.text).joined() == new)
    }

    @Test func formOrderAndLinkTargetsAreChangesToo() throws {
        let result = changes { catalog in
            // The same words, now strong; a link to another recipe with the same words.
            catalog.products[0].body = RichText(blocks: [
                .paragraph([.strong([.text("Sopii ")]), .link(.recipe("cafe-au-lait"), [.text("Café Latteen")]), .text(".")])
            ])
            catalog.retailers[0].sells = ["ground-coffee", "espresso"]
            catalog.recipes[1].ingredients[0].product = nil
        }
        let byID = Dictionary(uniqueKeysWithValues: result.entities.map { ($0.slug, $0) })
        let text = try #require(byID["espresso"]?.fields.first { $0.field == "body" })
        #expect(text.old == "Sopii [Café Latteen](recipe:cafe-latte)." && text.new == "**Sopii **[Café Latteen](recipe:cafe-au-lait).")
        #expect(byID["deling-group"]?.fields == [.init(field: "sells order", old: "espresso | ground-coffee", new: "ground-coffee | espresso")])
        #expect(byID["cafe-au-lait"]?.fields.map(\.field) == ["ingredients", "products"])
    }

    /// A catalogue in Finnish, Swedish and English, with the espresso's name and summary in
    /// Swedish and its summary in English.
    static var threeLanguages: Catalog {
        var catalog = Sample.catalog
        catalog.languages = Languages([.init(code: "fi"), .init(code: "sv", fallback: "fi"), .init(code: "en", fallback: "fi")])
        catalog.products[0].translations.add(.text("Espresso på svenska"), for: .name, in: "sv")
        catalog.products[0].translations.add(.text("Mörkrostat espressopulver"), for: .summary, in: "sv")
        catalog.products[0].translations.add(.text("Dark roast espresso grounds"), for: .summary, in: "en")
        return catalog
    }

    @Test func aReaderSeesTheChangesInTheirLanguage() throws {
        let old = Self.threeLanguages
        var new = old
        new.releaseVersion = "2026.11.1"
        var swedish = Translations()
        swedish.add(.text("Espresso på svenska"), for: .name, in: "sv")
        swedish.add(.text("Mörkrostat, finmalet espressopulver"), for: .summary, in: "sv")
        swedish.add(.text("Dark roast espresso grounds"), for: .summary, in: "en")
        new.products[0].translations = swedish
        new.products[1].summary = "Uusi kuvaus"  // not translated: every reader sees the Finnish
        let changes = CatalogChanges(from: old, to: new, oldDigest: nil, newDigest: nil)
        #expect(changes.languages == ["fi", "sv", "en"])

        // As written: the default language's fields, and the translation's as a field of its own.
        let written = try #require(changes.entities.first { $0.slug == "espresso" })
        #expect(written.fields.map(\.field) == ["sv: summary"] && written.fields.first?.language == "sv")

        // A Swedish reader: the Swedish text as the summary, the name in Swedish; the Finnish
        // text a Swedish reader sees where nothing is translated, said to be Finnish (no language).
        let inSwedish = changes.reading(in: ["sv-FI", "en"])
        #expect(inSwedish.language == "sv")
        let espresso = try #require(inSwedish.entities.first { $0.slug == "espresso" })
        #expect(espresso.name == "Espresso på svenska")
        #expect(espresso.fields == [.init(field: "summary", old: "Mörkrostat espressopulver", new: "Mörkrostat, finmalet espressopulver",
                                          words: WordDifference.words(from: "Mörkrostat espressopulver", to: "Mörkrostat, finmalet espressopulver"),
                                          language: "sv")])
        let second = try #require(inSwedish.entities.first { $0.slug == new.products[1].id.rawValue })
        #expect(second.fields.map(\.field) == ["summary"] && second.fields[0].new == "Uusi kuvaus" && second.fields[0].language == nil)

        // An English reader: the espresso's English summary did not change, so only the other product.
        let inEnglish = changes.reading(in: ["en-GB"])
        #expect(inEnglish.language == "en" && inEnglish.entities.map(\.slug) == [new.products[1].id.rawValue])

        // A Finnish reader, or one whose languages the release lacks: the Finnish changes alone.
        for preferred in [["fi"], ["de"], []] {
            let inFinnish = changes.reading(in: preferred)
            #expect(inFinnish.language == "fi" && inFinnish.entities.map(\.slug) == [new.products[1].id.rawValue], "\(preferred)")
        }
    }

    @Test func notesReadByTodaysAppsAndTodaysNotesReadByThisLibrary() throws {
        var new = Self.threeLanguages
        new.products[0].translations = Translations()
        let notes = CatalogChanges(from: Self.threeLanguages, to: new, oldDigest: nil, newDigest: nil)
        #expect(notes.inLanguages?["sv"]?.first?.fields.map(\.field) == ["name", "summary"])
        #expect(notes.inLanguages?["sv"]?.first?.fields.map(\.old) == ["Espresso på svenska", "Mörkrostat espressopulver"])
        // An app of today decodes what it knew, and the new fields are optional: the notes as
        // the library before them wrote them (no language, no languages) read as one language.
        struct TodaysField: Decodable { var field: String; var old: String?; var new: String? }
        struct TodaysEntity: Decodable { var kind: String; var id: String; var name: String; var change: String; var fields: [TodaysField] }
        struct TodaysNotes: Decodable { var format: Int; var entities: [TodaysEntity] }
        let today = try JSONDecoder().decode(TodaysNotes.self, from: notes.encoded())
        #expect(today.format == 1 && today.entities.first?.fields.map(\.field) == ["en: summary", "sv: name", "sv: summary"])

        var before = notes
        (before.languages, before.inLanguages) = (nil, nil)
        for index in before.entities.indices { for field in before.entities[index].fields.indices { before.entities[index].fields[field].language = nil } }
        let decoded = try #require(CatalogChanges.decoded(from: before.encoded()))
        #expect(!String(decoding: before.encoded(), as: UTF8.self).contains("language"))
        #expect(decoded.reading(in: ["sv"]) == decoded, "notes in one language are read as they are")
    }
}
