import CLibXML2

/// Well-formedness errors that libxml2 words by their symptom, told by their cause, which
/// only the file's bytes show:
/// - text before the root element, which libxml2 reports as a document with no element;
/// - an attribute value whose closing quote is missing, which runs on into the next tag,
///   where libxml2 reports a '<' inside an attribute value;
/// - a start tag with no `>` or `/>`, which libxml2 reports at the next tag as "error parsing
///   attribute name";
/// - an end tag with no `>`, reported at the next tag as "expected '>'";
/// - a comment, CDATA section or processing instruction never closed, reported at the end of
///   the file;
/// - a control character in an attribute value, which libxml2 does not name.
///
/// Written by hand: libxml2 says where it stopped, not where the mistake began.
struct MisplacedText {
    let source: SourceText
    let root: String

    /// A diagnostic's position and words for `error`, when it is one of these.
    func explanation(of error: RawXMLError) -> (SourcePosition, String)? {
        let offset = source.offset(line: error.line, column: error.column)
        switch xmlParserErrors(rawValue: UInt32(clamping: error.code)) {
        case XML_ERR_DOCUMENT_EMPTY: return textBeforeRoot()
        case XML_ERR_LT_IN_ATTRIBUTE: return unclosedValue(before: offset)
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("error parsing attribute name"): return unendedStartTag(before: offset)
        case XML_ERR_GT_REQUIRED where error.names.isEmpty: return unendedEndTag(before: offset)
        case XML_ERR_ATTRIBUTE_WITHOUT_VALUE where error.names.count >= 1: return wordInTag(error.names[0], before: offset)
        case XML_ERR_COMMENT_NOT_FINISHED:
            return unclosed("<!--", before: offset, "a comment starts here with <!-- and is never closed; end it with -->")
        case XML_ERR_CDATA_NOT_FINISHED:
            return unclosed("<![CDATA[", before: offset, "a CDATA section starts here with <![CDATA[ and is never closed; end it with ]]>")
        case XML_ERR_PI_NOT_FINISHED:
            return unclosed("<?", before: offset, "a processing instruction starts here with <? and is never closed with ?>; content files need none: remove it")
        case XML_ERR_INVALID_CHAR where error.message.hasPrefix("invalid character in attribute value"): return controlInValue(at: offset)
        default: return nil
        }
    }

