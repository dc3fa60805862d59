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

    private init(schema: xmlSchemaPtr, patternMeanings: [String: String]) {
        self.schema = schema
        self.patternMeanings = patternMeanings
    }

    /// libxml2's message about a value that fails a pattern, with the pattern replaced by what
    /// it asks for (`patternMeanings`); any other message as it is.
    func readableSchemaMessage(_ message: String) -> String {
        let failed = "' is not accepted by the pattern '"
        guard let facet = message.range(of: "[facet 'pattern'] The value '"),
            let failedAt = message.range(of: failed, options: .backwards), failedAt.lowerBound >= facet.upperBound,
            let patternEnd = message.range(of: "'", options: .backwards), patternEnd.lowerBound >= failedAt.upperBound,
            let meaning = patternMeanings[String(message[failedAt.upperBound..<patternEnd.lowerBound])]
        else { return message }
        let value = message[facet.upperBound..<failedAt.lowerBound]
        return message[..<facet.lowerBound] + "the value '\(value)' is not accepted; write " + meaning.prefix(1).lowercased() + meaning.dropFirst()
    }

    /// The documentation of each simple type with a pattern, by pattern, read from the schema's
    /// own text (the compiler's embedded copy, not content).
    private static func patternMeanings(in xsd: [UInt8]) -> [String: String] {
        let document = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32($0.count), "content.xsd", "UTF-8", Int32(XML_PARSE_NONET.rawValue)) }
        }
        guard let document, let root = xmlDocGetRootElement(document) else { return [:] }
        defer { xmlFreeDoc(document) }
        var meanings: [String: String] = [:]
        for type in XMLElement(node: root).children where type.isNamed("simpleType") {
            guard let documentation = type.child("annotation")?.child("documentation")?.text,
                let patterns = type.child("restriction")?.children.filter({ $0.isNamed("pattern") })
            else { continue }
            let sentence = documentation.range(of: ". ").map { String(documentation[..<$0.lowerBound]) } ?? documentation
            for pattern in patterns {
                if let value = pattern.attribute("value") { meanings[value] = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence }
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
        let meanings = patternMeanings(in: xsd)
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return .success(LibXML(schema: schema, patternMeanings: meanings))
    }()
}
