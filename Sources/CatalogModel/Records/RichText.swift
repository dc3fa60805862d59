import Tagged

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
        blocks.map { block in
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines):
                return Self.plainText(of: inlines)
            case .list(let ordered, let items):
                return items.enumerated().map { index, item in
                    (ordered ? "\(index + 1). " : "- ") + Self.plainText(of: item)
                }.joined(separator: "\n")
            }
        }.joined(separator: "\n\n")
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

    static func plainText(of inlines: [Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): return text
            case .emphasis(let children), .strong(let children), .link(_, let children):
                return plainText(of: children)
            }
        }.joined()
    }
}

/// What an internal link or a promotion opens: a product or a recipe.
public enum LinkTarget: Hashable, Sendable, Codable {
    /// A product's detail screen.
    case product(ProductID)
    /// A recipe's detail screen.
    case recipe(RecipeID)
}
