import CatalogModel

/// A text as an XLIFF file holds it: its words, and paired inline codes (1.2 `<g>`, 2.0 `<pc>`)
/// that stand for its form. The export writes a rich text's form as codes numbered from 1 in
/// document order (`pieces(of:)`); the import reads a translator's target back into pieces and
/// rebuilds the form from the source's codes, by number (`richText(from:source:)`), so that a
/// translator moves words between codes but decides no form and no link's target.
package enum XLIFFPiece: Hashable, Sendable {
    case text(String)
    /// A paired code: its id, the form it stands for, what it holds.
    case code(id: String, form: Form, [XLIFFPiece])
    /// An element digno never writes in a text (`<x/>`, `<ph>`, `<bx/>`, or a paired code of
    /// no form digno knows): its name as written, so that a refusal can say which.
    case foreign(String)

    /// What a paired code stands for.
    package enum Form: String, Hashable, Sendable, CaseIterable {
        case paragraph = "p", heading2 = "h2", heading3 = "h3", unorderedList = "ul", orderedList = "ol", listItem = "li"
        case emphasis = "i", strong = "b", link

        /// A block of rich text (a paragraph, heading or list), rather than a part of one.
        var isBlock: Bool {
            switch self {
            case .paragraph, .heading2, .heading3, .unorderedList, .orderedList: true
            case .listItem, .emphasis, .strong, .link: false
            }
        }

        /// XLIFF 1.2's `ctype` of the form (`x-` for ours, the standard names for emphasis and strong).
        var ctype: String {
            switch self {
            case .emphasis: "italic"
            case .strong: "bold"
            case .link: "link"
            default: "x-" + rawValue
            }
        }

        /// XLIFF 2.0's `type` and `subType` of the form.
        var typeAndSubType: (type: String, subType: String) {
            switch self {
            case .emphasis: ("fmt", "xlf:i")
            case .strong: ("fmt", "xlf:b")
            case .link: ("link", "digno:link")
            default: ("other", "digno:" + rawValue)
            }
        }

        init?(ctype: String) {
            guard let form = Self.allCases.first(where: { $0.ctype == ctype }) else { return nil }
            self = form
        }

        init?(subType: String) {
            guard let form = Self.allCases.first(where: { $0.typeAndSubType.subType == subType }) else { return nil }
            self = form
        }
    }

    /// A text's pieces: plain text is one text piece; rich text its blocks and runs as codes,
    /// each numbered before what it holds.
    package static func pieces(of value: TranslationUnit.Text) -> [XLIFFPiece] {
        guard case .rich(let rich) = value else { return [.text(value.words)] }
        var number = 0
        func code(_ form: Form, _ inner: () -> [XLIFFPiece]) -> XLIFFPiece {
            number += 1
            let id = String(number)
            return .code(id: id, form: form, inner())
        }
        func inlines(_ parts: [RichText.Inline]) -> [XLIFFPiece] {
            parts.map { part in
                switch part {
                case .text(let words): .text(words)
                case .emphasis(let inner): code(.emphasis) { inlines(inner) }
                case .strong(let inner): code(.strong) { inlines(inner) }
                case .link(_, let inner): code(.link) { inlines(inner) }
                }
            }
        }
        return rich.blocks.map { block in
            switch block {
            case .paragraph(let parts): code(.paragraph) { inlines(parts) }
            case .heading(let level, let parts): code(level == 3 ? .heading3 : .heading2) { inlines(parts) }
            case .list(let ordered, let items): code(ordered ? .orderedList : .unorderedList) { items.map { item in code(.listItem) { inlines(item) } } }
            }
        }
    }

    /// The words of pieces with no codes, or nil if there is a code.
    static func plainText(_ pieces: [XLIFFPiece]) -> String? {
        var words = ""
        for piece in pieces {
            guard case .text(let text) = piece else { return nil }
            words += text
        }
        return words
    }
}

