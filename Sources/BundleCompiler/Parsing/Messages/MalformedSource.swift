import CLibXML2

/// Well-formedness errors that libxml2 words by their symptom, told by their cause, which
/// only the file's bytes show (`MalformedXML` words the others from libxml2's error alone):
/// - text before the root element, which libxml2 reports as a document with no element;
/// - an attribute value whose closing quote is missing, which runs on into the next tag,
///   where libxml2 reports a '<' inside an attribute value;
/// - a start tag with no `>` or `/>`, which libxml2 reports at the next tag as "error parsing
///   attribute name";
/// - an end tag with no `>` ("expected '>'" at the next tag), or with more than its name;
/// - a word read as an attribute with no value, and a value not in quotes or missing, placed
///   at the word or the attribute rather than after it;
/// - a comment, CDATA section or processing instruction that libxml2 calls unfinished: never
///   closed (at its start, not at the end of the file), or closed but holding a character XML
///   does not allow;
/// - a character XML does not allow in an attribute value, which libxml2 does not name;
/// - a namespace prefix, at its name rather than at the end of its tag;
/// - a `&` that starts no entity and a `<` that starts no element, at the character itself
///   rather than after it (or after the word that follows a `&`).
///
/// Written by hand: libxml2 says where it stopped, not where the mistake began.
struct MalformedSource {
    let source: SourceText
    let root: String

    /// A diagnostic's position and words for `error`, when it is one of these.
    func explanation(of error: RawXMLError) -> (SourcePosition, String)? {
        let offset = source.offset(line: error.line, column: error.column) ?? source.bytes.count
        let names = error.names
        switch xmlParserErrors(rawValue: UInt32(clamping: error.code)) {
        case XML_ERR_DOCUMENT_EMPTY: return textBeforeRoot()
        case XML_ERR_LT_IN_ATTRIBUTE: return unclosedValue(before: offset)
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("error parsing attribute name"): return unendedStartTag(before: offset)
        case XML_ERR_GT_REQUIRED where names.isEmpty: return unendedEndTag(before: offset)
        case XML_ERR_ATTRIBUTE_WITHOUT_VALUE where names.count >= 1: return wordInTag(names[0], before: offset)
        case XML_ERR_ATTRIBUTE_NOT_STARTED: return unquotedValue(before: offset)
        case XML_ERR_COMMENT_NOT_FINISHED: return unfinished("a comment", "<!--", "-->", around: offset)
        case XML_ERR_CDATA_NOT_FINISHED: return unfinished("a CDATA section", "<![CDATA[", "]]>", around: offset)
        case XML_ERR_PI_NOT_FINISHED:
            return unfinished("a processing instruction", "<?", "?>", around: offset, advice: "content files need none: remove it, or end it with ?>")
        case XML_ERR_INVALID_CHAR where error.message.hasPrefix("invalid character in attribute value"): return refusedCharacter(from: offset)
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("xmlParseEntityRef"), XML_ERR_ENTITYREF_SEMICOL_MISSING:
            return at(last: "&", before: offset, error)
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("StartTag"):
            return at(last: "<", before: offset, error)
        case XML_NS_ERR_UNDEFINED_NAMESPACE where names.count >= 2:
            // An attribute's ("Namespace prefix xsi for type on product"), or an element's.
            let written = (error.message.contains(" for ") ? "" : "<") + "\(names[0]):\(names[1])"
            guard let start = SourceText.offset(ofLast: written, in: source.bytes, before: offset) else { return nil }
            return (source.position(ofByte: start), MalformedXML.explanation(of: error, root: root))
        default: return nil
        }
    }

    /// `error` in `MalformedXML`'s words, at the last `character` before where libxml2 stopped.
    private func at(last character: String, before offset: Int, _ error: RawXMLError) -> (SourcePosition, String)? {
        guard let start = SourceText.offset(ofLast: character, in: source.bytes, before: offset) else { return nil }
        return (source.position(ofByte: start), MalformedXML.explanation(of: error, root: root))
    }

