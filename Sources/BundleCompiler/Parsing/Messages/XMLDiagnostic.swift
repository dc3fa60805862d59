import CLibXML2

/// A problem libxml2 found.
enum XMLDiagnostic {
    case doctype(line: Int)
    case malformed(RawXMLError)
    case schema(RawXMLError)
}
