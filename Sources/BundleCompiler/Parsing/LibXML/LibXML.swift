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

    /// What the schema's types, elements and attributes are, in its own words.
    let documentation: SchemaDocumentation

    private init(schema: xmlSchemaPtr, documentation: SchemaDocumentation) {
        self.schema = schema
        self.documentation = documentation
    }

    /// The process-wide setup, done on first use; an error only if the embedded schema does
    /// not compile, which is a defect of the compiler, not of the content.
    static let shared: Result<LibXML, CompilerError> = {
        xmlInitParser()
        digno_xml_set_max_depth(UInt32(maxDepth))
        // content.xsd imports xml.xsd for xml:lang: the one file the loader serves, from the
        // copy embedded beside it, while the schema compiles.
        xmlSetExternalEntityLoader { url, _, context in
            guard let url, String(cString: url).hasSuffix("xml.xsd") else { return nil }
            let buffer = PackageResources.xml_xsd.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { xmlParserInputBufferCreateMem($0.baseAddress, Int32($0.count), XML_CHAR_ENCODING_NONE) }
            }
            guard let buffer else { return nil }
            return xmlNewIOInputStream(context, buffer, XML_CHAR_ENCODING_NONE)
        }
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
        let documentation = SchemaDocumentation(xsd: xsd)
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return .success(LibXML(schema: schema, documentation: documentation))
    }()
}