    /// A start tag that a `<` at `offset` interrupts: the tag before it never ended. Nil when
    /// the `<` is not where a tag starts, or no tag is open before it.
    private func unendedStartTag(before offset: Int?) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let offset, offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "<"),
              let tag = bytes[..<offset].lastIndex(of: UInt8(ascii: "<")), tag + 1 < offset, Self.startsName(bytes[tag + 1]) else { return nil }
        let name = name(at: tag + 1)
        return (source.position(ofByte: tag),
                "the tag <\(name) has no end: the next tag, on line \(source.position(ofByte: offset).line), starts before its /> or >; "
                + "end it with />, or with > if </\(name)> closes it later")
    }

    /// A word read as an attribute with no value ("Specification mandates value for attribute
    /// Tumma"), placed at the word rather than after it.
    private func wordInTag(_ word: String, before offset: Int?) -> (SourcePosition, String)? {
        let bytes = source.bytes, marker = Array(word.utf8)
        var start = min(offset ?? 0, bytes.count) - marker.count
        while start >= 0, !bytes[start...].starts(with: marker) { start -= 1 }
        guard start >= 0 else { return nil }
        return (source.position(ofByte: start),
                "'\(word)' stands inside a tag, where it reads as an attribute with no value; if it is text, end the tag before it with >; "
                + "if it is an attribute, give it a value, as in \(word)=\"…\"")
    }

    /// An end tag with no `>` before the tag at `offset`.
    private func unendedEndTag(before offset: Int?) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let offset, offset <= bytes.count, let tag = bytes[..<offset].lastIndex(of: UInt8(ascii: "<")),
              tag + 2 < offset, bytes[tag + 1] == UInt8(ascii: "/") else { return nil }
        let name = name(at: tag + 2)
        return (source.position(ofByte: tag), "the end tag </\(name) has no '>'; write </\(name)>")
    }

    /// A comment or CDATA section that runs to the end of the file, placed at its last `opening`
    /// before `offset`.
    private func unclosed(_ opening: String, before offset: Int?, _ message: String) -> (SourcePosition, String)? {
        let bytes = source.bytes
        let marker = Array(opening.utf8)
        var start = min(offset ?? bytes.count, bytes.count)
        while start >= 0, !bytes[start...].starts(with: marker) { start -= 1 }
        guard start >= 0 else { return nil }
        return (source.position(ofByte: start), message)
    }

    /// The character libxml2 refused in an attribute value, by its code: it is invisible.
    private func controlInValue(at offset: Int?) -> (SourcePosition, String)? {
        guard let offset, offset < source.bytes.count, source.bytes[offset] < 0x20 else { return nil }
        let code = String(source.bytes[offset], radix: 16, uppercase: true)
        return (source.position(ofByte: offset),
                "an attribute value holds the invisible control character U+\(String(repeating: "0", count: 4 - code.count) + code), which XML does not allow; delete it")
    }

    /// The tag name that starts at `offset`, up to white space, `>`, `/` or `<`.
    private func name(at offset: Int) -> String {
        let bytes = source.bytes
        var end = offset
        while end < bytes.count, !Self.isSpace(bytes[end]), ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "<")].contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// Text where only the XML declaration, comments and white space may come before the
    /// root element; nil when no element follows it (the file really holds no element).
    private func textBeforeRoot() -> (SourcePosition, String)? {
        let bytes = source.bytes
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            if Self.isSpace(bytes[index]) {
                index += 1
            } else if bytes[index...].starts(with: "<?".utf8) {
                index = SourceText.offset(after: "?>", in: bytes, from: index)
            } else if bytes[index...].starts(with: "<!--".utf8) {
                index = SourceText.offset(after: "-->", in: bytes, from: index)
            } else {
                break
            }
        }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "<"),
              let tag = bytes[index...].firstIndex(of: UInt8(ascii: "<")), tag + 1 < bytes.count,
              Self.startsName(bytes[tag + 1]) else { return nil }
        let position = source.position(ofByte: index)
        if bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) {
            return (position, "an invisible byte order mark (U+FEFF) comes before the <\(root)> element, after the one a file may start with; "
                + "remove it, such as by saving the file as UTF-8 again")
        }
        let text = String(decoding: bytes[index..<tag], as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let quoted = text.count > 30 ? String(text.prefix(30)) + "…" : text
        return (position, "there is text ('\(quoted.trimmingCharacters(in: .whitespaces))') before the <\(root)> element; "
            + "nothing but the XML declaration and comments may come before it: remove the text, or move it inside an element")
    }

    /// An attribute whose value has no closing quote, when the '<' at `offset` starts a tag
    /// right after what looks like the end of the previous one (`…/>` or `…>` and white space):
    /// the attribute of that tag whose quote is still open. Nil for a value that just holds a
    /// '<', such as alt="x < 1", which libxml2's advice covers.
    private func unclosedValue(before offset: Int?) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let offset, offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "<"),
              Self.startsName(bytes[offset + 1]) || bytes[offset + 1] == UInt8(ascii: "/") else { return nil }
        var before = offset
        while before > 0, Self.isSpace(bytes[before - 1]) { before -= 1 }
        guard before > 0, bytes[before - 1] == UInt8(ascii: ">"),
              // No value holds a '<': the last one before this starts the tag the value is in.
              let tag = bytes[..<offset].lastIndex(of: UInt8(ascii: "<")) else { return nil }
        // The tag's attributes, read forward, quotes respected, to the one left open.
        var index = tag + 1
        while index < offset, !Self.isSpace(bytes[index]) { index += 1 }
        while index < offset {
            while index < offset, Self.isSpace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < offset, bytes[index] != UInt8(ascii: "="), !Self.isSpace(bytes[index]) { index += 1 }
            let nameEnd = index
            while index < offset, Self.isSpace(bytes[index]) { index += 1 }
            guard index < offset, bytes[index] == UInt8(ascii: "="), nameStart < nameEnd else { return nil }
            index += 1
            while index < offset, Self.isSpace(bytes[index]) { index += 1 }
            guard index < offset, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            guard let close = bytes[(index + 1)..<offset].firstIndex(of: quote) else {
                let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
                let mark = quote == UInt8(ascii: "\"") ? "\"" : "'"
                return (source.position(ofByte: nameStart),
                        "the value of \(name) has no closing quote, so it runs on into what follows; end it with \(mark), as in \(name)=\(mark)…\(mark)")
            }
            index = close + 1
        }
        return nil
    }

    private static func startsName(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
