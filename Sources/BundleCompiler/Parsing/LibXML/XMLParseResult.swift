import CLibXML2

/// What parsing one file produced: the document (kept alive by `ParsedXML`) and the problems.
struct XMLParseResult {
    var document: ParsedXML?
    var root: XMLElement?
    var problems: [XMLDiagnostic]

    init(document: ParsedXML?, root: XMLElement? = nil, problems: [XMLDiagnostic]) {
        self.document = document
        self.root = root
        self.problems = problems
    }
}
