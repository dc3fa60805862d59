import CLibXML2
import CatalogContent
import CatalogModel
import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads, checks and parses content files: size, compression, NUL bytes, declared encoding,
/// markup that libxml2 would read slowly (`MarkupScan`), UTF-8, well-formedness, no DOCTYPE,
/// depth, root element, schema, then the entity. One loader per thread.
struct FileLoader {
    /// The largest content file accepted.
    static let maxFileSize = 4 * 1024 * 1024

    let root: String
    let libxml: LibXML
    let parser: ContentXMLParser
    /// Texts read in place of the files on disk, by path (`ContentValidator.overlays`).
    let overlays: [String: [UInt8]]
    /// What each file gave when its bytes were last the same (`ContentValidator.cache`).
    let cache: LoadCache?
    /// Whether what the cache read from disk is taken without a stamp, the folder being
    /// vouched unchanged (`ContentValidator.folderUnchanged`).
    let trustsCache: Bool

    init(root: String, libxml: LibXML, overlays: [String: [UInt8]] = [:], cache: LoadCache? = nil, trustsCache: Bool = false) throws(CompilerError) {
        self.root = root
        self.libxml = libxml
        self.parser = try ContentXMLParser(libxml: libxml)
        self.overlays = overlays
        self.cache = cache
        self.trustsCache = trustsCache
    }

    func load(_ file: ContentFile) -> LoadedFile {
        let loaded = LoadedFile(file: file)
        // A file on disk whose stamp vouches it unchanged since the cache read it, or that the
        // caller vouches for: not read.
        if let cache, overlays[file.path] == nil {
            if trustsCache, let hit = cache.loadedFromDisk(file) { return hit }
            if let hit = cache.loadedIfUnchanged(file, at: root + "/" + file.path) { return hit }
        }
        let bytes: [UInt8]
        let stamp: FileSystem.Stamp?
        switch read(file) {
        case .success(let read): (bytes, stamp) = read
        case .failure(.tooLarge(let size)):
            return loaded.failing(.fileTooLarge, nil, "\(file.path) is \(size) bytes; the limit is \(Self.maxFileSize) bytes (4 MiB): split or shorten it")
        case .failure(.notAFile):
            return loaded.failing(.fileUnreadable, nil, "\(file.path) cannot be read: not a regular file")
        case .failure(.unreadable(let reason)):
            return loaded.failing(.fileUnreadable, nil, "\(file.path) cannot be read: \(reason)")
        }
        if let cache {
            if let hit = cache.loaded(file, bytes: bytes, stamp: stamp) { return hit }
            let fresh = load(file, bytes: bytes)
            cache.store(fresh, bytes: bytes, stamp: stamp)
            return fresh
        }
        return load(file, bytes: bytes)
    }

    /// What `load` learns from a file's bytes, once read.
    private func load(_ file: ContentFile, bytes: [UInt8]) -> LoadedFile {
        var loaded = LoadedFile(file: file)
        if bytes.starts(with: [0x1F, 0x8B]) {
            return loaded.failing(.fileCompressed, SourcePosition(line: 1, column: 1), "the file is gzip-compressed; save it as plain UTF-8 XML")
        }
        // libxml2 takes a NUL byte for the end of the input: whatever follows one after the
        // root element would be silently ignored. XML allows no NUL anywhere.
        if let offset = Self.firstNUL(in: bytes) {
            return loaded.failing(.xmlMalformed, SourceText(bytes: bytes).position(ofByte: offset),
                                  "the file holds a NUL byte (character 0), which XML does not allow; remove it (a file saved as UTF-16 is full of them: save it as UTF-8)")
        }
        // Read as UTF-8 whatever a declaration says, a file declared otherwise would be misread
        // by every other XML tool: an editor's would show and save it in the declared encoding.
        if let declared = XMLDeclaration.encoding(in: bytes), !XMLDeclaration.isUTF8(declared.name) {
            return loaded.failing(.encodingNotUTF8, SourceText(bytes: bytes).position(ofByte: declared.offset),
                                  "the XML declaration names the encoding '\(declared.name)'; content files are UTF-8: save the file as UTF-8 and write encoding=\"UTF-8\"")
        }
        let markup = MarkupScan(bytes)
        if let excess = markup.excess {
            return loaded.failing(excess.code, SourceText(bytes: bytes).position(ofByte: excess.offset), excess.message)
        }
        // Before anything normalizes the text, which sorts each run of combining marks in time
        // growing with the square of its length.
        if let excess = bytes.withUnsafeBufferPointer(StreamSafeText.excess) {
            return loaded.failing(.combiningMarks, SourceText(bytes: bytes).position(ofByte: excess.offset), Self.combiningMarksMessage(excess))
        }
        loaded.sha256 = Self.digest(bytes)
        if let tag = RootStartTag(bytes) {
            let reference = ContentSchema.reference(in: tag, path: file.path)
            loaded.schemaReference = reference
            if reference != .named { loaded.schemaReferencePosition = SourceText(bytes: bytes).position(ofByte: tag.range.lowerBound) }
        }
        if markup.isStreamable, let entity = streamedEntity(bytes, file) {
            loaded.entity = entity
            return loaded
        }
        // Something is wrong with the file, or it needs a position, or a run of its text is
        // one the one pass reads slowly: the tree finds out what, and where.
        return loadWithTree(bytes, into: loaded)
    }

