import CLibXML2
import Foundation

/// libxml2, set up once per process for untrusted content:
/// - the parser never loads anything a document names: no network, no external entities, no
///   DTD, no XInclude (see `ContentXMLParser.options`), and a deny-all external entity loader is
///   installed after the embedded schema is compiled, so no later call can open a file or URL;
/// - elements nest at most `maxDepth` deep (libxml2's own default is 256).
/// The schema is compiled from the copy embedded in the compiler, never from a document's
/// `xsi:schemaLocation`.
final class LibXML: @unchecked Sendable {
    /// The deepest nesting of elements a content file may have.
    static let maxDepth = 40

    /// The compiled schema, shared read-only by every validation context (libxml2 allows
    /// several validation contexts on one schema).
    let schema: xmlSchemaPtr

    /// What each `xs:pattern` of the schema asks for, in the words of the first sentence of its
    /// type's documentation, keyed by the pattern. libxml2 reports a value that fails a pattern
    /// by quoting the regular expression, which tells an editor nothing.
    let patternMeanings: [String: String]
    /// The same words keyed by the simple type's name, for a value libxml2 reports as "not a
    /// valid value of the atomic type 'Position'".
    let typeMeanings: [String: String]
    /// Every element name the schema declares: a name outside it is not a misplaced element
    /// but one the content format does not have.
    let elementNames: Set<String>

    private init(schema: xmlSchemaPtr, meanings: Meanings) {
        self.schema = schema
        self.patternMeanings = meanings.byPattern
        self.typeMeanings = meanings.byType
        self.elementNames = meanings.elementNames
    }

    private struct Meanings {
        var byPattern: [String: String] = [:]
        var byType: [String: String] = [:]
        var elementNames: Set<String> = []
    }

    /// The first sentence of the documentation of each simple type, by pattern and by type
    /// name, and the element names, read from the schema's own text (the compiler's embedded
    /// copy, not content).
    private static func meanings(in xsd: [UInt8]) -> Meanings {
        let document = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32($0.count), "content.xsd", "UTF-8", Int32(XML_PARSE_NONET.rawValue)) }
        }
        guard let document, let root = xmlDocGetRootElement(document) else { return Meanings() }
        defer { xmlFreeDoc(document) }
        var meanings = Meanings()
        func collectElementNames(_ element: XMLElement) {
            if element.isNamed("element"), let name = element.attribute("name") { meanings.elementNames.insert(name) }
            element.children.forEach(collectElementNames)
        }
        collectElementNames(XMLElement(node: root))
        for type in XMLElement(node: root).children where type.isNamed("simpleType") {
            guard let documentation = type.child("annotation")?.child("documentation")?.text else { continue }
            var sentence = documentation.range(of: ". ").map { String(documentation[..<$0.lowerBound]) } ?? documentation
            if sentence.hasSuffix(".") { sentence.removeLast() }
            if let name = type.attribute("name") { meanings.byType[name] = sentence }
            for pattern in type.child("restriction")?.children.filter({ $0.isNamed("pattern") }) ?? [] {
                if let value = pattern.attribute("value") { meanings.byPattern[value] = sentence }
            }
        }
        return meanings
    }

    /// The process-wide setup, done on first use; an error only if the embedded schema does
    /// not compile, which is a defect of the compiler, not of the content.
    static let shared: Result<LibXML, CompilerError> = {
        xmlInitParser()
        digno_xml_set_max_depth(UInt32(maxDepth))
        let xsd = PackageResources.content_xsd
        let parserContext = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlSchemaNewMemParserCtxt($0.baseAddress, Int32($0.count)) }
        }
        guard let parserContext else { return .failure(.schemaUnusable("libxml2 could not read the embedded schema")) }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        xmlSchemaSetParserStructuredErrors(parserContext, { _, _ in }, nil)
        guard let schema = xmlSchemaParse(parserContext) else {
            return .failure(.schemaUnusable("the embedded schema does not compile"))
        }
        let documented = meanings(in: xsd)
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return .success(LibXML(schema: schema, meanings: documented))
    }()
}
