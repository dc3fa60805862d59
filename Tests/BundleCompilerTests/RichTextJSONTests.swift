@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// The hand-written rich-text JSON writer gives exactly what `JSONEncoder` gives, and it
/// decodes back to the same text.
@Test func richTextJSONMatchesJSONEncoderAndRoundTrips() throws {
    let samples: [RichText] = [
        RichText(blocks: []),
        RichText(blocks: [
            .paragraph([.text("Sopii \"hyvin\" \\ / 100 % – é\n\t\u{01}"), .link(.recipe("cafe-latte"), [.text("Café Latteen"), .emphasis([.text("!")])]), .text(".")]),
            .heading(level: 2, [.strong([.text("Vinkkejä")])]),
            .heading(level: 3, [.text("Lisää")]),
            .list(ordered: true, items: [[.text("Jauha.")], [.text("Tamppaa "), .link(.product("espresso"), [.text("tasaisesti")])]]),
            .list(ordered: false, items: [[]]),
        ]),
        RichText(blocks: [.paragraph([.text("\u{08}\u{0C}\u{1F}\r"), .strong([.text("\"")]), .text("ends with \\")])]),
    ]
    let content = BundleBuildTests.shippedContent
    let catalog = try #require(try ContentValidator(contentFolder: content).validate().catalog)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for text in samples + catalog.products.map(\.body) + catalog.recipes.map(\.method) + [catalog.home.body, catalog.company.body] {
        let written = RichTextJSON.encode(text)
        #expect(written == String(decoding: try encoder.encode(text), as: UTF8.self))
        #expect(try JSONDecoder().decode(RichText.self, from: Data(written.utf8)) == text)
    }
}
