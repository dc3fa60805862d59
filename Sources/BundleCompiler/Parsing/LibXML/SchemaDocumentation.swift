import CLibXML2
import Foundation

/// What the content schema says in words about its types, elements and attributes: the first
/// sentence of each `xs:documentation`, read from the compiler's embedded copy of the schema
/// (never from content). The messages of `schema-invalid` use it, since libxml2 names an
/// element or quotes a regular expression and says nothing of what either is.
///
/// Written by hand: libxml2 compiles a schema but offers no way to ask it for a declaration's
/// documentation, or for which declaration an element of a document matched.
struct SchemaDocumentation: Sendable {
    /// What each `xs:pattern` asks for, in the words of its type's documentation, keyed by the
    /// pattern. libxml2 reports a value that fails a pattern by quoting the regular expression.
    private(set) var patternMeanings: [String: String] = [:]
    /// The same words keyed by the simple type's name, for a value libxml2 reports as "not a
    /// valid value of the atomic type 'Position'".
    private(set) var typeMeanings: [String: String] = [:]
    /// Every element name the schema declares: a name outside it is not a misplaced element
    /// but one the content format does not have.
    private(set) var elementNames: Set<String> = []
    /// Declarations without documentation, as `<element>` or `attribute` names: a test keeps it
    /// empty.
    private(set) var undocumented: [String] = []
    /// How many element and attribute declarations the schema has.
    private(set) var declarationCount = 0

    /// Where a declaration stands: inside an element's own (anonymous) type, inside a named
    /// type, or inside a named group.
    enum Scope: Hashable, Sendable {
        case element(String), type(String), group(String)
    }

    /// An element or attribute declared in `scope`.
    struct Declaration: Hashable, Sendable {
        var scope: Scope
        var name: String
    }

    /// The first sentence of each element and attribute declaration's documentation. A scope
    /// may declare one name more than once (a picture's first and second `image`; the
    /// anonymous types of two elements of one name), hence a set.
    private(set) var elements: [Declaration: Set<String>] = [:]
    private(set) var attributes: [Declaration: Set<String>] = [:]
    /// For each element name, the scopes its content is declared in: its own anonymous type
    /// (in any of its declarations) and the named types it has, with the groups and base types
    /// they include.
    private var contentScopes: [String: Set<Scope>] = [:]
    /// What each global element (a file's root) is.
    private var rootMeanings: [String: String] = [:]

    /// What the root element `name` is.
    func rootMeaning(of name: String) -> String? { rootMeanings[name] }
    private var includes: [Scope: [Scope]] = [:]

