import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// The valid fixture read into the model: every field lands where it belongs, with whitespace
/// collapsed the way the README says.
@Suite struct EntityParsingTests {
    let catalog: Catalog

    init() throws {
        catalog = try #require(try Fixtures.validate(Fixtures.valid).catalog)
    }

    @Test func catalogFileGivesReleaseAndTabsInOrder() {
        #expect(catalog.brand == "Café Digno")
        #expect(catalog.releaseVersion == "2026.11.0")
        #expect(catalog.releaseDate == Day("2026-11-01"))
        #expect(catalog.sections.map(\.id) == [.home, .products, .recipes, .retailers, .company])
        #expect(catalog.sections.map(\.title) == ["Etusivu", "Tuotteet", "Kahvireseptit", "Jälleenmyyjät", "Deling Group"])
        #expect(catalog.sections[0].icon == ImageReference(source: "images/icon.png"))
    }

    @Test func richTextKeepsStructureAndCollapsesWhitespace() throws {
        let espresso = try #require(catalog.products.first { $0.id == "espresso" })
        #expect(espresso.body == RichText(blocks: [
            .paragraph([.text("Sopii "), .link(.recipe("cafe-latte"), [.text("Café Latteen")]), .text(".")]),
            .heading(level: 2, [.text("Vinkkejä")]),
            .list(ordered: true, items: [[.text("Jauha hienoksi.")], [.text("Tamppaa "), .strong([.text("tasaisesti")]), .text(".")]]),
        ]))
        #expect(espresso.body.plainText == "Sopii Café Latteen.\n\nVinkkejä\n\n1. Jauha hienoksi.\n2. Tamppaa tasaisesti.")
        #expect(espresso.images == [ImageReference(source: "images/picture.png", alt: "Espressopaketti")])
        #expect(espresso.position == nil)
    }

    @Test func recipeIngredientsKeepOrderAndProductLinks() throws {
        let latte = try #require(catalog.recipes.first { $0.id == "cafe-latte" })
        #expect(latte.ingredients == [
            Ingredient(text: "1–2 annosta Café Digno Espressoa", product: "espresso"),
            Ingredient(text: "2–3 dl täysmaitoa"),
        ])
        #expect(latte.method.blocks == [.paragraph([.text("Valmista espresso ja vaahdota maito.")])])
    }

    @Test func retailerFields() throws {
        let retailer = try #require(catalog.retailers.first)
        #expect(retailer.name == "Deling Group")
        #expect(retailer.address == "Sannankatu 12, 00100 Helsinki")
        #expect(retailer.openingHours == "ma–pe 9–17")
        #expect(retailer.otherInfo == nil)
        #expect(retailer.coordinate == nil)
        #expect(retailer.sells == ["espresso", "ground-coffee"])
    }

    @Test func homeAndCompany() {
        #expect(catalog.home.body.blocks == [.paragraph([.text("Tervetuloa "), .emphasis([.text("Café Digno")]), .text(" -kahvien pariin.")])])
        #expect(catalog.home.promotions == [Promotion(
            id: "uutuus", title: "Uutuus", text: "Espresso on täällä.",
            image: ImageReference(source: "images/picture.png", alt: "Espressopaketti"),
            firstDay: Day("2026-11-01")!, lastDay: Day("2026-12-31")!, link: .product("espresso"))])
        #expect(catalog.company.webAddress == "https://www.delinggroup.com")
        #expect(catalog.company.images.count == 1)
    }

    @Test func whitespaceAcrossInlineElementsBecomesOneSpace() throws {
        let content = try Fixtures.makeContent { content in
            let file = content.appendingPathComponent("products/ground-coffee.xml")
            let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
                of: "<p>Suodatinkahvi kotiin.</p>",
                with: "<p>\n   Suodatinkahvi  <em> kotiin </em>\n  ja <strong>\tmökille</strong>  .  </p>\n<p><em>  </em>Toinen\r\n kappale</p>")
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let catalog = try #require(try Fixtures.validate(content).catalog)
        let product = try #require(catalog.products.first { $0.id == "ground-coffee" })
        #expect(product.body.blocks == [
            .paragraph([.text("Suodatinkahvi "), .emphasis([.text("kotiin")]), .text(" ja "), .strong([.text("mökille")]), .text(" .")]),
            .paragraph([.text("Toinen kappale")]),
        ])
        #expect(product.body.plainText == "Suodatinkahvi kotiin ja mökille .\n\nToinen kappale")
    }
}
