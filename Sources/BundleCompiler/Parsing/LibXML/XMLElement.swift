import CLibXML2

/// A read-only view of an element in a parsed libxml2 document. Valid only while its document
/// is alive; never stored beyond one file's parse.
struct XMLElement: ContentElement {
    let node: xmlNodePtr

    /// The element's name.
    var name: String { String(cString: node.pointee.name) }

    /// Whether the element is named `name`, without allocating a Swift string.
    func isNamed(_ name: StaticString) -> Bool {
        xmlStrEqual(node.pointee.name, name.utf8Start) != 0
    }

    /// The line of its start tag.
    var line: Int { Int(xmlGetLineNo(node)) }

    /// The element it is inside; nil for the root element.
    var parent: XMLElement? {
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return XMLElement(node: parent)
    }

    /// The child elements in order.
    var children: [XMLElement] {
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(XMLElement(node: current)) }
            child = current.pointee.next
        }
        return result
    }

    /// The first child element named `name`.
    func child(_ name: StaticString) -> XMLElement? {
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, XMLElement(node: current).isNamed(name) {
                return XMLElement(node: current)
            }
            child = current.pointee.next
        }
        return nil
    }

    /// The value of attribute `name`, if present, in NFC.
    func attribute(_ name: StaticString) -> String? {
        guard let value = name.withUTF8Buffer({ xmlGetNoNsProp(node, $0.baseAddress) }) else { return nil }
        defer { digno_xml_free(value) }
        return NFC.string(decoding: UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))))
    }

    var language: String? {
        let name: StaticString = "lang", namespace: StaticString = "http://www.w3.org/XML/1998/namespace"
        guard let value = xmlGetNsProp(node, name.utf8Start, namespace.utf8Start) else { return nil }
        defer { digno_xml_free(value) }
        return collapsingWhitespace(NFC.string(decoding: UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value)))))
    }

    /// All the text inside, whitespace runs collapsed to one space and trimmed, in NFC: the
    /// form every plain-text field is stored in.
    var text: String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { digno_xml_free(content) }
        let count = Int(xmlStrlen(content))
        let text = collapsingWhitespace(content, count: count)
        // Collapsing XML whitespace keeps text NFC (it composes with nothing), so the bytes
        // as parsed tell.
        return NFC.isKnownNFC(UnsafeBufferPointer(start: content, count: count)) ? text : NFC.normalized(unknown: text)
    }

    /// The text nodes and child elements in order (with `XML_PARSE_NOCDATA` there are no CDATA
    /// nodes, but one would be text too).
    func forEachContent(_ body: (ContentPiece<XMLElement>) -> Void) {
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    body(.text(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))))
                }
            case XML_ELEMENT_NODE:
                body(.element(XMLElement(node: current)))
            default:
                break
            }
            child = current.pointee.next
        }
    }
}

/// `text` with every run of XML whitespace (space, tab, line feed, carriage return) made one
/// space, and none at either end.
func collapsingWhitespace(_ text: String) -> String {
    var text = text
    return text.withUTF8 { collapsingWhitespace($0.baseAddress!, count: $0.count) }
}

/// The same over UTF-8 bytes from libxml2, without an intermediate `String`. Works on bytes
/// because XML whitespace is ASCII, and ASCII bytes never occur inside a multi-byte character.
func collapsingWhitespace(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
    var collapser = WhitespaceCollapser()
    return String(unsafeUninitializedCapacity: count) { output in
        var written = 0
        collapser.collapse(UnsafeBufferPointer(start: bytes, count: count), into: output, written: &written)
        return written
    }
}
