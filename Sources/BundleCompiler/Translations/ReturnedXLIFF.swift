import CLibXML2

/// An XLIFF file a translator's tool gave back: its languages and units, each with its source,
/// its target and whether the tool marks the target done. Read with the content's refusals
/// (`ContentXMLParser.parseWellFormed`: no DOCTYPE, so no entity; no network; nesting capped)
/// and a size cap; its schema is not checked, since tools write files that break it (the
/// Translate Toolkit's 2.0 puts notes inside segments) and only the parts read here matter.
package struct ReturnedXLIFF: Sendable {
    package var version: XLIFFWriter.Version
    package var sourceLanguage: String?
    package var targetLanguage: String?
    /// The line that declares the languages (1.2's `<file>`, 2.0's `<xliff>`).
    package var languageLine: Int
    package var units: [Unit]

    /// One unit: 1.2's `<trans-unit>`, 2.0's `<unit>` (its segments joined).
    package struct Unit: Hashable, Sendable {
        package var id: String
        package var line: Int
        package var source: [XLIFFPiece]
        package var target: [XLIFFPiece]?
        /// The target's state as written (1.2 `state`, 2.0 the segment's `state`), if any.
        package var state: String?

        /// Whether the tool marks the target done: 1.2 a state not `new` or `needs-…` (no state
        /// is done: 1.2 has no default); 2.0 `translated`, `reviewed` or `final` (2.0's default
        /// is `initial`).
        package func isDone(in version: XLIFFWriter.Version) -> Bool {
            switch version {
            case .v1_2: state.map { $0 != "new" && !$0.hasPrefix("needs-") } ?? true
            case .v2_0: ["translated", "reviewed", "final"].contains(state ?? "initial")
            }
        }
    }

    /// The largest XLIFF file read. libxml2's tree of a file takes several times its bytes (a
    /// file of nothing but empty units, 40 times), so the cap bounds the memory an import takes.
    package static let maxFileSize = 64 * 1024 * 1024

    /// Why a file is not an XLIFF file digno can read.
    package struct Unreadable: Error, Hashable, Sendable {
        package var line: Int?
        package var message: String
    }

    /// Reads an XLIFF 1.2 or 2.0 file's bytes.
    package static func read(_ bytes: [UInt8]) throws(Unreadable) -> ReturnedXLIFF {
        guard bytes.count <= maxFileSize else {
            throw Unreadable(message: "the file is \(bytes.count) bytes; the limit is \(maxFileSize) bytes (64 MiB): export fewer units (--only)")
        }
        let libxml: LibXML
        let parser: ContentXMLParser
        do {
            libxml = try LibXML.shared.get()
            parser = try ContentXMLParser(libxml: libxml)
        } catch {
            throw Unreadable(message: "\(error)")
        }
        let result = parser.parseWellFormed(bytes)
        guard let document = result.document, let root = result.root else {
            switch result.problems.first {
            case .doctype(let line)?: throw Unreadable(line: line, message: "the file has a DOCTYPE, which an XLIFF file does not need and digno does not read")
            case .malformed(let error)?, .schema(let error)?: throw Unreadable(line: error.line, message: "the file is not well-formed XML: \(error.message)")
            case nil: throw Unreadable(message: "the file could not be read")
            }
        }
        defer { withExtendedLifetime(document) {} }
        let namespace = root.node.pointee.ns.map { String(cString: $0.pointee.href) }
        switch namespace {
        case "urn:oasis:names:tc:xliff:document:1.2"?: return try read12(root)
        case "urn:oasis:names:tc:xliff:document:2.0"?: return try read20(root)
        default:
            throw Unreadable(line: root.line, message: "the root element is not XLIFF 1.2's or 2.0's <xliff> (its namespace is \(namespace.map { "'\($0)'" } ?? "none"))")
        }
    }

    private static func read12(_ root: XMLElement) throws(Unreadable) -> ReturnedXLIFF {
        let files = root.children.filter { $0.isNamed("file") }
        guard let file = files.first else { throw Unreadable(line: root.line, message: "the file has no <file> element") }
        guard files.count == 1 else { throw Unreadable(line: files[1].line, message: "the file has \(files.count) <file> elements; digno writes one and reads one") }
        var units: [Unit] = []
        for element in descendants(of: file, named: "trans-unit") {
            guard let id = element.attribute("id") else { throw Unreadable(line: element.line, message: "a <trans-unit> has no id") }
            let target = element.child("target")
            units.append(Unit(id: id, line: element.line, source: element.child("source").map(pieces) ?? [],
                              target: target.map(pieces), state: target?.attribute("state")))
        }
        return ReturnedXLIFF(version: .v1_2, sourceLanguage: file.attribute("source-language"), targetLanguage: file.attribute("target-language"),
                             languageLine: file.line, units: units)
    }

    private static func read20(_ root: XMLElement) throws(Unreadable) -> ReturnedXLIFF {
        var units: [Unit] = []
        for element in descendants(of: root, named: "unit") {
            guard let id = element.attribute("id") else { throw Unreadable(line: element.line, message: "a <unit> has no id") }
            // A unit's text is its segments' and ignorables' in order; its state, its first
            // segment's not done, if any is not.
            // A unit is translated only when every segment has a target.
            var source: [XLIFFPiece] = [], target: [XLIFFPiece] = []
            var segments = 0, targets = 0
            var states: [String] = []
            for part in element.children where part.isNamed("segment") || part.isNamed("ignorable") {
                source += part.child("source").map(pieces) ?? []
                if let written = part.child("target") {
                    target += pieces(written)
                    if part.isNamed("segment") { targets += 1 }
                } else if part.isNamed("ignorable") {
                    target += part.child("source").map(pieces) ?? []
                }
                if part.isNamed("segment") {
                    segments += 1
                    states.append(part.attribute("state") ?? "initial")
                }
            }
            let state = states.first { !["translated", "reviewed", "final"].contains($0) } ?? states.first
            units.append(Unit(id: id, line: element.line, source: source, target: segments > 0 && targets == segments ? target : nil, state: state))
        }
        return ReturnedXLIFF(version: .v2_0, sourceLanguage: root.attribute("srcLang"), targetLanguage: root.attribute("trgLang"),
                             languageLine: root.line, units: units)
    }

    /// The elements named `name` under `element`, in document order, not looking inside them.
    private static func descendants(of element: XMLElement, named name: StaticString) -> [XMLElement] {
        var found: [XMLElement] = []
        for child in element.children {
            if child.isNamed(name) { found.append(child) } else { found += descendants(of: child, named: name) }
        }
        return found
    }

    /// A source's or target's content as pieces: text, paired codes, and any other element as
    /// foreign (1.2's and 2.0's `<mrk>`, an annotation of words, is read through).
    private static func pieces(_ element: XMLElement) -> [XLIFFPiece] {
        var result: [XLIFFPiece] = []
        // A run of text is gathered whole (comments and <mrk> split it) before it is a piece:
        // appending to the last piece's string copied the run each time.
        var run: [UInt8] = []
        func flush() {
            guard !run.isEmpty else { return }
            result.append(.text(run.withUnsafeBufferPointer { NFC.string(decoding: $0) }))
            run.removeAll(keepingCapacity: true)
        }
        func gather(_ element: XMLElement) {
            element.forEachContent { piece in
                switch piece {
                case .text(let bytes): run.append(contentsOf: bytes)
                case .element(let child):
                    if child.isNamed("mrk") {
                        gather(child)
                    } else {
                        flush()
                        result.append(code(child))
                    }
                }
            }
        }
        gather(element)
        flush()
        return result
    }

    /// An element inside a text: a paired code of a form digno writes, or foreign.
    private static func code(_ child: XMLElement) -> XLIFFPiece {
        if child.isNamed("g"), let id = child.attribute("id"), let form = child.attribute("ctype").flatMap(XLIFFPiece.Form.init(ctype:)) {
            return .code(id: id, form: form, pieces(child))
        }
        if child.isNamed("pc"), let id = child.attribute("id"), let form = child.attribute("subType").flatMap(XLIFFPiece.Form.init(subType:)) {
            return .code(id: id, form: form, pieces(child))
        }
        return .foreign(child.name)
    }
}
