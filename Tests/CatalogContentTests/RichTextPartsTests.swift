import CatalogContent
import CatalogModel
import Testing

/// What the rules ask of rich text: its blank parts, named as a content file counts them.
@Suite struct RichTextPartsTests {
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
}
