import CLibXML2

/// A read-only view of an element in a parsed libxml2 document. Valid only while its document
/// is alive; never stored beyond one file's parse.
struct XMLElement {
    let node: xmlNodePtr

    /// The element's name.
    var name: String { String(cString: node.pointee.name) }

    /// Whether the element is named `name`, without allocating a Swift string.
    func isNamed(_ name: StaticString) -> Bool {
        xmlStrEqual(node.pointee.name, name.utf8Start) != 0
    }

    /// The line of its start tag.
    var line: Int { Int(xmlGetLineNo(node)) }

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

    /// The value of attribute `name`, if present.
    func attribute(_ name: StaticString) -> String? {
        guard let value = name.withUTF8Buffer({ xmlGetNoNsProp(node, $0.baseAddress) }) else { return nil }
        defer { digno_xml_free(value) }
        return String(cString: value)
    }

    /// All the text inside, whitespace runs collapsed to one space and trimmed: the form every
    /// plain-text field is stored in.
    var text: String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { digno_xml_free(content) }
        return collapsingWhitespace(String(cString: content))
    }
}

/// `text` with every run of XML whitespace (space, tab, line feed, carriage return) made one
/// space, and none at either end.
func collapsingWhitespace(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for scalar in text.unicodeScalars {
        switch scalar {
        case " ", "\t", "\n", "\r":
            pendingSpace = !result.isEmpty
        default:
            if pendingSpace { result.unicodeScalars.append(" ") }
            pendingSpace = false
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}
