import CatalogContent
import CatalogModel

/// Rich text as the content's markup in one line (`<p>Vahva <strong>ja</strong> <link
/// product="espresso">pehmeä</link>.</p><ul><li>…</li></ul>`): what `digno studio`'s formatted-
/// text editor sends, read as the compiler reads a body (`RichTextReader`: whitespace collapsed),
/// with only the content's elements where the schema allows them (anything else is refused, so
/// that no word is dropped), and written back the same way for every value, so that two equal
/// texts are one string.
package enum RichTextMarkup {
    /// Why markup could not be read.
    package struct Unreadable: Error, CustomStringConvertible {
        package var description: String
    }

    package static func read(_ markup: String) throws(Unreadable) -> RichText {
        let parser: ContentXMLParser
        do { parser = try ContentXMLParser(libxml: try LibXML.shared.get()) } catch { throw Unreadable(description: "\(error)") }
        let result = parser.parseWellFormed(Array(("<body>" + markup + "</body>").utf8))
        guard let document = result.document, let root = result.root else {
            let words = switch result.problems.first {
            case .malformed(let error), .schema(let error): error.message
            case .doctype: "a DOCTYPE is not allowed"
            case nil: "it is not well-formed"
            }
            throw Unreadable(description: "the formatted text cannot be read: \(words)")
        }
        defer { withExtendedLifetime(document) {} }
        try check(root, blocks: true)
        var reader = RichTextReader(field: .body)
        return reader.read(root) { link, _ in
            switch (link.attribute("product"), link.attribute("recipe")) {
            case (let product?, nil): .product(ProductID(product))
            case (nil, let recipe?): .recipe(RecipeID(recipe))
            default: nil
            }
        }
    }

    /// The elements content allows: blocks at the top, items in lists, the marks and links inside.
    private static func check(_ element: XMLElement, blocks: Bool) throws(Unreadable) {
        for child in element.children {
            let name = child.name
            let allowed: Bool = if blocks { ["p", "h2", "h3", "ul", "ol"].contains(name) }
                else if element.name == "ul" || element.name == "ol" { name == "li" }
                else { ["strong", "em", "link"].contains(name) }
            guard allowed else { throw Unreadable(description: "the formatted text holds <\(name)> in <\(element.name)>, which content does not allow") }
            try check(child, blocks: false)
        }
    }

    package static func write(_ text: RichText) -> String {
        func inline(_ parts: [RichText.Inline]) -> String {
            parts.map { part -> String in
                switch part {
                case .text(let words): XLIFFWriter.text(words)
                case .emphasis(let inner): "<em>" + inline(inner) + "</em>"
                case .strong(let inner): "<strong>" + inline(inner) + "</strong>"
                case .link(.product(let id), let inner): "<link product=\"\(XLIFFWriter.attribute(id.rawValue))\">" + inline(inner) + "</link>"
                case .link(.recipe(let id), let inner): "<link recipe=\"\(XLIFFWriter.attribute(id.rawValue))\">" + inline(inner) + "</link>"
                }
            }.joined()
        }
        return text.blocks.map { block -> String in
            switch block {
            case .paragraph(let parts): "<p>" + inline(parts) + "</p>"
            case .heading(let level, let parts): "<h\(level)>" + inline(parts) + "</h\(level)>"
            case .list(let ordered, let items):
                (ordered ? "<ol>" : "<ul>") + items.map { "<li>" + inline($0) + "</li>" }.joined() + (ordered ? "</ol>" : "</ul>")
            }
        }.joined()
    }
}
