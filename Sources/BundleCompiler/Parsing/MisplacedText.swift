import CLibXML2

/// Two well-formedness errors that libxml2 words by their symptom, told by their cause, which
/// only the file's bytes show:
/// - text before the root element, which libxml2 reports as a document with no element;
/// - an attribute value whose closing quote is missing, which runs on into the next tag,
///   where libxml2 reports a '<' inside an attribute value.
///
/// Written by hand: libxml2 says where it stopped, not where the mistake began.
struct MisplacedText {
    let source: SourceText
    let root: String

    /// A diagnostic's position and words for `error`, when it is one of the two.
    func explanation(of error: RawXMLError) -> (SourcePosition, String)? {
        switch xmlParserErrors(rawValue: UInt32(clamping: error.code)) {
        case XML_ERR_DOCUMENT_EMPTY: textBeforeRoot()
        case XML_ERR_LT_IN_ATTRIBUTE: unclosedValue(before: source.offset(line: error.line, column: error.column))
        default: nil
        }
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
