import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An element of a `StreamedDocument`. Valid only until its document is reset for the next
/// file; never stored beyond one file's parse.
struct StreamedElement: ContentElement {
    /// Unowned: an element never outlives the document's current file, and the parser that
    /// owns the document outlives both; a counted reference cost a retain and a release at
    /// every step of a walk.
    unowned(unsafe) let document: StreamedDocument
    let index: Int32

    private var node: StreamedDocument.Node { document.nodes[Int(index)] }

    func isNamed(_ name: StaticString) -> Bool {
        guard let own = node.name else { return false }
        return xmlStrEqual(own, name.utf8Start) != 0
    }

    var children: Children { Children(document: document, cursor: node.firstChild) }

    func child(_ name: StaticString) -> StreamedElement? {
        children.first { $0.isNamed(name) }
    }

    func attribute(_ name: StaticString) -> String? {
        let node = node
        for offset in node.attributeStart..<(node.attributeStart + node.attributeCount) {
            let attribute = document.attributes[Int(offset)]
            if xmlStrEqual(attribute.name, name.utf8Start) != 0 {
                return document.values.withUnsafeBufferPointer { buffer in
                    NFC.string(decoding: UnsafeBufferPointer(rebasing: buffer[Int(attribute.start)..<Int(attribute.end)]))
                }
            }
        }
        return nil
    }

    /// The schema allows no attribute named `lang` but `xml:lang`, so the local name is enough.
    var language: String? {
        attribute("lang").map(collapsingWhitespace)
    }

    var text: String {
        let node = node
        guard node.textEnd > node.textStart else { return "" }
        return document.text.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[Int(node.textStart)..<Int(node.textEnd)])
            let text = collapsingWhitespace(buffer.baseAddress! + Int(node.textStart), count: bytes.count)
            // As in `XMLElement.text`: the bytes as parsed tell whether the text is NFC.
            return NFC.isKnownNFC(bytes) ? text : NFC.normalized(unknown: text)
        }
    }

    func forEachContent(_ body: (ContentPiece<StreamedElement>) -> Void) {
        var next = node.firstChild
        while next >= 0 {
            let child = document.nodes[Int(next)]
            if child.name == nil {
                document.text.withUnsafeBufferPointer { buffer in
                    body(.text(UnsafeBufferPointer(rebasing: buffer[Int(child.textStart)..<Int(child.textEnd)])))
                }
            } else {
                body(.element(StreamedElement(document: document, index: next)))
            }
            next = child.next
        }
    }

    /// The child elements, skipping runs of text.
    struct Children: Sequence, IteratorProtocol {
        unowned(unsafe) let document: StreamedDocument
        var cursor: Int32

        mutating func next() -> StreamedElement? {
            while cursor >= 0 {
                let index = cursor
                cursor = document.nodes[Int(index)].next
                if document.nodes[Int(index)].name != nil { return StreamedElement(document: document, index: index) }
            }
            return nil
        }
    }
}
