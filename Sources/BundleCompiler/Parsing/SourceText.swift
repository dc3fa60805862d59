import CLibXML2

/// A content file's bytes, for turning libxml2's elements into line-and-column positions.
///
/// Hand-written because libxml2 2.9 records on each node the line where its start tag ended
/// (not where it began, for a tag over several lines), no column, and lines past 65,535 only
/// approximately. An element's start tag is found instead by its place in the document: the
/// n-th element of its name starts at the n-th `<name` of the text outside comments, CDATA
/// sections and processing instructions (XML allows no literal `<` anywhere else). Only used
/// when a diagnostic needs a position; the tags are listed once per file.
struct SourceText {
    let bytes: [UInt8]
    private let tags = TagIndex()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The position of an element's start tag (`<name`, or `<prefix:name`).
    func position(of element: XMLElement, root: XMLElement) -> SourcePosition {
        let name = Self.qualifiedName(element.node)
        let occurrence = Self.sameNamedElementsBefore(element, root: root, name: name)
        if tags.offsets == nil { tags.offsets = Self.startTags(in: bytes) }
        guard let offsets = tags.offsets?[name], occurrence < offsets.count else {
            return SourcePosition(line: max(element.line, 1), column: 1)
        }
        return position(ofByte: offsets[occurrence])
    }

    /// The offset just after the first `marker` at or after `start` (such as the `-->` that
    /// ends a comment), or past the end of `bytes` if there is none.
    static func offset(after marker: String, in bytes: [UInt8], from start: Int) -> Int {
        let marker = Array(marker.utf8)
        var index = start
        while index < bytes.count, !bytes[index...].starts(with: marker) { index += 1 }
        return index + marker.count
    }

    /// The offset of the last `marker` that starts before `end`, if any.
    static func offset(ofLast marker: String, in bytes: [UInt8], before end: Int) -> Int? {
        let marker = Array(marker.utf8)
        var start = min(end - 1, bytes.count - marker.count)
        while start >= 0 {
            if bytes[start...].starts(with: marker) { return start }
            start -= 1
        }
        return nil
    }

    /// The start tags of a file by name, as the byte offsets of their `<`, in document order.
    private final class TagIndex {
        var offsets: [[UInt8]: [Int]]?
    }

    private static func startTags(in bytes: [UInt8]) -> [[UInt8]: [Int]] {
        var tags: [[UInt8]: [Int]] = [:]
        var index = 0
        func skip(past end: String) { index = offset(after: end, in: bytes, from: index) }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let rest = bytes[(index + 1)...]
            if rest.starts(with: "!--".utf8) {
                skip(past: "-->")
            } else if rest.starts(with: "![CDATA[".utf8) {
                skip(past: "]]>")
            } else if rest.starts(with: "?".utf8) {
                skip(past: "?>")
            } else if let first = rest.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "!") {
                var end = index + 1
                while end < bytes.count, !endsName(bytes[end]) { end += 1 }
                tags[Array(bytes[(index + 1)..<end]), default: []].append(index)
                index = end
            } else {
                index += 1
            }
        }
        return tags
    }

    /// The element's name as its start tag writes it: with its namespace prefix, if any.
    private static func qualifiedName(_ node: xmlNodePtr) -> [UInt8] {
        let local = Array(String(cString: node.pointee.name).utf8)
        guard let prefix = node.pointee.ns?.pointee.prefix else { return local }
        return Array(String(cString: prefix).utf8) + [UInt8(ascii: ":")] + local
    }

    /// The position of byte `offset`, as line and character column.
    func position(ofByte offset: Int) -> SourcePosition {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return SourcePosition(line: line, column: column(at: offset, lineStart: lineStart))
    }

    /// The byte offset of libxml2's line and column (in characters, counting from 1); nil
    /// past the end of the file.
    func offset(line: Int, column: Int) -> Int? {
        var index = 0
        var current = 1
        while current < line {
            guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            index = newline + 1
            current += 1
        }
        var characters = 1
        while characters < column, index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }  // continuation bytes
            characters += 1
        }
        return index
    }

    /// The offset of the first byte that is not part of valid UTF-8, if any.
    func firstInvalidUTF8Offset() -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The column, in characters counting from 1, of byte `offset` on a line starting at `lineStart`.
    private func column(at offset: Int, lineStart: Int) -> Int {
        let prefix = bytes[lineStart..<min(offset, bytes.count)]
        return String(decoding: prefix, as: UTF8.self).count + 1
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    /// How many elements with `element`'s qualified name start before it, in document order.
    private static func sameNamedElementsBefore(_ element: XMLElement, root: XMLElement, name: [UInt8]) -> Int {
        var count = 0
        var stack: [xmlNodePtr] = [root.node]
        while let node = stack.popLast() {
            if node == element.node { return count }
            if node.pointee.type == XML_ELEMENT_NODE, xmlStrEqual(node.pointee.name, element.node.pointee.name) != 0,
                qualifiedName(node) == name
            {
                count += 1
            }
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { children.append(current) }
                child = current.pointee.next
            }
            stack.append(contentsOf: children.reversed())
        }
        return count
    }
}