    /// What is said of a run of more than `StreamSafeText.maximumRun` combining marks: by
    /// `subject`, the character or the field that holds it.
    static func combiningMarksMessage(_ excess: StreamSafeText.Excess, subject: String = "the character here carries") -> String {
        "\(subject) \(excess.length) combining marks (accents and other marks drawn on it); Unicode's stream-safe "
            + "text allows \(StreamSafeText.maximumRun) and no language needs more: remove the extra marks"
    }

    /// What `load` learns from a file's bytes with libxml2's tree: the entity, or every
    /// problem with its position.
    func loadWithTree(_ bytes: [UInt8], into loaded: LoadedFile) -> LoadedFile {
        var loaded = loaded
        let file = loaded.file
        let source = SourceText(bytes: bytes)
        let result = parser.parse(bytes)
        if let problem = result.problems.first, result.document == nil {
            if let offset = source.firstInvalidUTF8Offset() {
                return loaded.failing(.invalidUTF8, source.position(ofByte: offset), "the file is not valid UTF-8 here; save it with UTF-8 encoding")
            }
            if case .malformed(let error) = problem, let (position, message) = MalformedSource(source: source, root: file.kind.rootElement).explanation(of: error) {
                return loaded.failing(.xmlMalformed, position, message)
            }
            switch problem {
            case .doctype(let line):
                return loaded.failing(.doctypeForbidden, SourcePosition(line: max(line, 1), column: 1),
                            "DOCTYPE declarations are not allowed in content files; delete the <!DOCTYPE …> declaration")
            case .malformed(let error) where Self.isDepthError(error):
                return loaded.failing(.xmlTooDeep, SourcePosition(line: max(error.line, 1), column: max(error.column, 1)),
                            "elements are nested more than \(LibXML.maxDepth) deep; the content format never needs that many levels")
            case .malformed(let error), .schema(let error):
                return loaded.failing(.xmlMalformed, SourcePosition(line: max(error.line, 1), column: max(error.column, 1)),
                            MalformedXML.explanation(of: error, root: file.kind.rootElement))
            }
        }
        guard let document = result.document, let rootElement = result.root else { return loaded }
        if rootElement.name != file.kind.rootElement || rootElement.node.pointee.ns != nil {
            let expected = file.kind.rootElement
            return loaded.failing(.wrongRoot, source.position(of: rootElement, root: rootElement),
                        "the root element is <\(rootElement.name)>\(rootElement.node.pointee.ns != nil ? " in a namespace" : ""); a file in this place must hold <\(expected)> with no namespace")
        }
        let schemaErrors = result.problems.compactMap { problem -> RawXMLError? in
            guard case .schema(let error) = problem else { return nil }
            return error
        }
        // libxml2's empty warnings are left out, unless nothing else would be said.
        let worded = schemaErrors.compactMap { error in
            let element = error.node.map(XMLElement.init(node:))
            let lineOfFirst = { (id: String) in
                element.flatMap { Self.first(like: $0, withID: id) }.map { source.position(of: $0, root: rootElement).line }
            }
            return libxml.readableSchemaMessage(error.message, parent: element?.parent?.name, lineOfFirst: lineOfFirst).map { (error, $0) }
        }
        for (error, message) in worded.isEmpty ? schemaErrors.map({ ($0, LibXML.unexplained($0.message)) }) : worded {
            // At the attribute whose value is refused, else at the element.
            let attribute = LibXML.attributeName(inSchemaMessage: error.message)
            let position = error.node.map { node in
                attribute.map { source.position(ofAttribute: $0, of: XMLElement(node: node), root: rootElement) }
                    ?? source.position(of: XMLElement(node: node), root: rootElement)
            } ?? SourcePosition(line: max(error.line, 1), column: 1)
            // The root's own id refused (`id="Espresso"` written as the name): the file's name is
            // the id it must have, and one an editor's quick fix can write.
            var worded = message
            if attribute == "id", let node = error.node, node == rootElement.node, !file.id.isEmpty, !message.contains("did you mean") {
                worded += " (did you mean '\(file.id)', the file's name?)"
            }
            let entity = error.node.flatMap { Self.entity(holding: XMLElement(node: $0), in: file) } ?? file.entity
            loaded.diagnostics.append(Diagnostic(.error, .schemaInvalid, file: file.path, position: position, entity: entity, message: worded))
        }
        loaded.declaredID = rootElement.attribute("id")
        // Found only where `checkDeclaredIDs` will report it: a column costs a scan of the line.
        if !file.id.isEmpty, let declared = loaded.declaredID, declared != file.id {
            loaded.rootPosition = source.position(of: rootElement, root: rootElement)
        }
        guard result.problems.isEmpty else { return loaded }
        var builder = EntityBuilder(file: file, root: rootElement)
        loaded.entity = builder.build()
        // A text the catalogue rules could not compare in linear time: the file is refused.
        if builder.problems.contains(where: { $0.code == .combiningMarks }) { loaded.entity = nil }
        loaded.diagnostics += builder.problems.map { problem in
            Diagnostic(.error, problem.code, file: file.path, position: source.position(of: problem.element, root: rootElement),
                       entity: problem.entity, message: problem.message)
        }
        withExtendedLifetime(document) {}
        return loaded
    }

