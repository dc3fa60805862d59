import CatalogContent
import CatalogModel
import Testing

/// Required fields, length limits and picture counts.
@Suite struct FieldRulesTests {
    @Test func theSampleCatalogueHasNoIssues() {
        #expect(Sample.catalog.validate() == [])
        #expect(Sample.catalog.validate(today: day("2026-11-22")) == [])
    }

    // MARK: empty-field

    @Test func aWhitespaceOnlyNameIsEmpty() {
        #expect(diagnostics { $0[product: "espresso"].name = " \t\n " } == [
            .error(.emptyField, .espresso, .name, "name is empty; write the product's name")
        ])
    }

    /// Invisible characters show nothing: a name of zero-width spaces or a byte order mark is
    /// as empty as one of spaces (it passed before, as a blank row in the list).
    @Test(arguments: ["\u{200B}", "\u{FEFF}", " \u{200D}\u{00A0}\u{2060} ", "\u{200E}\u{3000}"])
    func aNameOfInvisibleCharactersIsEmpty(name: String) {
        #expect(diagnostics { $0[product: "espresso"].name = name } == [
            .error(.emptyField, .espresso, .name, "name is empty; write the product's name")
        ])
        #expect(diagnostics { $0[product: "espresso"].images[0].alt = name } == [
            .error(.emptyField, .espresso, .picture(0), "alt is empty; describe the picture for people who cannot see it")
        ])
        #expect(diagnostics {
            $0[recipe: "cafe-latte"].method = RichText(blocks: [.paragraph([.text("Valmista espresso.")]), .heading(level: 2, [.text(name)])])
        } == [
            .error(.emptyBlock, .cafeLatte, .heading(.method, level: 2, 0), "method has an empty heading; write its text or remove it")
        ])
    }

    @Test(arguments: ["\u{200B}Espresso", "é", "\u{00A0}ä\u{200B}", "☕", "日本"])
    func aNameWithAnythingVisibleIsNotEmpty(name: String) {
        #expect(diagnostics { $0[product: "espresso"].name = name } == [])
    }

    // MARK: control-character

    /// Characters nobody means to type, which show as nothing yet change the text: each is an
    /// error at its field, with what to do.
    @Test func unwantedControlsAreReportedWithWhatToDo() {
        #expect(diagnostics { $0[product: "espresso"].name = "Espresso \u{96} tumma" } == [
            .error(.controlCharacter, .espresso, .name,
                   "name holds the invisible control character U+0096, left by text copied through the wrong encoding; type the character meant, probably '–'")
        ])
        #expect(diagnostics { $0.retailers[0].address = "Kahvikatu 1\u{2028}00100 Helsinki" } == [
            .error(.controlCharacter, .delingGroup, .address,
                   "address holds a line separator (U+2028), which breaks the line where it stands; replace it with a space")
        ])
        #expect(diagnostics { $0[product: "espresso"].images[0].alt = "paketti\u{81}" } == [
            .error(.controlCharacter, .espresso, .picture(0),
                   "alt holds the invisible control character U+0081, left by text copied through the wrong encoding; delete it")
        ])
        #expect(diagnostics {
            $0[recipe: "cafe-latte"].method = RichText(blocks: [
                .paragraph([.text("Valmista espresso.")]),
                .list(ordered: false, items: [[.text("maito")], [.strong([.text("\u{2067}kaakao")])]]),
            ])
        } == [
            .error(.controlCharacter, .cafeLatte, .listItem(.method, 1),
                   "method holds the invisible character U+2067 (RIGHT-TO-LEFT ISOLATE), which changes the direction the text around it is shown in; delete it")
        ])
    }

    /// A separator inside a paragraph or list item may have been meant to start a new one:
    /// the advice says how. In a heading, as in a plain field, only a space will do.
    @Test func aSeparatorInABlockIsAdvisedAsANewBlock() {
        #expect(diagnostics {
            $0[recipe: "cafe-latte"].method = RichText(blocks: [
                .paragraph([.text("Valmista espresso.\u{2029}Lisää maito.")]),
                .heading(level: 2, [.text("Vinkki\u{2028}")]),
                .list(ordered: true, items: [[.text("maito")], [.emphasis([.text("kaakao\u{2028}sokeri")])]]),
            ])
        } == [
            .error(.controlCharacter, .cafeLatte, .paragraph(.method, 0),
                   "method holds a paragraph separator (U+2029), which breaks the line where it stands; replace it with a space, or end the <p> there and start a new one"),
            .error(.controlCharacter, .cafeLatte, .heading(.method, level: 2, 0),
                   "method holds a line separator (U+2028), which breaks the line where it stands; replace it with a space"),
            .error(.controlCharacter, .cafeLatte, .listItem(.method, 1),
                   "method holds a line separator (U+2028), which breaks the line where it stands; replace it with a space, or end the <li> there and start a new one"),
        ])
    }

    @Test(arguments: ["Espresso", "Äidin kahvi", "Café\u{200B}Digno", "\u{200E}שלום", "1–2 dl", "€ ™ … “”"])
    func ordinaryTextHasNoUnwantedControls(text: String) {
        #expect(diagnostics { $0[product: "espresso"].name = text } == [])
    }

    /// A field of nothing but a separator is empty, and reported once, as empty.
    @Test func anEmptyFieldIsNotAlsoAControlCharacter() {
        #expect(diagnostics { $0[product: "espresso"].name = "\u{2028}" }.map(\.code) == [.emptyField])
        #expect(diagnostics {
            $0[recipe: "cafe-latte"].method = RichText(blocks: [.paragraph([.text("Valmista.")]), .paragraph([.text("\u{2029}")])])
        }.map(\.code) == [.emptyBlock])
    }

    @Test func anEmptyPhoneIsReported() {
        #expect(diagnostics { $0.retailers[0].phone = "" } == [
            .error(.emptyField, .delingGroup, .phone, "phone is empty; write the phone number")
        ])
    }

    @Test func anEmptyIngredientLineNamesItsIndex() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients[1].text = "  " } == [
            .error(.emptyField, .cafeLatte, .ingredient(1), "ingredient is empty; write the ingredient line")
        ])
    }

    @Test func anEmptyBodyIsReported() {
        #expect(diagnostics { $0[product: "ground-coffee"].body = RichText(blocks: []) } == [
            .error(.emptyField, .groundCoffee, .body, "body is empty; write the text")
        ])
    }

    // MARK: empty-block, empty-link

    @Test func emptyParagraphsHeadingsAndListItemsAreReportedAtTheirPlace() {
        #expect(diagnostics {
            $0[recipe: "cafe-latte"].method = RichText(blocks: [
                .heading(level: 2, [.text("Valmistus")]),
                .paragraph([.text("Valmista espresso.")]),
                .heading(level: 3, [.strong([.text(" ")])]),
                .list(ordered: true, items: [[.text("Vaahdota maito.")], [], [.text(" \n ")]]),
                .paragraph([]),
            ])
        } == [
            .error(.emptyBlock, .cafeLatte, .heading(.method, level: 3, 0), "method has an empty heading; write its text or remove it"),
            .error(.emptyBlock, .cafeLatte, .listItem(.method, 1), "method has an empty list item; write its text or remove it"),
            .error(.emptyBlock, .cafeLatte, .listItem(.method, 2), "method has an empty list item; write its text or remove it"),
            .error(.emptyBlock, .cafeLatte, .paragraph(.method, 1), "method has an empty paragraph; write its text or remove it"),
        ])
    }

    @Test func aBodyOfOneEmptyListItemIsReportedAsTheItem() {
        // Its plain text is "- ", so the body as a whole is not empty; the item is.
        #expect(diagnostics { $0[product: "ground-coffee"].body = RichText(blocks: [.list(ordered: false, items: [[]])]) } == [
            .error(.emptyBlock, .groundCoffee, .listItem(.body, 0), "body has an empty list item; write its text or remove it")
        ])
    }

    @Test func aWhollyEmptyBodyIsOneIssueNotOnePerBlock() {
        #expect(diagnostics { $0.company.body = RichText(blocks: [.paragraph([]), .heading(level: 2, [.text(" ")])]) } == [
            .error(.emptyField, EntityReference(.company), .body, "body is empty; write the text")
        ])
    }

    @Test func aLinkWithoutTextIsReportedWithItsTarget() {
        #expect(diagnostics {
            $0[product: "espresso"].body = RichText(blocks: [
                .paragraph([.text("Sopii "), .link(.recipe("cafe-latte"), [.emphasis([.text(" ")])]), .text(".")]),
                .paragraph([.link(.recipe("cafe-au-lait"), [.text("Café au lait")]), .link(.recipe("cafe-latte"), [])]),
            ])
        } == [
            .error(.emptyLink, .espresso, .link(.body, 0),
                   "link to recipe 'cafe-latte' has no text to tap; write the words that open it between <link> and </link>"),
            .error(.emptyLink, .espresso, .link(.body, 2),
                   "link to recipe 'cafe-latte' has no text to tap; write the words that open it between <link> and </link>"),
        ])
    }

    @Test func anEmptyOtherInfoIsReportedButAMissingOneIsNot() {
        #expect(diagnostics { $0.retailers[0].otherInfo = " " } == [
            .error(.emptyField, .delingGroup, .info, "info is empty; write the other information, or remove the element")
        ])
        #expect(diagnostics { $0.retailers[0].otherInfo = nil } == [])
    }

    @Test func anEmptyAltIsReported() {
        #expect(diagnostics { $0[product: "espresso"].images[0].alt = "" } == [
            .error(.emptyField, .espresso, .picture(0), "alt is empty; describe the picture for people who cannot see it")
        ])
    }

    // MARK: Length limits

    @Test func aNameOf51CharactersIsTooLongAndOf50IsNot() {
        #expect(diagnostics { $0[product: "espresso"].name = text(51) } == [
            .error(.nameTooLong, .espresso, .name, "name is 51 characters; the limit is 50")
        ])
        #expect(diagnostics { $0[product: "espresso"].name = text(50) } == [])
    }

    @Test func aDecomposedAccentIsOneCharacter() {
        let decomposedE = "e\u{301}"  // é as e + combining acute: 3 UTF-8 bytes, 1 character
        #expect(diagnostics { $0[recipe: "cafe-latte"].name = String(repeating: decomposedE, count: 50) } == [])
        #expect(diagnostics { $0[recipe: "cafe-latte"].name = String(repeating: decomposedE, count: 51) } == [
            .error(.nameTooLong, .cafeLatte, .name, "name is 51 characters; the limit is 50")
        ])
    }

    @Test func theBrandNameHasTheNameLimit() {
        #expect(diagnostics { $0.brand = text(51) } == [
            .error(.nameTooLong, EntityReference(.catalog), .brand, "brand is 51 characters; the limit is 50")
        ])
    }

    @Test func aSummaryOf101CharactersIsTooLong() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].summary = text(101) } == [
            .error(.summaryTooLong, .cafeLatte, .summary, "summary is 101 characters; the limit is 100")
        ])
        #expect(diagnostics { $0[recipe: "cafe-latte"].summary = text(100) } == [])
    }

    @Test func anAddressOf256CharactersIsTooLong() {
        #expect(diagnostics { $0.retailers[0].address = text(256) } == [
            .error(.addressTooLong, .delingGroup, .address, "address is 256 characters; the limit is 255")
        ])
        #expect(diagnostics { $0.retailers[0].address = text(255) } == [])
    }

    @Test func aPhoneOf51CharactersIsTooLong() {
        #expect(diagnostics { $0.retailers[0].phone = text(51) } == [
            .error(.phoneTooLong, .delingGroup, .phone, "phone is 51 characters; the limit is 50")
        ])
        #expect(diagnostics { $0.retailers[0].phone = text(50) } == [])
    }

    @Test func openingHoursOf256CharactersAreTooLong() {
        #expect(diagnostics { $0.retailers[0].openingHours = text(256) } == [
            .error(.hoursTooLong, .delingGroup, .hours, "hours is 256 characters; the limit is 255")
        ])
        #expect(diagnostics { $0.retailers[0].openingHours = text(255) } == [])
    }

    @Test func aPromotionTitleOf51CharactersIsTooLong() {
        #expect(diagnostics { $0.home.promotions[0].title = text(51) } == [
            .error(.titleTooLong, .uutuus, .title, "title is 51 characters; the limit is 50")
        ])
        #expect(diagnostics { $0.home.promotions[0].title = text(50) } == [])
    }

    @Test func aTabTitleOf51CharactersIsTooLong() {
        #expect(diagnostics { $0.sections[1].title = text(51) } == [
            .error(.titleTooLong, EntityReference(.section, "products"), .title, "title is 51 characters; the limit is 50")
        ])
    }

    @Test func aPromotionTextOf256CharactersIsTooLong() {
        #expect(diagnostics { $0.home.promotions[0].text = text(256) } == [
            .error(.textTooLong, .uutuus, .text, "text is 256 characters; the limit is 255")
        ])
        #expect(diagnostics { $0.home.promotions[0].text = text(255) } == [])
    }

    @Test func anAltOf256CharactersIsTooLong() {
        #expect(diagnostics { $0[product: "espresso"].images[0].alt = text(256) } == [
            .error(.altTooLong, .espresso, .picture(0), "alt is 256 characters; the limit is 255")
        ])
        #expect(diagnostics { $0.home.image.alt = text(256) } == [
            .error(.altTooLong, EntityReference(.home), .image, "alt is 256 characters; the limit is 255")
        ])
        #expect(diagnostics { $0.home.image.alt = text(255) } == [])
    }

    // MARK: image-count

    @Test func aProductWithoutPicturesIsReported() {
        #expect(diagnostics { $0[product: "espresso"].images = [] } == [
            .error(.imageCount, .espresso, .images, "product 'espresso' has 0 pictures; give it 1 or 2")
        ])
    }

    @Test func aRecipeWithThreePicturesIsReported() {
        #expect(diagnostics { $0[recipe: "cafe-au-lait"].images = [picture("1"), picture("2", source: "images/2.png"), picture("3", source: "images/3.png")] } == [
            .error(.imageCount, .cafeAuLait, .images, "recipe 'cafe-au-lait' has 3 pictures; give it 1 or 2")
        ])
        #expect(diagnostics { $0[recipe: "cafe-au-lait"].images = [picture("1"), picture("2", source: "images/2.png")] } == [])
    }

    @Test func theCompanyWithoutPicturesIsReported() {
        #expect(diagnostics { $0.company.images = [] } == [
            .error(.imageCount, EntityReference(.company), .images, "company has 0 pictures; give it 1 or 2")
        ])
    }
}
