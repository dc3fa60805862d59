import CatalogContent
import CatalogModel
import Testing

/// Things that must appear once: ids, sections, positions, sold products and texts.
@Suite struct DuplicateRulesTests {
    // MARK: duplicate-id and section-missing

    @Test func twoProductsWithTheSameId() {
        let copy = Sample.product("espresso", name: "Espresso Tumma", body: "Tummempi paahto.")
        #expect(diagnostics { $0.products.append(copy) } == [
            .error(.duplicateID, .espresso, nil, "product id 'espresso' is used twice; ids must be unique")
        ])
    }

    /// Reported at the second promotion by its place in the list, naming the first by its
    /// place; the compiler names its line instead. The copy's title is not reported as well.
    @Test func twoPromotionsWithTheSameId() throws {
        let found = diagnostics { $0.home.promotions.append(Sample.promotion) }
        #expect(found.map(\.message) == [
            "promotion id 'uutuus' is also the id of promotion number 1 of the home page; give each promotion an id of its own"
        ])
        let diagnostic = try #require(found.first)
        #expect(diagnostic.code == .duplicateID && diagnostic.entity == .uutuus && diagnostic.field == .promotion(1))
        #expect(diagnostic.clash?.other == .uutuus && diagnostic.clash?.field == .promotion(0))
        #expect(diagnostic.clash?.message(naming: "the promotion at line 9")
            == "promotion id 'uutuus' is also the id of the promotion at line 9; give each promotion an id of its own")
    }

    @Test func aSectionListedTwice() {
        #expect(diagnostics { $0.sections.append(Section(id: .products, title: "Tuotteet", icon: Sample.icon)) } == [
            .error(.duplicateID, EntityReference(.section, "products"), .section(5),
                   "section 'products' is listed twice; list each tab section once")
        ])
    }

    @Test func aMissingSection() {
        #expect(diagnostics { $0.sections.removeAll { $0.id == .company } } == [
            .error(.sectionMissing, EntityReference(.catalog), .sections,
                   "section 'company' is missing; the app has five tabs: home, products, recipes, retailers, company")
        ])
    }

    // MARK: duplicate-position

    @Test func twoProductsAtTheSamePosition() {
        #expect(diagnostics { $0[product: "espresso"].position = 1; $0[product: "ground-coffee"].position = 1 } == [
            .error(.duplicatePosition, .groundCoffee, .position,
                   "position 1 is also given to product 'espresso'; give each a different position")
        ])
        #expect(diagnostics { $0[product: "espresso"].position = 1; $0[product: "ground-coffee"].position = 2 } == [])
    }

    @Test func twoRecipesAtTheSamePosition() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].position = 3; $0[recipe: "cafe-au-lait"].position = 3 } == [
            .error(.duplicatePosition, .cafeAuLait, .position,
                   "position 3 is also given to recipe 'cafe-latte'; give each a different position")
        ])
    }

    // MARK: duplicate-sells

    @Test func aProductSoldTwiceIsAWarning() {
        #expect(diagnostics { $0.retailers[0].sells.append("espresso") } == [
            .warning(.duplicateSells, .delingGroup, .sells(2),
                     "product 'espresso' is listed twice; remove one <sells product=\"espresso\"/>")
        ])
    }

    // MARK: duplicate-ingredient and duplicate-picture: each is its own id in an app's list

    @Test func anIngredientLineWrittenTwiceIsAnError() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "2–3 dl täysmaitoa")) } == [
            .error(.duplicateIngredient, .cafeLatte, .ingredient(2),
                   "the line '2–3 dl täysmaitoa' is written twice; remove one, or say what each is for ('1 tl suolaa taikinaan', '1 tl suolaa täytteeseen')")
        ])
        // The same product on two lines that say different things is fine.
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "Espressoa pinnalle", product: "espresso")) } == [])
    }

    @Test func theSameImageTwiceOnOneScreenIsAnError() {
        #expect(diagnostics { $0[product: "espresso"].images = [picture("Paketti"), picture("Paketti edestä")] } == [
            .error(.duplicatePicture, .espresso, .picture(1),
                   "the image 'images/picture.png' is shown twice in product 'espresso'; remove one, or choose another image")
        ])
        #expect(diagnostics {
            $0[product: "espresso"].images = [picture("Paketti"), picture("Paketti edestä", source: "images/other.png")]
        } == [])
    }

    // MARK: duplicate-text

    @Test func theSameBodyTwiceWarnsOnTheSecondNamingTheFirst() {
        #expect(diagnostics { $0[product: "ground-coffee"].body = $0[product: "espresso"].body } == [
            .warning(.duplicateText, .groundCoffee, .body,
                     "body is the same text as in product 'espresso'; write this product's own text")
        ])
    }

    @Test func whitespaceDifferencesStillCountAsTheSameText() {
        // espresso's body reads "Sopii Café Latteen."
        let reflowed = RichText(blocks: [.paragraph([.text("  Sopii\n\tCafé   Latteen.\r\n")])])
        #expect(diagnostics { $0[product: "ground-coffee"].body = reflowed } == [
            .warning(.duplicateText, .groundCoffee, .body,
                     "body is the same text as in product 'espresso'; write this product's own text")
        ])
    }

    @Test func aRecipeMethodCopiedFromAProductBody() {
        #expect(diagnostics { $0[recipe: "cafe-au-lait"].method = paragraph("Keskipaahteinen suodatinjauhe.") } == [
            .warning(.duplicateText, .cafeAuLait, .method,
                     "method is the same text as in product 'ground-coffee'; write this recipe's own text")
        ])
    }

    @Test func aDifferentWordIsADifferentText() {
        #expect(diagnostics { $0[product: "ground-coffee"].body = paragraph("Sopii Café Lattelle.") } == [])
    }
}