    /// A start tag that a `<` at `offset` interrupts: the tag before it never ended. Nil when
    /// the `<` is not where a tag starts, or no tag is open before it.
    private func unendedStartTag(before offset: Int) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "<"),
              let tag = SourceText.offset(ofLast: "<", in: bytes, before: offset), tag + 1 < offset, Self.startsName(bytes[tag + 1])
        else { return nil }
        let name = tagName(at: tag + 1)
        return (source.position(ofByte: tag),
                "the tag <\(name) has no end: the next tag, on line \(source.position(ofByte: offset).line), starts before its /> or >; "
                + "end it with />, or with > if </\(name)> closes it later")
    }

    /// An end tag that libxml2 found without its `>` ("expected '>'"): one with none before the
    /// tag at `offset`, or one with more than its name before it (`</name foo>`).
    private func unendedEndTag(before offset: Int) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let tag = SourceText.offset(ofLast: "</", in: bytes, before: offset) else { return nil }
        let name = tagName(at: tag + 2)
        guard !name.isEmpty else { return nil }
        var after = tag + 2 + name.utf8.count
        while after < bytes.count, Self.isSpace(bytes[after]) { after += 1 }
        let close = SourceText.firstOffset(of: UInt8(ascii: ">"), in: bytes, from: after)
        if let close, close < SourceText.firstOffset(of: UInt8(ascii: "<"), in: bytes, from: after) ?? bytes.count {
            return (source.position(ofByte: tag), "the end tag </\(name)> holds more than its name; write it as </\(name)>")
        }
        return (source.position(ofByte: tag), "the end tag </\(name) has no '>'; write </\(name)>")
    }

    /// A word read as an attribute with no value ("Specification mandates value for attribute
    /// Tumma"), placed at the word rather than after it.
    private func wordInTag(_ word: String, before offset: Int) -> (SourcePosition, String)? {
        guard let start = SourceText.offset(ofLast: word, in: source.bytes, before: offset) else { return nil }
        return (source.position(ofByte: start),
                "'\(word)' stands inside a tag, where it reads as an attribute with no value; if it is text, end the tag before it with >; "
                + "if it is an attribute, give it a value, as in \(word)=\"…\"")
    }

    /// An attribute whose value is not in quotes (`src=a.png`) or missing (`src=` and then the
    /// next tag), placed at the attribute's name.
    private func unquotedValue(before offset: Int) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let equals = SourceText.offset(ofLast: "=", in: bytes, before: min(offset + 1, bytes.count)),
              !bytes[equals..<min(offset, bytes.count)].contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: ">") })
        else { return nil }
        var nameEnd = equals
        while nameEnd > 0, Self.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        var nameStart = nameEnd
        while nameStart > 0, !Self.isSpace(bytes[nameStart - 1]), bytes[nameStart - 1] != UInt8(ascii: "<") { nameStart -= 1 }
        guard nameStart < nameEnd else { return nil }
        let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
        return (source.position(ofByte: nameStart), "the attribute \(name) has no value in quotes; write \(name)=\"…\"")
    }

    /// A comment, CDATA section or processing instruction that libxml2 calls unfinished, the
    /// last one `opening` at or before `offset`: one never closed, placed at its start; or one
    /// closed, but holding a character XML does not allow, placed at the character (libxml2
    /// says "not finished" for both).
    private func unfinished(_ what: String, _ opening: String, _ closing: String, around offset: Int,
                            advice: String? = nil) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard let start = SourceText.offset(ofLast: opening, in: bytes, before: offset + 1) else { return nil }
        let end = SourceText.offset(after: closing, in: bytes, from: start + opening.utf8.count)
        guard end <= bytes.count else {
            return (source.position(ofByte: start), "\(what) starts here with \(opening) and is never closed; \(advice ?? "end it with \(closing)")")
        }
        guard let (index, scalar) = Self.firstRefusedCharacter(in: bytes, start..<end) else { return nil }
        return (source.position(ofByte: index), "\(what) holds \(MalformedXML.words(forRefused: scalar.value)), which XML does not allow; delete it")
    }

    /// The character libxml2 refused in an attribute value ("invalid character in attribute
    /// value", with no code): the first such from `offset` on, by its code, as it is invisible.
    private func refusedCharacter(from offset: Int) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard offset < bytes.count, let (index, scalar) = Self.firstRefusedCharacter(in: bytes, offset..<bytes.count) else { return nil }
        return (source.position(ofByte: index), "an attribute value holds \(MalformedXML.words(forRefused: scalar.value)), which XML does not allow; delete it")
    }

    /// The first character in `bytes[range]` that XML 1.0 does not allow (a control character
    /// other than tab and line ends, U+FFFE or U+FFFF), with its offset. Read as bytes: in
    /// UTF-8 a control character is one byte that no other character holds, and U+FFFE and
    /// U+FFFF are EF BF BE and EF BF BF, whose EF only ever starts a character.
    private static func firstRefusedCharacter(in bytes: [UInt8], _ range: Range<Int>) -> (Int, Unicode.Scalar)? {
        bytes.withUnsafeBufferPointer { buffer in
            for index in range {
                let byte = buffer[index]
                if byte < 0x20, !isSpace(byte) { return (index, Unicode.Scalar(byte)) }
                if byte == 0xEF, index + 2 < range.upperBound, buffer[index + 1] == 0xBF, buffer[index + 2] & 0xFE == 0xBE {
                    return (index, buffer[index + 2] == 0xBE ? "\u{FFFE}" : "\u{FFFF}")
                }
            }
            return nil
        }
    }

    /// The tag name that starts at `offset`, up to white space, `>`, `/` or `<`.
    private func tagName(at offset: Int) -> String {
        let bytes = source.bytes
        var end = offset
        while end < bytes.count, !Self.isSpace(bytes[end]),
              bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "<") {
            end += 1
        }
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
            } else if SourceText.startsWith(bytes, "<?", at: index) {
                index = SourceText.offset(after: "?>", in: bytes, from: index)
            } else if SourceText.startsWith(bytes, "<!--", at: index) {
                index = SourceText.offset(after: "-->", in: bytes, from: index)
            } else {
                break
            }
        }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "<"),
              let tag = SourceText.firstOffset(of: UInt8(ascii: "<"), in: bytes, from: index), tag + 1 < bytes.count,
              Self.startsName(bytes[tag + 1]) else { return nil }
        let position = source.position(ofByte: index)
        if SourceText.startsWith(bytes, [0xEF, 0xBB, 0xBF], at: index) {
            return (position, "an invisible byte order mark (U+FEFF) comes before the <\(root)> element, after the one a file may start with; "
                + "remove it, such as by saving the file as UTF-8 again")
        }
        // Its first line, of which 30 characters are quoted: a kilobyte holds them.
        let text = String(decoding: bytes[index..<min(tag, index + 1024)], as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let quoted = text.count > 30 ? String(text.prefix(30)) + "…" : text
        return (position, "there is text ('\(quoted.trimmingCharacters(in: .whitespaces))') before the <\(root)> element; "
            + "nothing but the XML declaration and comments may come before it: remove the text, or move it inside an element")
    }

    /// An attribute whose value has no closing quote, when the '<' at `offset` starts a tag
    /// right after what looks like the end of the previous one (`…/>` or `…>` and white space):
    /// the attribute of that tag whose quote is still open. Nil for a value that just holds a
    /// '<', such as alt="x < 1", which libxml2's advice covers.
    private func unclosedValue(before offset: Int) -> (SourcePosition, String)? {
        let bytes = source.bytes
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "<"),
              Self.startsName(bytes[offset + 1]) || bytes[offset + 1] == UInt8(ascii: "/") else { return nil }
        var before = offset
        while before > 0, Self.isSpace(bytes[before - 1]) { before -= 1 }
        guard before > 0, bytes[before - 1] == UInt8(ascii: ">"),
              // No value holds a '<': the last one before this starts the tag the value is in.
              let tag = SourceText.offset(ofLast: "<", in: bytes, before: offset) else { return nil }
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
