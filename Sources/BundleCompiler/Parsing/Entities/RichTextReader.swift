import CatalogContent
import CatalogModel

/// Reads a schema-valid rich-text element (`body`, `method`) into `RichText`, collapsing
/// whitespace the way a browser does: every run of whitespace is one space, none at the start
/// or end of a block, and a space beside an inline element's edge stays outside it. Text is
/// read in Unicode NFC, as every value is (`NFC`).
struct RichTextReader {
    let field: RichTextField
    private var linkCount = 0
    private var whitespace = WhitespaceCollapser()

    init(field: RichTextField) {
        self.field = field
    }

    /// The blocks of `element`. `resolveLink` gives a `<link>`'s target (or nil, having
    /// reported why), given the index the link will have among the resolved links.
    mutating func read<Element: ContentElement>(_ element: Element, resolveLink: (Element, Int) -> LinkTarget?) -> RichText {
        var fieldElements: [(Element, FieldPath)]?
        return read(element, recording: &fieldElements, resolveLink: resolveLink)
    }

    /// `read`, also adding to `fieldElements`, when it is not nil, each paragraph, heading and list
    /// item with its field path (`body.p[1]`, `body.h2[2]`, `body.li[4]`: the `RichText.Part`
    /// the rules count), so that a problem with one can be shown at its line. Only the pass
    /// that locates problems asks.
    mutating func read<Element: ContentElement>(
        _ element: Element, recording fieldElements: inout [(Element, FieldPath)]?, resolveLink: (Element, Int) -> LinkTarget?
    ) -> RichText {
        var blocks: [RichText.Block] = []
        var counts = (p: 0, h2: 0, h3: 0, li: 0)
        func recordElement(_ element: Element, _ kind: RichText.Part.Kind, _ count: inout Int) {
            fieldElements?.append((element, .part(field, RichText.Part(kind: kind, index: count))))  // built only when asked
            count += 1
        }
        for child in element.children {
            if child.isNamed("p") {
                recordElement(child, .paragraph, &counts.p)
                blocks.append(.paragraph(block(child, resolveLink)))
            } else if child.isNamed("h2") {
                recordElement(child, .heading(level: 2), &counts.h2)
                blocks.append(.heading(level: 2, block(child, resolveLink)))
            } else if child.isNamed("h3") {
                recordElement(child, .heading(level: 3), &counts.h3)
                blocks.append(.heading(level: 3, block(child, resolveLink)))
            } else if child.isNamed("ul") || child.isNamed("ol") {
                let items = child.children.map { item in
                    recordElement(item, .listItem, &counts.li)
                    return block(item, resolveLink)
                }
                blocks.append(.list(ordered: child.isNamed("ol"), items: items))
            }
        }
        return RichText(blocks: blocks)
    }

    private mutating func block<Element: ContentElement>(_ element: Element, _ resolveLink: (Element, Int) -> LinkTarget?) -> [RichText.Inline] {
        whitespace.reset()
        return inlines(element, resolveLink)
    }

    private mutating func inlines<Element: ContentElement>(_ element: Element, _ resolveLink: (Element, Int) -> LinkTarget?) -> [RichText.Inline] {
        var result: [RichText.Inline] = []
        // Whether a run of text here may not be NFC: pieces whose bytes show them NFC, and
        // spaces, join into NFC text (their characters compose with nothing).
        var mayNeedNormalizing = false
        element.forEachContent { piece in
            switch piece {
            case .text(let bytes):
                if !NFC.isKnownNFC(bytes) { mayNeedNormalizing = true }
                let text = collapse(bytes)
                if !text.isEmpty { appendText(text, to: &result) }
            case .element(let child):
                if whitespace.flushPendingSpace() { appendText(" ", to: &result) }
                if child.isNamed("em") {
                    let children = inlines(child, resolveLink)
                    if !children.isEmpty { result.append(.emphasis(children)) }
                } else if child.isNamed("strong") {
                    let children = inlines(child, resolveLink)
                    if !children.isEmpty { result.append(.strong(children)) }
                } else if child.isNamed("link") {
                    let target = resolveLink(child, linkCount)
                    let children = inlines(child, resolveLink)
                    if let target {
                        linkCount += 1
                        result.append(.link(target, children))
                    } else {
                        result.append(contentsOf: children)
                    }
                }
            }
        }
        // Each run of text in NFC, once it is whole: its pieces (the tree splits a run at a
        // comment) may hold the two halves of one character, "e" and U+0301.
        if mayNeedNormalizing {
            for index in result.indices {
                if case .text(let text) = result[index] { result[index] = .text(NFC.normalized(text)) }
            }
        }
        return result
    }

    /// A run of text with whitespace collapsed, continuing the block's collapsing.
    private mutating func collapse(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count + 1) { output in
            var written = 0
            whitespace.collapse(bytes, into: output, written: &written)
            return written
        }
    }

    private func appendText(_ text: String, to inlines: inout [RichText.Inline]) {
        if case .text(let previous)? = inlines.last {
            inlines[inlines.count - 1] = .text(previous + text)
        } else {
            inlines.append(.text(text))
        }
    }
}
