import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A content file as three flat arrays, filled from libxml2's SAX2 events while the schema is
/// checked on the same pass (`ContentXMLParser.stream`). It holds what `EntityBuilder` reads:
/// elements, attributes and text, nothing about where they were. Reused from file to file by
/// one parser, so a file costs no allocation once the arrays have grown.
///
/// Written by hand because libxml2's own tree costs a node allocation per element and per run
/// of text, a separate walk for schema validation, and a walk to free it: together about a
/// third of the time a large build spends parsing.
final class StreamedDocument {
    struct Node {
        /// The element's name, from the parser's dictionary (valid until the parser is reset);
        /// nil for a run of text.
        var name: UnsafePointer<xmlChar>?
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var next: Int32 = -1
        /// An element's attributes: `attributes[attributeStart..<attributeStart + attributeCount]`.
        var attributeStart: Int32 = 0
        var attributeCount: Int32 = 0
        /// The text inside (an element's: all of it, its descendants' included), as a range of
        /// `text`. Text is appended in document order, so an element's text is contiguous.
        var textStart: Int32
        var textEnd: Int32
    }

    struct Attribute {
        var name: UnsafePointer<xmlChar>
        /// The value, as a range of `values`.
        var start: Int32
        var end: Int32
    }

    // Unchecked: only the thread that owns the parser touches its document, and Swift's
    // dynamic exclusivity checks on every access cost a fifth of the time spent here.
    @exclusivity(unchecked) private(set) var nodes: [Node] = []
    @exclusivity(unchecked) private(set) var attributes: [Attribute] = []
    @exclusivity(unchecked) private(set) var text: [UInt8] = []
    @exclusivity(unchecked) private(set) var values: [UInt8] = []
    /// The elements started and not yet ended, innermost last.
    @exclusivity(unchecked) private var open: [Int32] = []
    /// Whether the root element is in a namespace (content files have none).
    private(set) var rootHasNamespace = false
    /// Whether the file has a DOCTYPE, which stops the parser before its internal subset.
    var sawDoctype = false
    /// Whether elements nest deeper than libxml2's tree parser allows, which stops the parser.
    var tooDeep = false

    /// How many elements are open: the ancestors of the next element to start.
    var depth: Int { open.count }

    /// The root element, once the whole file has been read.
    var root: StreamedElement? {
        nodes.isEmpty || !open.isEmpty ? nil : StreamedElement(document: self, index: 0)
    }

    /// Empties the document for the next file, keeping the arrays' capacity.
    func reset() {
        nodes.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        rootHasNamespace = false
        sawDoctype = false
        tooDeep = false
    }

    // MARK: Events

    /// A start tag. `attributes` is SAX2's array of five pointers per attribute: local name,
    /// prefix, namespace, start and end of the value.
    func startElement(_ name: UnsafePointer<xmlChar>, namespace: UnsafePointer<xmlChar>?,
                      attributeCount: Int, attributes pointers: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let index = Int32(nodes.count)
        var node = Node(name: name, textStart: Int32(text.count), textEnd: Int32(text.count))
        node.attributeStart = Int32(attributes.count)
        if let pointers {
            for offset in 0..<attributeCount {
                let base = pointers + 5 * offset
                guard let attributeName = base[0], let start = base[3], let end = base[4] else { continue }
                let valueStart = Int32(values.count)
                appendValue(UnsafeBufferPointer(start: start, count: end - start))
                attributes.append(Attribute(name: attributeName, start: valueStart, end: Int32(values.count)))
            }
        }
        node.attributeCount = Int32(attributes.count) - node.attributeStart
        if let parent = open.last {
            link(index, under: parent)
        } else {
            rootHasNamespace = namespace != nil
        }
        nodes.append(node)
        open.append(index)
    }

    /// An end tag.
    func endElement() {
        guard let index = open.popLast() else { return }
        nodes[Int(index)].textEnd = Int32(text.count)
    }

    /// Character data inside the open element; adjacent runs make one text node.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let parent = open.last, !bytes.isEmpty else { return }
        let last = nodes[Int(parent)].lastChild
        text.append(contentsOf: bytes)
        if last >= 0, nodes[Int(last)].name == nil, nodes[Int(last)].textEnd == Int32(text.count - bytes.count) {
            nodes[Int(last)].textEnd = Int32(text.count)
            return
        }
        let index = Int32(nodes.count)
        link(index, under: parent)
        nodes.append(Node(name: nil, textStart: Int32(text.count - bytes.count), textEnd: Int32(text.count)))
    }

    private func link(_ child: Int32, under parent: Int32) {
        let previous = nodes[Int(parent)].lastChild
        if previous >= 0 { nodes[Int(previous)].next = child } else { nodes[Int(parent)].firstChild = child }
        nodes[Int(parent)].lastChild = child
    }

    /// Appends an attribute value as libxml2 hands it over. Without entity substitution
    /// (`XML_PARSE_NOENT`, deliberately never set) libxml2 passes every `&` of the value, from
    /// `&amp;` or `&#38;`, to SAX2 as the five characters `&#38;`, for its own tree builder to
    /// decode; every other reference arrives decoded, and a literal `&` cannot occur. So `&#38;`
    /// is the only sequence to turn back into `&`.
    private func appendValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let escaped: StaticString = "&#38;"
        var start = 0
        // Each `&` found by `memchr`, the runs between copied whole: a value of 800,000
        // `&amp;` took a second in a debug build read a byte at a time.
        while start < bytes.count, let found = memchr(base + start, 0x26, bytes.count - start) {
            let ampersand = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            values.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<ampersand]))
            values.append(0x26)
            let isEscaped = ampersand + escaped.utf8CodeUnitCount <= bytes.count
                && memcmp(base + ampersand, escaped.utf8Start, escaped.utf8CodeUnitCount) == 0
            start = ampersand + (isEscaped ? escaped.utf8CodeUnitCount : 1)
        }
        if start < bytes.count { values.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
    }
}
