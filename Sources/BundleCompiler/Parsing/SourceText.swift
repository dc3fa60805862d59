import CLibXML2

/// A content file's bytes, for turning libxml2's lines into line-and-column positions.
///
/// Hand-written because libxml2 2.9 records a line on each node but no column: the column of
/// an element is found by looking for its start tag on that line, counting the same-named
/// elements that start earlier on the line. Only used when a diagnostic needs a position.
struct SourceText {
    let bytes: [UInt8]

    /// The position of an element's start tag (`<name`).
    func position(of element: XMLElement, root: XMLElement) -> SourcePosition {
        let line = element.line
        let name = Array(element.name.utf8)
        let occurrence = Self.sameNamedElementsBefore(element, onLine: line, root: root)
        guard let range = lineRange(line) else { return SourcePosition(line: line, column: 1) }
        var seen = 0
        var index = range.lowerBound
        while index + name.count < range.upperBound {
            if bytes[index] == UInt8(ascii: "<"),
                bytes[(index + 1)..<(index + 1 + name.count)].elementsEqual(name),
                Self.endsName(bytes[index + 1 + name.count])
            {
                if seen == occurrence { return SourcePosition(line: line, column: column(at: index, lineStart: range.lowerBound)) }
                seen += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: 1)
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

    /// The byte range of line `line` (counting from 1), without its line break.
    private func lineRange(_ line: Int) -> Range<Int>? {
        guard line >= 1 else { return nil }
        var current = 1
        var start = 0
        if line > 1 {
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                current += 1
                if current == line {
                    start = index + 1
                    break
                }
            }
            guard current == line else { return nil }
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return start..<end
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    /// How many elements named like `element` start on `line` before it, in document order.
    private static func sameNamedElementsBefore(_ element: XMLElement, onLine line: Int, root: XMLElement) -> Int {
        var count = 0
        var stack: [xmlNodePtr] = [root.node]
        while let node = stack.popLast() {
            if node == element.node { return count }
            if node.pointee.type == XML_ELEMENT_NODE, xmlGetLineNo(node) == line,
                xmlStrEqual(node.pointee.name, element.node.pointee.name) != 0
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
