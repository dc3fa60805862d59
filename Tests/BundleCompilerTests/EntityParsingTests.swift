import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// The valid fixture read into the model: every field lands where it belongs, with whitespace
/// collapsed the way docs/CONTENT-FORMAT.md says.
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

    /// Dates, positions and coordinates are of schema types that collapse whitespace, so the
    /// schema accepts them with spaces or line breaks around; the compiler reads them the same
    /// way. Before, each such value passed `digno validate` and was then dropped (a promotion,
    /// a coordinate, a position) or failed the build with no diagnostic (the release date).
    @Test func whitespaceAroundTypedValuesIsReadAsTheSchemaReadsIt() throws {
        let content = try Fixtures.makeContent { content in
            func edit(_ path: String, _ original: String, _ replacement: String) throws {
                let url = content.appendingPathComponent(path)
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains(original), "\(path) holds \(original)")
                try text.replacingOccurrences(of: original, with: replacement).write(to: url, atomically: true, encoding: .utf8)
            }
            try edit("catalog.xml", "date=\"2026-11-01\"", "date=\" 2026-11-01&#10;\"")
            try edit("home.xml", "first-day=\"2026-11-01\" last-day=\"2026-12-31\"", "first-day=\"&#9;2026-11-01 \" last-day=\"\n 2026-12-31\"")
            try edit("retailers/deling-group.xml", "<sells product=\"espresso\"/>",
                     "<location latitude=\" 60.1655 \" longitude=\"24.9400&#13;\"/>\n  <sells product=\"espresso\"/>")
            try edit("products/ground-coffee.xml", "<product id=\"ground-coffee\"", "<product id=\"ground-coffee\" position=\" 1 \"")
            try edit("company.xml", "<web>https://www.delinggroup.com</web>", "<web>\n    https://www.delinggroup.com\n  </web>")
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics == [])
        let catalog = try #require(report.catalog)
        #expect(catalog.releaseDate == Day("2026-11-01"))
        #expect(catalog.home.promotions.map(\.firstDay) == [Day("2026-11-01")!])
        #expect(catalog.home.promotions.map(\.lastDay) == [Day("2026-12-31")!])
        #expect(catalog.retailers.first?.coordinate == Coordinate(latitude: 60.1655, longitude: 24.94))
        #expect(catalog.products.first { $0.id == "ground-coffee" }?.position == 1)
        #expect(catalog.company.webAddress == "https://www.delinggroup.com")
    }
}
