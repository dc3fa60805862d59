import CLibXML2

/// Owns a libxml2 document and frees it.
final class ParsedXML {
    let document: xmlDocPtr

    init(_ document: xmlDocPtr) {
        self.document = document
    }

    deinit {
        xmlFreeDoc(document)
    }

    var root: XMLElement? {
        xmlDocGetRootElement(document).map(XMLElement.init(node:))
    }
}
