import CatalogModel
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
        #expect(RichText(blocks: [.paragraph([.text("Ei linkkejä.")])]).links == [])
    }
}
