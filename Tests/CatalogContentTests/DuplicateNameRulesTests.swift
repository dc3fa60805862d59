@testable import CatalogContent
import CatalogModel
import Testing

/// `duplicate-name`: two entities of one list a reader cannot tell apart, compared as a reader
/// sees their names; and the edit distance behind every "did you mean".
@Suite struct DuplicateNameRulesTests {
    @Test func twoRecipesWithTheSameNameReportBothEachNamingTheOther() throws {
        let found = diagnostics { $0[recipe: "cafe-au-lait"].name = "Café Latte" }
        #expect(found.map(\.message) == [
            "recipe name 'Café Latte' is also the name of recipe 'cafe-latte'; give each recipe a name of its own",
            "recipe name 'Café Latte' is also the name of recipe 'cafe-au-lait'; give each recipe a name of its own",
        ])
        #expect(found.last?.entity == .cafeLatte && found.last?.clash?.other == .cafeAuLait)
        let diagnostic = try #require(found.first)
        #expect(diagnostic.code == .duplicateName && diagnostic.severity == .error)
        #expect(diagnostic.entity == .cafeAuLait && diagnostic.field == .name)
        #expect(diagnostic.clash?.other == .cafeLatte)
        #expect(diagnostic.clash?.message(naming: "recipes/cafe-latte.xml")
            == "recipe name 'Café Latte' is also the name of recipes/cafe-latte.xml; give each recipe a name of its own")
    }

    @Test func capitalsAndSpacesDoNotMakeANameAnother() {
        #expect(diagnostics { $0[product: "ground-coffee"].name = "  ESPRESSO " }.map(\.message) == [
            "product name '  ESPRESSO ' is also the name of product 'espresso' (written 'Espresso'); give each product a name of its own",
            "product name 'Espresso' is also the name of product 'ground-coffee' (written '  ESPRESSO '); give each product a name of its own",
        ])
        #expect(diagnostics { $0[recipe: "cafe-au-lait"].name = "café\n  LATTE" }.map(\.message) == [
            "recipe name 'café\n  LATTE' is also the name of recipe 'cafe-latte' (written 'Café Latte'); give each recipe a name of its own",
            "recipe name 'Café Latte' is also the name of recipe 'cafe-au-lait' (written 'café\n  LATTE'); give each recipe a name of its own",
        ])
    }

    @Test func twoRetailersWithTheSameName() {
        let copy = Retailer(
            id: "kahvila", name: "Deling Group", logo: Sample.icon, address: "Kahvikuja 3, 00100 Helsinki",
            phone: "040 765 4321", openingHours: "ma–la 8–20", sells: ["espresso"])
        #expect(diagnostics { $0.retailers.append(copy) } == [
            .error(.duplicateName, EntityReference(.retailer, "kahvila"), .name,
                   "retailer name 'Deling Group' is also the name of retailer 'deling-group'; give each retailer a name of its own")
                .clashing(with: .delingGroup, .name, lead: "retailer name 'Deling Group' is also the name of ",
                          rest: "; give each retailer a name of its own"),
            .error(.duplicateName, .delingGroup, .name,
                   "retailer name 'Deling Group' is also the name of retailer 'kahvila'; give each retailer a name of its own")
                .clashing(with: EntityReference(.retailer, "kahvila"), .name, lead: "retailer name 'Deling Group' is also the name of ",
                          rest: "; give each retailer a name of its own"),
        ])
    }

    @Test func twoPromotionsWithTheSameTitle() throws {
        var second = Sample.promotion
        second.id = "joulu"
        second.title = "UUTUUS"
        let found = diagnostics { $0.home.promotions.append(second) }
        #expect(found.map(\.message) == [
            "promotion title 'UUTUUS' is also the title of promotion 'uutuus' (written 'Uutuus'); give each promotion a title of its own"
        ])
        let diagnostic = try #require(found.first)
        #expect(diagnostic.entity == EntityReference(.promotion, "joulu") && diagnostic.field == .title)
        #expect(diagnostic.clash?.other == .uutuus && diagnostic.clash?.field == .promotion(0))
    }

    @Test func accentsAndTheDotlessIMakeNamesDifferent() {
        #expect(diagnostics { $0[product: "ground-coffee"].name = "Espressö" } == [])
        #expect(diagnostics { $0[product: "ground-coffee"].name = "Éspresso" } == [])
        #expect(diagnostics { $0[product: "ground-coffee"].name = "Espresso\u{0131}"; $0[product: "espresso"].name = "Espressoi" } == [])
    }

    /// A name that shows nothing is `empty-field`'s, however many there are.
    @Test func emptyNamesAreNotDuplicates() {
        #expect(diagnostics { $0[product: "espresso"].name = " "; $0[product: "ground-coffee"].name = "" }.map(\.code) == [.emptyField, .emptyField])
    }

    /// Different kinds are different lists: a product and a recipe may share a name.
    @Test func aProductAndARecipeMayShareAName() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].name = "Espresso" } == [])
    }

    @Test(arguments: [
        ("STRASSE", "Straße"), ("STRAẞE", "straße"), ("ΟΔΟΣ", "οδος"), ("Café Latte", "CAFÉ LATTE"),
        ("Cafe\u{301} Latte", "Café latte"), (" Café \n\t Latte ", "café latte"), ("İstanbul", "i\u{307}stanbul"),
        // Whitespace of any kind, and characters that show nothing, are as a reader sees them.
        ("Café\u{A0}Latte", "Café Latte"), ("Café\u{200B} Latte", "café latte"), ("Kah\u{AD}vi", "KAHVI"), ("\u{2003}Latte ", "latte"),
    ])
    func namesAReaderTakesForOne(_ a: String, _ b: String) {
        #expect(CatalogRules.readerKey(a) == CatalogRules.readerKey(b))
    }

    @Test(arguments: [("Kahvi", "Kähvi"), ("Kahvı", "Kahvi"), ("KAHVI", "kahvı"), ("Cafe Latte", "Café Latte"), ("Latte 1", "Latte 2")])
    func namesAReaderTellsApart(_ a: String, _ b: String) {
        #expect(CatalogRules.readerKey(a) != CatalogRules.readerKey(b))
    }

    @Test func theBoundedEditDistanceIsLevenshteinsWithinItsLimit() {
        func full(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        let words = ["", "a", "ab", "espresso", "espreso", "expresso", "cafe-latte", "cafe-late", "cafe-au-lait", "latte-cafe",
                     "kitten", "sitting", "Café", "Cafe\u{301}", "images/recipes/cafe-latte-2.png", "images/recipes/cafe-late-2.png"]
        for a in words {
            for b in words {
                let distance = full(Array(a), Array(b))
                for limit in 0...4 {
                    #expect(editDistance(Array(a), Array(b), limit: limit) == (distance <= limit ? distance : nil), "\(a) \(b) \(limit)")
                }
            }
        }
    }
}

extension EntityDiagnostic {
    /// This diagnostic as one of two entities given one id or name.
    func clashing(with other: EntityReference, _ field: FieldPath?, lead: String, rest: String) -> EntityDiagnostic {
        var diagnostic = self
        diagnostic.clash = Clash(other: other, field: field, lead: lead, rest: rest)
        return diagnostic
    }
}