extension XLIFFPiece {
    /// A translator's target read back against the source it translates: its blocks must be the
    /// source's, in order (the words in each free), and each inline code one of the source's,
    /// once, in the block the source has it in; a link takes its target from the source's code
    /// of its number.
    static func richText(from target: [XLIFFPiece], source: RichText) throws(XLIFFCodeProblem) -> RichText {
        let sourcePieces = pieces(of: .rich(source))
        var links: [String: LinkTarget] = [:]
        var sourceForms: [String: Form] = [:]
        // The links of the source in document order are its link codes in number order.
        var sourceLinks = source.links.makeIterator()
        func collect(_ pieces: [XLIFFPiece]) {
            for case .code(let id, let form, let inner) in pieces {
                sourceForms[id] = form
                if form == .link, let target = sourceLinks.next() { links[id] = target }
                collect(inner)
            }
        }
        collect(sourcePieces)
        var used: Set<String> = []
        /// The inline runs of `pieces` inside a block; `allowed`, the inline codes of the source's block.
        func inlines(_ pieces: [XLIFFPiece], allowed: Set<String>) throws(XLIFFCodeProblem) -> [RichText.Inline] {
            var result: [RichText.Inline] = []
            for piece in pieces {
                switch piece {
                case .text(let words): result.append(.text(words))
                case .foreign(let name): throw .foreign(name)
                case .code(let id, let form, let inner):
                    guard sourceForms[id] == form else { throw .unknown(id: id) }
                    guard !form.isBlock, form != .listItem else { throw .blockMoved(id: id) }
                    guard allowed.contains(id) else { throw .blockMoved(id: id) }
                    guard used.insert(id).inserted else { throw .twice(id: id) }
                    let children = try inlines(inner, allowed: allowed)
                    switch form {
                    case .emphasis: result.append(.emphasis(children))
                    case .strong: result.append(.strong(children))
                    default:
                        guard let target = links[id] else { throw .unknown(id: id) }
                        result.append(.link(target, children))
                    }
                }
            }
            return result
        }
        /// The ids of the inline codes inside `pieces`.
        func inlineIDs(_ pieces: [XLIFFPiece]) -> Set<String> {
            var ids: Set<String> = []
            for case .code(let id, _, let inner) in pieces {
                ids.insert(id)
                ids.formUnion(inlineIDs(inner))
            }
            return ids
        }
        /// The codes of `pieces` that stand for blocks (or list items), words between them allowed only as whitespace.
        func blocks(_ pieces: [XLIFFPiece]) throws(XLIFFCodeProblem) -> [(id: String, form: Form, inner: [XLIFFPiece])] {
            var result: [(id: String, form: Form, inner: [XLIFFPiece])] = []
            for piece in pieces {
                switch piece {
                case .text(let words): guard words.allSatisfy(\.isWhitespace) else { throw .textOutsideBlocks }
                case .foreign(let name): throw .foreign(name)
                case .code(let id, let form, let inner):
                    guard sourceForms[id] == form else { throw .unknown(id: id) }
                    result.append((id, form, inner))
                }
            }
            return result
        }
        let sourceBlocks = try blocks(sourcePieces)
        let targetBlocks = try blocks(target)
        var result: [RichText.Block] = []
        for (index, expected) in sourceBlocks.enumerated() {
            guard index < targetBlocks.count else { throw .missing(id: expected.id) }
            let block = targetBlocks[index]
            guard block.id == expected.id else { throw used.contains(block.id) || sourceBlocks.contains(where: { $0.id == block.id }) ? .blockMoved(id: block.id) : .unknown(id: block.id) }
            used.insert(block.id)
            switch block.form {
            case .paragraph: result.append(.paragraph(try inlines(block.inner, allowed: inlineIDs(expected.inner))))
            case .heading2: result.append(.heading(level: 2, try inlines(block.inner, allowed: inlineIDs(expected.inner))))
            case .heading3: result.append(.heading(level: 3, try inlines(block.inner, allowed: inlineIDs(expected.inner))))
            case .unorderedList, .orderedList:
                let expectedItems = try blocks(expected.inner)
                let items = try blocks(block.inner)
                var read: [[RichText.Inline]] = []
                for (number, item) in expectedItems.enumerated() {
                    guard number < items.count else { throw .missing(id: item.id) }
                    guard items[number].id == item.id, items[number].form == .listItem else { throw .blockMoved(id: items[number].id) }
                    used.insert(item.id)
                    read.append(try inlines(items[number].inner, allowed: inlineIDs(item.inner)))
                }
                if items.count > expectedItems.count { throw .blockMoved(id: items[expectedItems.count].id) }
                result.append(.list(ordered: block.form == .orderedList, items: read))
            case .listItem, .emphasis, .strong, .link:
                throw .blockMoved(id: block.id)
            }
        }
        if targetBlocks.count > sourceBlocks.count { throw .twice(id: targetBlocks[sourceBlocks.count].id) }
        if let missing = sourceForms.keys.filter({ !used.contains($0) }).sorted(by: { Int($0) ?? 0 < Int($1) ?? 0 }).first {
            throw .missing(id: missing)
        }
        return RichText(blocks: result)
    }
}
