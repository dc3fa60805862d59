/// The start tag of a file's root element, found in its bytes: where it lies, its attributes
/// and where each value lies. Written by hand: libxml2 reports no byte offsets of attributes,
/// and `digno schema --write` changes the root's attributes without touching any other byte.
/// It reads only what comes before the root (a byte order mark, the XML declaration, comments,
/// processing instructions, white space) and the tag; nil for anything else, such as a DOCTYPE
/// or a tag that does not end.
struct RootStartTag: Equatable {
    struct Attribute: Equatable {
        /// The name as written, with its prefix: `xsi:noNamespaceSchemaLocation`.
        var name: String
        /// The value as written, between its quotes (character references are not expanded).
        var value: String
        /// The value's bytes in the file, between its quotes.
        var valueRange: Range<Int>
    }

    /// The element's name as written.
    var name: String
    /// From the tag's `<` to just after its `>`.
    var range: Range<Int>
    var attributes: [Attribute]
    /// Just after the last attribute's closing quote (or the name when there is none): where an
    /// attribute is added.
    var endOfAttributes: Int

    init?(_ bytes: [UInt8]) {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func starts(with text: String, at offset: Int) -> Bool {
            let marker = Array(text.utf8)
            return offset + marker.count <= bytes.count && bytes[offset..<offset + marker.count].elementsEqual(marker)
        }
        func skip(past text: String, from start: Int) -> Int? {
            let marker = Array(text.utf8)
            var offset = start
            while offset + marker.count <= bytes.count {
                if bytes[offset] == marker[0] && starts(with: text, at: offset) { return offset + marker.count }
                offset += 1
            }
            return nil
        }
        while true {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return nil }
            if starts(with: "<?", at: index) {
                guard let end = skip(past: "?>", from: index + 2) else { return nil }
                index = end
            } else if starts(with: "<!--", at: index) {
                guard let end = skip(past: "-->", from: index + 4) else { return nil }
                index = end
            } else {
                break
            }
        }
        let start = index
        index += 1
        func scanName() -> String? {
            let from = index
            while index < bytes.count, !Self.isSpace(bytes[index]), ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "<")].contains(bytes[index]) {
                index += 1
            }
            guard index > from else { return nil }
            return String(decoding: bytes[from..<index], as: UTF8.self)
        }
        guard let name = scanName(), !name.hasPrefix("!") else { return nil }
        var attributes: [Attribute] = []
        var endOfAttributes = index
        while true {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if starts(with: "/>", at: index) {
                index += 2
                break
            }
            guard let attribute = scanName() else { return nil }
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else { return nil }
            attributes.append(Attribute(name: attribute, value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self),
                                        valueRange: valueStart..<valueEnd))
            index = valueEnd + 1
            endOfAttributes = index
        }
        self.name = name
        self.range = start..<index
        self.attributes = attributes
        self.endOfAttributes = endOfAttributes
    }

    /// The attribute with this name as written, prefix included.
    func attribute(_ name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The prefix this tag binds to `namespace` (`xmlns:xsi="…"` binds `xsi`), if any.
    func prefix(boundTo namespace: String) -> String? {
        attributes.first { $0.name.hasPrefix("xmlns:") && $0.value == namespace }.map { String($0.name.dropFirst(6)) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
