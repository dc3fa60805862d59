
/// Formatted text: paragraphs, headings and lists, with emphasis, strong and internal links.
/// Nothing else exists in it, so every client can render all of it.
public struct RichText: Hashable, Sendable, Codable {
    /// The blocks in reading order.
    public var blocks: [Block]

    /// Rich text from its blocks.
    public init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// A block of rich text.
    public enum Block: Hashable, Sendable, Codable {
        /// A paragraph.
        case paragraph([Inline])
        /// A heading; level 2 is a section heading, level 3 a subheading.
        case heading(level: Int, [Inline])
        /// A list of items, numbered when `ordered`.
        case list(ordered: Bool, items: [[Inline]])
    }

    /// A run of text inside a block.
    public enum Inline: Hashable, Sendable, Codable {
        /// Plain text.
        case text(String)
        /// Emphasised text (italic).
        case emphasis([Inline])
        /// Strong text (bold).
        case strong([Inline])
        /// A link to a product or a recipe.
        case link(LinkTarget, [Inline])
    }

    /// The text without formatting: blocks separated by blank lines, list items on lines of
    /// their own (numbered `1.` for ordered lists, `-` otherwise).
    public var plainText: String {
        // Appended into one string: the compiler takes the plain text of every product and
        // recipe, and joining arrays of pieces allocated an array and a string per block.
        var output = ""
        for (index, block) in blocks.enumerated() {
            if index > 0 { output += "\n\n" }
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines):
                Self.appendPlainText(of: inlines, to: &output)
            case .list(let ordered, let items):
                for (number, item) in items.enumerated() {
                    if number > 0 { output += "\n" }
                    if ordered {
                        output += String(number + 1)
                        output += ". "
                    } else {
                        output += "- "
                    }
                    Self.appendPlainText(of: item, to: &output)
                }
            }
        }
        return output
    }

    /// Whether `plainText` is empty or only whitespace, found without building it. A list
    /// with an item is never blank: its plain text holds the item's marker.
    var isBlank: Bool {
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
    package struct Part: Hashable, Sendable {
        /// The kinds of part.
        package enum Kind: Hashable, Sendable {
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

    /// Every internal link, in reading order.
    public var links: [LinkTarget] {
        var result: [LinkTarget] = []
        func collect(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .text: break
                case .emphasis(let children), .strong(let children): collect(children)
                case .link(let target, let children):
                    result.append(target)
                    collect(children)
                }
            }
        }
        for block in blocks {
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): collect(inlines)
            case .list(_, let items): items.forEach(collect)
            }
        }
        return result
    }

    private static func appendPlainText(of inlines: [Inline], to output: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let text): output += text
            case .emphasis(let children), .strong(let children), .link(_, let children):
                appendPlainText(of: children, to: &output)
            }
        }
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

/// What an internal link or a promotion opens: a product or a recipe.
public enum LinkTarget: Hashable, Sendable, Codable {
    /// A product's detail screen.
    case product(ProductID)
    /// A recipe's detail screen.
    case recipe(RecipeID)
}
