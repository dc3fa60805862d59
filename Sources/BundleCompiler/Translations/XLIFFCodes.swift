import CatalogModel

/// Why a translator's target cannot be read back as the source's form.
package enum XLIFFCodeProblem: Error, Hashable, Sendable {
    /// A code digno does not write (`<x/>`, `<ph>`…), by its element's name.
    case foreign(String)
    /// A code the source does not have, or one of another form than the source's of that id.
    case unknown(id: String)
    /// A code of the source missing from the target, or used twice.
    case missing(id: String)
    case twice(id: String)
    /// A block (paragraph, heading, list or list item) not where the source has it: blocks
    /// keep their order and nesting; words outside every block.
    case blockMoved(id: String)
    case textOutsideBlocks
    /// A code inside a plain text, which has none.
    case codeInPlainText

    /// What the translator is told.
    package var message: String {
        switch self {
        case .foreign(let name): "the target has a <\(name)> code, which the source does not have; keep only the source's codes"
        case .unknown(let id): "the target has a code with id \(id) that the source does not have (or of another kind); keep only the source's codes"
        case .missing(let id): "the target lacks the source's code \(id); every code of the source must be in the translation once"
        case .twice(let id): "the target has the source's code \(id) twice; each code must be in the translation once"
        case .blockMoved(let id): "the target moves code \(id), a paragraph, heading, list or list item; keep them in the source's order, translating the words inside each"
        case .textOutsideBlocks: "the target has words outside the source's paragraphs, headings and lists; put them inside one"
        case .codeInPlainText: "the target has a code, and this text has no form: translate the words alone"
        }
    }
}