    /// The documentation of the schema `xsd`; empty if it cannot be read.
    init(xsd: [UInt8]) {
        let document = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32($0.count), "content.xsd", "UTF-8", Int32(XML_PARSE_NONET.rawValue)) }
        }
        guard let document, let root = xmlDocGetRootElement(document) else { return }
        defer { xmlFreeDoc(document) }
        collect(XMLElement(node: root), in: nil)
        for type in XMLElement(node: root).children where type.isNamed("simpleType") {
            guard let sentence = Self.firstSentence(of: type) else { continue }
            if let name = type.attribute("name") { typeMeanings[name] = sentence }
            for pattern in type.child("restriction")?.children.filter({ $0.isNamed("pattern") }) ?? [] {
                if let value = pattern.attribute("value") { patternMeanings[value] = sentence }
            }
        }
    }

    /// What the element `name` inside an element `parent` is; nil if the schema does not say,
    /// or if declarations that `parent` could hold say different things.
    func meaning(ofElement name: String, in parent: String) -> String? {
        Self.single(scopes(of: parent).map { elements[Declaration(scope: $0, name: name)] ?? [] })
    }

    /// What the attribute `name` of the element `element` is; nil if the schema does not say,
    /// or if the declarations of such an element say different things.
    func meaning(ofAttribute name: String, of element: String) -> String? {
        Self.single(scopes(of: element).map { attributes[Declaration(scope: $0, name: name)] ?? [] })
    }

    /// The elements an element `parent` may hold, by name, each with what it is (nil where the
    /// schema says nothing, or says different things in different places).
    func children(of parent: String) -> [(name: String, meaning: String?)] {
        let scopes = scopes(of: parent)
        let names = Set(elements.keys.filter { scopes.contains($0.scope) }.map(\.name))
        return names.sorted().map { ($0, meaning(ofElement: $0, in: parent)) }
    }

    /// The attributes of an element `element`, by name, each with what it is.
    func attributeNames(of element: String) -> [(name: String, meaning: String?)] {
        let scopes = scopes(of: element)
        let names = Set(attributes.keys.filter { scopes.contains($0.scope) }.map(\.name))
        return names.sorted().map { ($0, meaning(ofAttribute: $0, of: element)) }
    }

    /// Every element name whose content may hold declarations of `scope`.
    func elements(holding scope: Scope) -> [String] {
        elementNames.filter { scopes(of: $0).contains(scope) }.sorted()
    }

    /// The scopes an element's children and attributes may be declared in.
    func scopes(of element: String) -> Set<Scope> {
        var found: Set<Scope> = []
        var pending = Array(contentScopes[element] ?? [])
        while let scope = pending.popLast() {
            guard found.insert(scope).inserted else { continue }
            pending += includes[scope] ?? []
        }
        return found
    }

    /// The one sentence all the declarations found say; nil for none, or for several.
    private static func single(_ sentences: [Set<String>]) -> String? {
        let all = sentences.reduce(into: Set<String>()) { $0.formUnion($1) }
        return all.count == 1 ? all.first : nil
    }

    private mutating func collect(_ node: XMLElement, in scope: Scope?) {
        var inner = scope
        if node.isNamed("element"), let name = node.attribute("name") {
            elementNames.insert(name)
            if let sentence = document(node, label: "<\(name)>") {
                if let scope { elements[Declaration(scope: scope, name: name), default: []].insert(sentence) } else { rootMeanings[name] = sentence }
            }
            if let type = node.attribute("type") {
                if !type.hasPrefix("xs:") { contentScopes[name, default: []].insert(.type(type)) }
            } else {
                contentScopes[name, default: []].insert(.element(name))
            }
            inner = .element(name)
        } else if node.isNamed("attribute"), let name = node.attribute("name") {
            if let sentence = document(node, label: name), let scope {
                attributes[Declaration(scope: scope, name: name), default: []].insert(sentence)
            }
        } else if node.isNamed("complexType"), let name = node.attribute("name") {
            inner = .type(name)
        } else if node.isNamed("group"), let name = node.attribute("name") {
            inner = .group(name)
        } else if node.isNamed("group"), let name = node.attribute("ref"), let scope {
            includes[scope, default: []].append(.group(name))
        } else if node.isNamed("extension"), let base = node.attribute("base"), !base.hasPrefix("xs:"), let scope {
            includes[scope, default: []].append(.type(base))
        }
        for child in node.children { collect(child, in: inner) }
    }

    /// A declaration's first sentence; counts the declaration, and notes it by `label` if it
    /// has no documentation. (A global element, a file's root, is counted too, though no
    /// message asks for one by its parent.)
    private mutating func document(_ node: XMLElement, label: String) -> String? {
        declarationCount += 1
        guard let sentence = Self.firstSentence(of: node), !sentence.isEmpty else {
            undocumented.append(label)
            return nil
        }
        return sentence
    }

    /// The first sentence of a declaration's documentation, without its full stop.
    private static func firstSentence(of declaration: XMLElement) -> String? {
        declaration.child("annotation")?.child("documentation").map { firstSentence(of: $0.text) }
    }

    /// The first sentence of `text`, without its full stop: up to the first full stop that a
    /// space and a capital letter follow, so that "such as e.g. a" or "no. 5" does not end it.
    static func firstSentence(of text: String) -> String {
        var sentence = text.firstRange(of: /\. \p{Lu}/).map { String(text[..<$0.lowerBound]) } ?? text
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }
}
