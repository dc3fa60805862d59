import CatalogContent
import CatalogModel

// A translation's element as `ContentFileEdit` writes it: the text escaped as content's is,
// a rich text's blocks one level in and wrapped as the shipped content is.
extension ContentFileEdit {
    /// The widest line a rich text's blocks are wrapped to, as the shipped content is.
    static let lineWidth = 100

    /// A translation's element, its start tag at `indent`.
    static func element(_ name: String, _ language: LanguageCode, _ value: TranslationUnit.Text, indent: String) -> String {
        "<\(name) xml:lang=\"\(XLIFFWriter.attribute(language.rawValue))\">" + content(value, indent: indent) + "</\(name)>"
    }

    /// An element's content: the words, or a rich text's blocks each on its own lines, one
    /// level in from `indent`, and the end tag's line at `indent`.
    static func content(_ value: TranslationUnit.Text, indent: String, comments: (leading: [String], others: [String]) = ([], [])) -> String {
        guard case .rich(let rich) = value else { return comments.leading.joined() + XLIFFWriter.text(value.words) + comments.others.joined() }
        let inner = indent + "  "
        var lines: [String] = comments.leading.map { inner + $0 }
        for block in rich.blocks {
            switch block {
            case .paragraph(let parts): lines += wrapped("p", parts, indent: inner)
            case .heading(let level, let parts): lines += wrapped("h\(level)", parts, indent: inner)
            case .list(let ordered, let items):
                lines.append(inner + (ordered ? "<ol>" : "<ul>"))
                for item in items { lines += wrapped("li", item, indent: inner + "  ") }
                lines.append(inner + (ordered ? "</ol>" : "</ul>"))
            }
        }
        lines += comments.others.map { inner + $0 }
        return "\n" + lines.joined(separator: "\n") + "\n" + indent
    }

    /// A block element's lines: wrapped at `lineWidth` between words, never inside a tag, the
    /// lines after the first one level further in.
    static func wrapped(_ name: String, _ parts: [RichText.Inline], indent: String) -> [String] {
        // The block as words, each with its tags glued to it; a space in the text is where a
        // line may break.
        var words: [String] = [""]
        func add(_ parts: [RichText.Inline]) {
            for part in parts {
                switch part {
                case .text(let text):
                    let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
                    for (index, piece) in pieces.enumerated() {
                        if index > 0 { words.append("") }
                        words[words.count - 1] += XLIFFWriter.text(String(piece))
                    }
                case .emphasis(let inner):
                    words[words.count - 1] += "<em>"
                    add(inner)
                    words[words.count - 1] += "</em>"
                case .strong(let inner):
                    words[words.count - 1] += "<strong>"
                    add(inner)
                    words[words.count - 1] += "</strong>"
                case .link(let target, let inner):
                    let attribute = switch target {
                    case .product(let id): "product=\"\(XLIFFWriter.attribute(id.rawValue))\""
                    case .recipe(let id): "recipe=\"\(XLIFFWriter.attribute(id.rawValue))\""
                    }
                    words[words.count - 1] += "<link \(attribute)>"
                    add(inner)
                    words[words.count - 1] += "</link>"
                }
            }
        }
        add(parts)
        words[0] = "<\(name)>" + words[0]
        words[words.count - 1] += "</\(name)>"
        var lines: [String] = []
        var line = indent
        var lineStart = true
        for word in words {
            if !lineStart, line.count + 1 + word.count > lineWidth {
                lines.append(line)
                line = indent + "  " + word
            } else {
                line += (lineStart ? "" : " ") + word
            }
            lineStart = false
        }
        lines.append(line)
        return lines
    }
}