    /// The entity of a file with nothing to report, read in one pass with no tree
    /// (`ContentXMLParser.stream`); nil when the file has anything to report (not well-formed,
    /// not valid, the wrong root element, an id that differs from its name, a link with no
    /// target), which `load` then finds again with the tree, where positions are known.
    func streamedEntity(_ bytes: [UInt8], _ file: ContentFile) -> ParsedEntity? {
        guard let root = parser.stream(bytes), root.isNamed(file.kind.rootElementName) else { return nil }
        if !file.id.isEmpty, root.attribute("id") != file.id { return nil }
        var builder = EntityBuilder(file: file, root: root)
        let entity = builder.build()
        return builder.problems.isEmpty ? entity : nil
    }

    /// For each of `fields` of the entities in `file`, where its element starts (or the
    /// attribute named with it, in that element), or else where its entity's element starts;
    /// nil when neither is known. One parse of the file, and only the positions asked for are
    /// found: a file's every field, found for one diagnostic, cost a file of 300,000
    /// paragraphs hours.
    func positions(in file: ContentFile, of fields: [(FieldElementKey, attribute: String?)]) -> [SourcePosition?] {
        guard case .success((let bytes, _)) = read(file) else { return fields.map { _ in nil } }
        let result = parser.parse(bytes)
        guard let document = result.document, let rootElement = result.root else { return fields.map { _ in nil } }
        let source = SourceText(bytes: bytes)
        var builder = EntityBuilder(file: file, root: rootElement, recordFieldElements: true)
        _ = builder.build()
        let fieldElements = builder.fieldElements ?? [:]
        let positions = fields.map { key, attribute -> SourcePosition? in
            // A translation's problem at its own element, else at the field's in the default language.
            if let element = fieldElements[key] ?? fieldElements[FieldElementKey(entity: key.entity, field: key.field)] {
                return attribute.map { source.position(ofAttribute: $0, of: element, root: rootElement) } ?? source.position(of: element, root: rootElement)
            }
            return fieldElements[FieldElementKey(entity: key.entity, field: nil)].map { source.position(of: $0, root: rootElement) }
        }
        withExtendedLifetime(document) {}
        return positions
    }

    /// The entity an element of `file` belongs to, where the file holds more than one: a
    /// promotion of the home, a tab of catalog.xml (by the id of the one it is in); else nil,
    /// the file's own.
    static func entity(holding element: XMLElement, in file: ContentFile) -> EntityReference? {
        let (name, kind): (String, EntityReference.Kind)
        switch file.kind {
        case .home: (name, kind) = ("promotion", .promotion)
        case .catalog: (name, kind) = ("section", .section)
        default: return nil
        }
        var current: XMLElement? = element
        while let node = current {
            if node.name == name, let id = node.attribute("id") { return EntityReference(kind, id) }
            current = node.parent
        }
        return nil
    }

    /// The first element beside `element` of its name with the id `id`, when it is not
    /// `element` itself: where an id that must be unique among them was given first.
    static func first(like element: XMLElement, withID id: String) -> XMLElement? {
        let name = element.name
        guard let first = element.parent?.children.first(where: { $0.name == name && $0.attribute("id") == id }),
            first.node != element.node
        else { return nil }
        return first
    }

    /// The bytes of `file`, with lone CRs made LF (`makeLoneCRsLF`).
    /// The file's bytes, the editor's text in place of the file's if there is one, and the
    /// file's stamp from before they were read (nil for an editor's text).
    private func read(_ file: ContentFile) -> Result<(bytes: [UInt8], stamp: FileSystem.Stamp?), FileSystem.ReadFailure> {
        if var bytes = overlays[file.path] {
            guard bytes.count <= Self.maxFileSize else { return .failure(.tooLarge(size: bytes.count)) }
            Self.makeLoneCRsLF(&bytes)
            return .success((bytes, nil))
        }
        switch FileSystem.readStamped(root + "/" + file.path, limit: Self.maxFileSize) {
        case .success(var read):
            Self.makeLoneCRsLF(&read.bytes)
            return .success((read.bytes, read.stamp))
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// libxml2 reports its depth limit as an internal error whose message names the depth.
    private static func isDepthError(_ error: RawXMLError) -> Bool {
        error.code == Int(XML_ERR_INTERNAL_ERROR.rawValue) && error.message.contains("Excessive depth")
    }
}

extension String {
    func trimmingTrailingPeriod() -> String {
        hasSuffix(".") ? String(dropLast()) : self
    }
}
