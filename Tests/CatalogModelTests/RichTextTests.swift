@testable import CatalogModel
import Testing

@Suite struct RichTextTests {
    @Test func plainTextSeparatesBlocksWithBlankLinesAndDropsFormatting() {
        let text = RichText(blocks: [
            .heading(level: 2, [.text("Vinkkejä")]),
            .paragraph([.text("Jauha "), .strong([.text("hienoksi")]), .text(" ja "), .emphasis([.text("tamppaa")]), .text(".")]),
            .paragraph([.text("Sopii "), .link(.recipe("cafe-latte"), [.text("Café "), .strong([.text("Latteen")])]), .text(".")]),
        ])
        #expect(text.plainText == "Vinkkejä\n\nJauha hienoksi ja tamppaa.\n\nSopii Café Latteen.")
    }

    @Test func plainTextNumbersOrderedListItems() {
        let text = RichText(blocks: [
            .list(ordered: true, items: [[.text("Jauha.")], [.text("Tamppaa "), .emphasis([.text("tasaisesti")]), .text(".")], [.text("Uuta.")]])
        ])
        #expect(text.plainText == "1. Jauha.\n2. Tamppaa tasaisesti.\n3. Uuta.")
    }

    @Test func plainTextDashesUnorderedListItems() {
        let text = RichText(blocks: [
            .paragraph([.text("Tarvitset:")]),
            .list(ordered: false, items: [[.link(.product("espresso"), [.text("Espresso")])], [.text("Maito")]]),
            .paragraph([.text("Nauti.")]),
        ])
        #expect(text.plainText == "Tarvitset:\n\n- Espresso\n- Maito\n\nNauti.")
    }

    @Test func plainTextOfNoBlocksIsEmpty() {
        #expect(RichText(blocks: []).plainText == "")
    }

    /// `isBlank` answers without building the plain text, and must agree with it.
    @Test(arguments: [
        (RichText(blocks: []), true),
        (RichText(blocks: [.paragraph([])]), true),
        (RichText(blocks: [.paragraph([.text(" \n\t")]), .heading(level: 2, [.emphasis([.text("\u{00A0}")])])]), true),
        (RichText(blocks: [.list(ordered: false, items: [])]), true),
        (RichText(blocks: [.list(ordered: true, items: [[]])]), false),  // "1. "
        (RichText(blocks: [.paragraph([.text(" "), .link(.product("espresso"), [.strong([.text("x")])])])]), false),
        (RichText(blocks: [.paragraph([.text("a")])]), false),
    ])
    func isBlankAgreesWithPlainText(text: RichText, blank: Bool) {
        #expect(text.isBlank == blank)
        #expect(text.plainText.allSatisfy(\.isWhitespace) == blank)
    }

    @Test func blankPartsNameElementsByTheirIndexAmongTheirKind() {
        let text = RichText(blocks: [
            .paragraph([.text("Yksi")]),
            .heading(level: 2, []),
            .paragraph([.link(.product("espresso"), [.text(" ")]), .text(" ")]),
            .list(ordered: false, items: [[.text("a")], [.emphasis([])]]),
            .heading(level: 3, [.text("b")]),
            .heading(level: 2, [.text("c")]),
            .list(ordered: true, items: [[.link(.recipe("cafe-latte"), [.text("Latte")])], [.text("\u{00A0}")]]),
            .heading(level: 3, [.text(" ")]),
        ])
        #expect(text.blankParts == [
            .init(kind: .heading(level: 2), index: 0), .init(kind: .paragraph, index: 1), .init(kind: .link, index: 0),
            .init(kind: .listItem, index: 1), .init(kind: .listItem, index: 3), .init(kind: .heading(level: 3), index: 1),
        ])
        #expect(text.blankParts.map { "\($0.element)[\($0.index)]" } == ["h2[0]", "p[1]", "link[0]", "li[1]", "li[3]", "h3[1]"])
        #expect(paragraph("Ei tyhjää.").blankParts == [])
    }

    @Test func linksAreInReadingOrderThroughListsAndEmphasis() {
        let text = RichText(blocks: [
            .heading(level: 2, [.link(.recipe("cafe-latte"), [.text("Latte")])]),
            .paragraph([.text("Katso "), .emphasis([.strong([.link(.product("espresso"), [.text("espresso")])])])]),
            .list(ordered: false, items: [
                [.text("Ei linkkiä")],
                [.strong([.link(.product("ground-coffee"), [.emphasis([.link(.recipe("cafe-au-lait"), [.text("au lait")])])])])],
            ]),
            .list(ordered: true, items: [[.link(.product("espresso"), [.text("taas")])]]),
        ])
        #expect(text.links == [
            .recipe("cafe-latte"), .product("espresso"), .product("ground-coffee"), .recipe("cafe-au-lait"), .product("espresso"),
        ])
    }

    @Test func textWithoutLinksHasNone() {
        #expect(paragraph("Ei linkkejä.").links == [])
    }
}
