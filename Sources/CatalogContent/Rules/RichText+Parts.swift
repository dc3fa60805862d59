import CatalogModel

// What the rules ask of rich text: its parts (paragraphs, headings, list items, links) by
// their place in a content file, the blank ones, and those holding a character no editor means
// to put there.
extension RichText {
    /// Whether `plainText` is empty or only whitespace, found without building it. A list
    /// with an item is never blank: its plain text holds the item's marker.
    package var isBlank: Bool {
        blocks.allSatisfy { block in
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): Self.isBlank(inlines)
            case .list(_, let items): items.isEmpty
            }
        }
    }

    /// A paragraph, heading, list item or link of rich text: which kind of element, and its
    /// index among the elements of its name in document order, as a content file would count
    /// them (the second `<li>` of the text is list item 1, whichever list it is in; links count
    /// as in `links`). The rules name a part with a problem by it (`FieldPath.part`), and the
    /// compiler, reading a content file, counts the elements the same way to place it.
    package struct Part: Hashable, Sendable, Codable {
        /// The kinds of part.
        package enum Kind: Hashable, Sendable, Codable {
            case paragraph
            case heading(level: Int)
            case listItem
            case link
        }

        /// What the part is.
        package var kind: Kind
        /// Which of the parts of its element name, from 0.
        package var index: Int

        /// A part from its kind and its index among the parts of its element name.
        package init(kind: Kind, index: Int) {
            self.kind = kind
            self.index = index
        }

        /// Its element's name in a content file: `p`, `h2`, `h3`, `li` or `link`.
        package var element: String {
            switch kind {
            case .paragraph: "p"
            case .heading(let level): "h\(level)"
            case .listItem: "li"
            case .link: "link"
            }
        }
    }

    /// The paragraphs, headings, list items and links that hold no text (or only
    /// whitespace): what a reader would see as a gap, a bare bullet or a link with nothing to
    /// tap. In document order.
    package var blankParts: [Part] {
        var parts: [Part] = []
        var links = 0
        func visitLinks(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .text: break
                case .emphasis(let children), .strong(let children): visitLinks(children)
                case .link(_, let children):
                    if Self.isBlank(children) { parts.append(Part(kind: .link, index: links)) }
                    links += 1
                    visitLinks(children)
                }
            }
        }
        forEachPart { part, inlines in
            if Self.isBlank(inlines) { parts.append(part) }
            visitLinks(inlines)
        }
        return parts
    }

    /// The paragraphs, headings and list items (in the indexing of `blankParts`) whose text
    /// holds an `unwantedControl`, with the first such character. In document order.
    package var partsWithUnwantedControls: [(part: Part, control: Unicode.Scalar)] {
        var parts: [(part: Part, control: Unicode.Scalar)] = []
        forEachPart { part, inlines in
            if let control = Self.firstUnwantedControl(inlines) { parts.append((part, control)) }
        }
        return parts
    }

    /// The paragraphs, headings and list items whose text, its inline runs taken together (a
    /// run of marks may go on across emphasis), holds more combining marks in a row than
    /// stream-safe text allows, with the run. In document order.
    package var partsWithLongMarkRuns: [(part: Part, excess: StreamSafeText.Excess)] {
        var parts: [(part: Part, excess: StreamSafeText.Excess)] = []
        forEachPart { part, inlines in
            var text = ""
            Self.appendText(of: inlines, to: &text)
            if let excess = StreamSafeText.excess(in: text) { parts.append((part, excess)) }
        }
        return parts
    }

    private static func appendText(of inlines: [Inline], to text: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let run): text += run
            case .emphasis(let children), .strong(let children), .link(_, let children): appendText(of: children, to: &text)
            }
        }
    }

    /// Each paragraph, heading and list item with its place (its index among the parts of its
    /// kind, headings counted per level) and its inlines, in document order.
    private func forEachPart(_ body: (Part, [Inline]) -> Void) {
        var paragraphs = 0, items = 0
        var headings: [Int: Int] = [:]  // by level
        for block in blocks {
            switch block {
            case .paragraph(let inlines):
                body(Part(kind: .paragraph, index: paragraphs), inlines)
                paragraphs += 1
            case .heading(let level, let inlines):
                body(Part(kind: .heading(level: level), index: headings[level, default: 0]), inlines)
                headings[level, default: 0] += 1
            case .list(_, let listItems):
                for item in listItems {
                    body(Part(kind: .listItem, index: items), item)
                    items += 1
                }
            }
        }
    }

    private static func firstUnwantedControl(_ inlines: [Inline]) -> Unicode.Scalar? {
        for inline in inlines {
            let found: Unicode.Scalar? = switch inline {
            case .text(let text): text.unwantedControl
            case .emphasis(let children), .strong(let children), .link(_, let children): firstUnwantedControl(children)
            }
            if let found { return found }
        }
        return nil
    }

    private static func isBlank(_ inlines: [Inline]) -> Bool {
        inlines.allSatisfy { inline in
            switch inline {
            case .text(let text): text.showsNothing
            case .emphasis(let children), .strong(let children), .link(_, let children): isBlank(children)
            }
        }
    }
}
