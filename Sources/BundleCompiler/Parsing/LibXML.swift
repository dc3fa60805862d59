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
    /// What each element and attribute is, in the first sentence of its documentation: the
    /// words a message adds to a name it asks for ("<summary> (the short description under
    /// the product's name, …)").
    let elementMeanings: [Declaration: String]
    let attributeMeanings: [Declaration: String]

    /// An element or attribute declared in the schema, by its name and the element it belongs
    /// to: `owner` is nil for one declared in a named type or group, which several elements
    /// share (a picture's `alt`, a paragraph's `em`).
    struct Declaration: Hashable {
        var owner: String?
        var name: String
    }

    private init(schema: xmlSchemaPtr, meanings: Meanings) {
        self.schema = schema
        self.patternMeanings = meanings.byPattern
        self.typeMeanings = meanings.byType
        self.elementNames = meanings.elementNames
        self.elementMeanings = meanings.byElement
        self.attributeMeanings = meanings.byAttribute
    }

    /// What the element `name` inside `owner` is; nil if the schema does not say.
    func meaning(ofElement name: String, in owner: String) -> String? {
        elementMeanings[Declaration(owner: owner, name: name)] ?? elementMeanings[Declaration(owner: nil, name: name)]
    }

    /// What the attribute `name` of the element `owner` is; nil if the schema does not say.
    func meaning(ofAttribute name: String, of owner: String) -> String? {
        attributeMeanings[Declaration(owner: owner, name: name)] ?? attributeMeanings[Declaration(owner: nil, name: name)]
    }

    private struct Meanings {
        var byPattern: [String: String] = [:]
        var byType: [String: String] = [:]
        var elementNames: Set<String> = []
        var byElement: [Declaration: String] = [:]
        var byAttribute: [Declaration: String] = [:]
    }

    /// The first sentence of the documentation of each simple type, by pattern and by type
    /// name, and of each element and attribute, and the element names, read from the schema's
    /// own text (the compiler's embedded copy, not content).
    private static func meanings(in xsd: [UInt8]) -> Meanings {
        let document = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32($0.count), "content.xsd", "UTF-8", Int32(XML_PARSE_NONET.rawValue)) }
        }
        guard let document, let root = xmlDocGetRootElement(document) else { return Meanings() }
        defer { xmlFreeDoc(document) }
        var meanings = Meanings()
        func collectDeclarations(_ element: XMLElement, owner: String?) {
            var owner = owner
            if element.isNamed("element"), let name = element.attribute("name") {
                meanings.elementNames.insert(name)
                if let sentence = firstSentence(of: element) {
                    // The first of equal declarations (a picture's first and second `image`).
                    meanings.byElement[Declaration(owner: owner, name: name)] = meanings.byElement[Declaration(owner: owner, name: name)] ?? sentence
                }
                owner = name
            } else if element.isNamed("attribute"), let name = element.attribute("name"), let sentence = firstSentence(of: element) {
                meanings.byAttribute[Declaration(owner: owner, name: name)] = sentence
            }
            for child in element.children { collectDeclarations(child, owner: owner) }
        }
        collectDeclarations(XMLElement(node: root), owner: nil)
        for type in XMLElement(node: root).children where type.isNamed("simpleType") {
            guard let sentence = firstSentence(of: type) else { continue }
            if let name = type.attribute("name") { meanings.byType[name] = sentence }
            for pattern in type.child("restriction")?.children.filter({ $0.isNamed("pattern") }) ?? [] {
                if let value = pattern.attribute("value") { meanings.byPattern[value] = sentence }
            }
        }
        return meanings
    }

    /// The first sentence of a declaration's documentation, without its full stop.
    private static func firstSentence(of declaration: XMLElement) -> String? {
        guard let documentation = declaration.child("annotation")?.child("documentation")?.text else { return nil }
        var sentence = documentation.range(of: ". ").map { String(documentation[..<$0.lowerBound]) } ?? documentation
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
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
