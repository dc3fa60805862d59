
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
}

/// What an internal link or a promotion opens: a product or a recipe.
public enum LinkTarget: Hashable, Sendable, Codable {
    /// A product's detail screen.
    case product(ProductID)
    /// A recipe's detail screen.
    case recipe(RecipeID)
}
