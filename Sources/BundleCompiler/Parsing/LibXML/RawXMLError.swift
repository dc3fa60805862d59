import CLibXML2

/// The parts of a libxml2 error the diagnostics use.
struct RawXMLError {
    var code: Int
    var message: String
    var line: Int
    var column: Int
    var node: xmlNodePtr?
    /// The names and number some errors carry besides their message: for a mismatched end
    /// tag, the element opened, the name closing it and the line it was opened on.
    var names: [String] = []
    var number = 0
}
