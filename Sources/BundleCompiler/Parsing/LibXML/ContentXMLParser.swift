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
    /// The SAX2 parser behind `stream`, and the document its events fill (internal for tests:
    /// they check that a DOCTYPE stopped the parser).
    private let streamContext: xmlParserCtxtPtr
    let streamed = StreamedDocument()

    init(libxml: LibXML) throws(CompilerError) {
        guard let context = xmlNewParserCtxt() else { throw .outOfMemory }
        guard let validator = xmlSchemaNewValidCtxt(libxml.schema) else {
            xmlFreeParserCtxt(context)
            throw .outOfMemory
        }
        var handler = Self.streamHandler()
        guard let streamContext = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            xmlSchemaFreeValidCtxt(validator)
            xmlFreeParserCtxt(context)
            throw .outOfMemory
        }
        xmlCtxtUseOptions(streamContext, Self.streamOptions)
        streamContext.pointee._private = Unmanaged.passUnretained(streamed).toOpaque()
        self.streamContext = streamContext
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
        // Only the first error of a parse is reported, so only the first is kept. After it
        // libxml2 reads on, and a file of 4 MiB of '<' after one error raised one error per
        // byte: 4 million messages, each made a string, before a single one was used.
        sax.pointee.serror = { userData, error in
            guard let context = userData?.assumingMemoryBound(to: xmlParserCtxt.self), let error else { return }
            let collector = XMLErrorCollector.from(context)
            if collector.errors.isEmpty { collector.record(error.pointee) }
        }
        context.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
        xmlSchemaSetValidStructuredErrors(validator, { collector, error in
            guard let collector, let error else { return }
            Unmanaged<XMLErrorCollector>.fromOpaque(collector).takeUnretainedValue().record(error.pointee)
        }, Unmanaged.passUnretained(collector).toOpaque())
    }

    deinit {
        xmlFreeParserCtxt(streamContext)
        xmlSchemaFreeValidCtxt(validator)
        xmlFreeParserCtxt(context)
    }

    /// Options of the SAX2 parser: those of `options` that mean anything without a tree, less
    /// NOCDATA, which would remove the handler for CDATA sections rather than send them as
    /// text (the handler itself sends them as text, see `streamHandler`); and IGNORE_ENC. The
    /// tree parser reads every file as UTF-8 whatever its XML declaration says, but the push
    /// parser would switch to a declared encoding (a test reads a UTF-8 file that declares
    /// ISO-8859-1 both ways).
    private static let streamOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)

    /// The SAX2 events `stream` listens to. Each receives the parser context (the push parser's
    /// user data is its own context, and the schema's SAX plug passes that on), whose
    /// `_private` is the `StreamedDocument`.
    private static func streamHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, name, _, namespace, _, _, attributeCount, _, attributes in
            guard let context, let name else { return }
            let document = streamedDocument(context)
            // The push parser does not apply libxml2's depth limit, which the tree parser does
            // (`LibXML.maxDepth`); the same test here stops it where the tree would, and the
            // tree then reports the depth. Without it, a file nested thousands deep passed
            // and overflowed the stack of the rich-text reader.
            if document.depth > LibXML.maxDepth {
                document.tooDeep = true
                xmlStopParser(context.assumingMemoryBound(to: xmlParserCtxt.self))
                return
            }
            document.startElement(name, namespace: namespace, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            streamedDocument(context).endElement()
        }
        let characters: charactersSAXFunc = { context, bytes, count in
            guard let context, let bytes else { return }
            streamedDocument(context).characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        // As in `parse`: a DOCTYPE stops the parser before its internal subset is read.
        handler.internalSubset = { context, _, _, _ in
            guard let context else { return }
            streamedDocument(context).sawDoctype = true
            xmlStopParser(context.assumingMemoryBound(to: xmlParserCtxt.self))
        }
        // Errors are not collected here: any error sends the file to `parse`, which reports
        // it. A handler that drops them keeps libxml2 from printing them.
        handler.serror = { _, _ in }
        return handler
    }

    /// Parses one file's bytes and checks them against the schema in a single pass, with no
    /// tree (libxml2's SAX2 parser with the schema's SAX plug). Returns the root element of
    /// the file only if the file is well-formed, has no DOCTYPE, and is valid against the
    /// schema; nil for anything else, and `parse` then finds and reports what is wrong. The
    /// element is valid until the next call.
    func stream(_ bytes: [UInt8]) -> StreamedElement? {
        streamed.reset()
        collector.reset()
        // No file name: nothing reported here names a file, and libxml2 would otherwise make
        // it a canonical path and a folder name for every file. No encoding either: the push
        // parser reads UTF-8 without one (and checks it), while with one it took the bytes
        // before the end of a leading `<?…?>` 45 at a time, each time scanning back over all
        // it held: 1 MiB of spaces in an XML declaration cost 13 s, 3 MiB 112 s.
        xmlCtxtResetPush(streamContext, nil, 0, nil, nil)
        guard let plug = xmlSchemaSAXPlug(validator, &streamContext.pointee.sax, &streamContext.pointee.userData) else { return nil }
        // A UTF-8 byte order mark, which the tree parser skips when it switches to UTF-8, is
        // skipped here: the push parser does not skip it, with an encoding given or without.
        let start = XMLDeclaration.byteOrderMarkLength(bytes)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = xmlParseChunk(streamContext, $0.baseAddress.map { $0 + start }, Int32($0.count - start), 1)
            }
        }
        let valid = xmlSchemaIsValid(validator) == 1
        xmlSchemaSAXUnplug(plug)
        guard valid, collector.errors.isEmpty, !streamed.sawDoctype, !streamed.tooDeep,
            streamContext.pointee.wellFormed != 0, streamContext.pointee.nsWellFormed != 0,
            !streamed.rootHasNamespace
        else { return nil }
        return streamed.root
    }

    /// Parses one file's bytes. The document, when there is one, is valid against the schema
    /// only if `problems` is empty.
    ///
    /// The document gets no URL: for each error about a node of a document that has one,
    /// libxml2 2.9 walks back over every node before it, looking for an XInclude, so a file
    /// with 260,000 schema errors took minutes. No diagnostic uses the URL.
    func parse(_ bytes: [UInt8]) -> XMLParseResult {
        let result = parseWellFormed(bytes)
        guard let document = result.document?.document, let root = result.root else { return result }
        collector.reset()
        let outcome = xmlSchemaValidateDoc(validator, document)
        if outcome == 0 { return result }
        let problems = collector.errors.map(XMLDiagnostic.schema)
        return XMLParseResult(document: result.document, root: root,
                              problems: problems.isEmpty ? [.schema(RawXMLError(code: Int(outcome), message: "the file does not match the schema", line: root.line, column: 0, node: root.node))] : problems)
    }

    /// Parses bytes as XML with the same refusals as content (no DOCTYPE, so no entity; no
    /// network) but checks no schema: for other files digno reads, such as a translator's XLIFF.
    func parseWellFormed(_ bytes: [UInt8]) -> XMLParseResult {
        collector.reset()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), nil, "UTF-8", Self.options)
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
        return XMLParseResult(document: parsed, root: root, problems: [])
    }
}

/// The document a SAX2 event is for: the `_private` of the parser context the event carries.
private func streamedDocument(_ context: UnsafeMutableRawPointer) -> StreamedDocument {
    Unmanaged<StreamedDocument>.fromOpaque(context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private).takeUnretainedValue()
}
