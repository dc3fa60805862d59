import CLibXML2

/// Parses content files with libxml2 and checks them against the embedded schema, refusing
/// what an untrusted file must not do. One instance per thread: it reuses its libxml2 parser
/// and validation contexts from file to file.
final class ContentXMLParser {
    /// Parser options for untrusted content. Deliberately absent: NOENT (substitutes entities,
    /// and reads `file://` entities even with NONET), DTDLOAD, DTDATTR, DTDVALID, XINCLUDE and
    /// HUGE (lifts the depth and entity-amplification limits). COMPACT stores short texts
    /// inside their nodes, saving an allocation each: the compiler only reads the trees.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue)

    private let context: xmlParserCtxtPtr
    private let validator: xmlSchemaValidCtxtPtr
    private let collector = XMLErrorCollector()

    init(libxml: LibXML) throws(CompilerError) {
        guard let context = xmlNewParserCtxt() else { throw .outOfMemory }
        guard let validator = xmlSchemaNewValidCtxt(libxml.schema) else {
            xmlFreeParserCtxt(context)
            throw .outOfMemory
        }
        self.context = context
        self.validator = validator
        let sax = context.pointee.sax!
        // A DOCTYPE is refused before its internal subset is read: no entity is ever declared,
        // so none can be expanded, loaded or multiplied.
        sax.pointee.internalSubset = { userData, _, _, _ in
            guard let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self) else { return }
            XMLErrorCollector.from(context).doctypeLine = Int(context.pointee.input?.pointee.line ?? 0)
            xmlStopParser(context)
        }
        sax.pointee.serror = { userData, error in
            guard let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self), let error else { return }
            XMLErrorCollector.from(context).record(error.pointee)
        }
        context.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
        xmlSchemaSetValidStructuredErrors(validator, { collector, error in
            guard let collector, let error else { return }
            Unmanaged<XMLErrorCollector>.fromOpaque(collector).takeUnretainedValue().record(error.pointee)
        }, Unmanaged.passUnretained(collector).toOpaque())
    }

    deinit {
        xmlSchemaFreeValidCtxt(validator)
        xmlFreeParserCtxt(context)
    }

    /// Parses one file's bytes. The document, when there is one, is valid against the schema
    /// only if `problems` is empty.
    func parse(_ bytes: [UInt8], file: String) -> XMLParseResult {
        collector.reset()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), file, "UTF-8", Self.options)
            }
        }
        if let line = collector.doctypeLine {
            if let document { xmlFreeDoc(document) }
            return XMLParseResult(document: nil, problems: [.doctype(line: line)])
        }
        guard let document, context.pointee.wellFormed != 0, collector.errors.isEmpty else {
            if let document { xmlFreeDoc(document) }
            let first = collector.errors.first ?? RawXMLError(code: 0, message: "the file could not be parsed", line: 0, column: 0, node: nil)
            return XMLParseResult(document: nil, problems: [.malformed(first)])
        }
        let parsed = ParsedXML(document)
        guard let root = parsed.root else {
            return XMLParseResult(document: nil, problems: [.malformed(RawXMLError(code: 0, message: "there is no root element", line: 1, column: 1, node: nil))])
        }
        collector.reset()
        let outcome = xmlSchemaValidateDoc(validator, document)
        if outcome == 0 { return XMLParseResult(document: parsed, root: root, problems: []) }
        let problems = collector.errors.map(XMLProblem.schema)
        return XMLParseResult(document: parsed, root: root,
                              problems: problems.isEmpty ? [.schema(RawXMLError(code: Int(outcome), message: "the file does not match the schema", line: root.line, column: 0, node: root.node))] : problems)
    }
}

/// What parsing one file produced: the document (kept alive by `ParsedXML`) and the problems.
struct XMLParseResult {
    var document: ParsedXML?
    var root: XMLElement?
    var problems: [XMLProblem]

    init(document: ParsedXML?, root: XMLElement? = nil, problems: [XMLProblem]) {
        self.document = document
        self.root = root
        self.problems = problems
    }
}

/// A problem libxml2 found.
enum XMLProblem {
    case doctype(line: Int)
    case malformed(RawXMLError)
    case schema(RawXMLError)
}

/// The parts of a libxml2 error the diagnostics use.
struct RawXMLError {
    var code: Int
    var message: String
    var line: Int
    var column: Int
    var node: xmlNodePtr?
}

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

/// Collects libxml2's errors for the file being parsed.
final class XMLErrorCollector {
    var errors: [RawXMLError] = []
    var doctypeLine: Int?

    static func from(_ context: xmlParserCtxtPtr) -> XMLErrorCollector {
        Unmanaged<XMLErrorCollector>.fromOpaque(context.pointee._private).takeUnretainedValue()
    }

    func reset() {
        errors.removeAll(keepingCapacity: true)
        doctypeLine = nil
    }

    func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, doctypeLine == nil else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown libxml2 error \(error.code)"
        var node = error.node?.assumingMemoryBound(to: xmlNode.self)
        if let attribute = node, attribute.pointee.type == XML_ATTRIBUTE_NODE { node = attribute.pointee.parent }
        errors.append(RawXMLError(
            code: Int(error.code),
            message: collapsingWhitespace(message),
            line: Int(error.line),
            column: Int(error.int2),
            node: node))
    }
}
