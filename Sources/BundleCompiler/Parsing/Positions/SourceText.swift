import CLibXML2

/// A content file's bytes, for turning libxml2's elements into line-and-column positions.
///
/// Hand-written because libxml2 2.9 records on each node the line where its start tag ended
/// (not where it began, for a tag over several lines), no column, and lines past 65,535 only
/// approximately. An element's start tag is found instead by its place in the document: the
/// n-th element of its name starts at the n-th `<name` of the text outside comments, CDATA
/// sections and processing instructions (XML allows no literal `<` anywhere else).
///
/// Only used when a diagnostic needs a position. What positions need is indexed once per file,
/// on first use: where each line starts, where each element's start tag is (after a few found
/// by walking the tree), and on a long line the column every 256 bytes or so. A position then costs a lookup and a count over at most
/// that much of its line, so a file with 300,000 diagnostics costs a few passes over its bytes,
/// not one per diagnostic: before, a file of 4 MiB of `<p></p>` ran for hours.
struct SourceText {
    let bytes: [UInt8]
    private let index = Index()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The position of an element's start tag (`<name`, or `<prefix:name`).
    func position(of element: XMLElement, root: XMLElement) -> SourcePosition {
        guard let offset = startTagOffset(of: element, root: root) else {
            return SourcePosition(line: max(element.line, 1), column: 1)
        }
        return position(ofByte: offset)
    }

    /// The position of the attribute `name` in an element's start tag (its name's first
    /// character), or of the start tag when the attribute is not found there.
    func position(ofAttribute name: String, of element: XMLElement, root: XMLElement) -> SourcePosition {
        guard let tag = startTagOffset(of: element, root: root) else { return position(of: element, root: root) }
        let name = Array(name.utf8)
        var offset = tag + 1
        while offset < bytes.count, bytes[offset] != UInt8(ascii: ">") {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A value: skipped whole, to its closing quote.
                offset = Self.firstOffset(of: byte, in: bytes, from: offset + 1).map { $0 + 1 } ?? bytes.count
                continue
            }
            if Self.isSpace(bytes[offset - 1]), Self.startsWith(bytes, name, at: offset) {
                var after = offset + name.count
                while after < bytes.count, Self.isSpace(bytes[after]) { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: "=") { return position(ofByte: offset) }
            }
            offset += 1
        }
        return position(ofByte: tag)
    }

    /// How many start tags are found by walking the tree to the element before every element's
    /// is indexed: a file with one problem among a million elements is walked once, not
    /// indexed, and one with 300,000 problems is indexed once.
    private static let walksBeforeIndex = 8

    /// The offset of the `<` of an element's start tag, if found.
    private func startTagOffset(of element: XMLElement, root: XMLElement) -> Int? {
        if index.root != root.node {
            index.root = root.node
            index.tags = Self.startTags(in: bytes)
            index.startTags = nil
            index.walks = 0
        }
        let tags = index.tags ?? [:]
        if let startTags = index.startTags { return startTags[element.node] }
        guard index.walks == Self.walksBeforeIndex else {
            index.walks += 1
            return Self.startTagOffset(of: element.node, tags, root: root.node)
        }
        let startTags = Self.startTagOffsets(tags, root: root.node)
        index.startTags = startTags
        return startTags[element.node]
    }

    /// The position of byte `offset`, as line and character column.
    func position(ofByte offset: Int) -> SourcePosition {
        let offset = max(0, min(offset, bytes.count))
        let starts = lineStarts
        // The number of lines that start at or before the offset: its line.
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return SourcePosition(line: low, column: column(at: offset, line: low - 1))
    }

    /// The byte offset of libxml2's line and column (in characters, counting from 1); nil
    /// past the end of the file.
    func offset(line: Int, column: Int) -> Int? {
        let starts = lineStarts
        guard line <= starts.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = line > 1 ? starts[line - 1] : 0
            var characters = 1
            while characters < column, index < buffer.count, buffer[index] != UInt8(ascii: "\n") {
                index += 1
                while index < buffer.count, buffer[index] & 0xC0 == 0x80 { index += 1 }  // continuation bytes
                characters += 1
            }
            return index
        }
    }

    // MARK: Lines and columns

    /// The offset where each line starts: 0, and after each line feed.
    private var lineStarts: [Int] {
        if let known = index.lineStarts { return known }
        var starts = [0]
        var from = 0
        while let newline = Self.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: from) {
            starts.append(newline + 1)
            from = newline + 1
        }
        index.lineStarts = starts
        return starts
    }

    /// Columns this close to their line's start are counted from it; others from a checkpoint.
    private static let checkpointSpacing = 256

    /// The column, in characters counting from 1, of byte `offset` on line `line` (from 0).
    private func column(at offset: Int, line: Int) -> Int {
        let lineStart = lineStarts[line]
        guard offset - lineStart > Self.checkpointSpacing else { return characterCount(lineStart..<offset) + 1 }
        let checkpoints = index.checkpoints[line] ?? makeCheckpoints(line: line)
        // The last checkpoint at or before the offset; the first is the line's start.
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            if checkpoints[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        let checkpoint = checkpoints[max(low - 1, 0)]
        return checkpoint.column + characterCount(checkpoint.offset..<offset)
    }

    /// A place on a long line where a character starts, and its column.
    private struct Checkpoint {
        var offset: Int
        var column: Int
    }

    /// Checkpoints about every `checkpointSpacing` bytes along line `line`, each between two
    /// ASCII bytes other than CR LF, where a character always starts: Unicode joins no two such
    /// bytes into one character (UAX #29), so characters counted from a checkpoint are those
    /// counted from the line's start.
    private func makeCheckpoints(line: Int) -> [Checkpoint] {
        let starts = lineStarts
        let lineEnd = line + 1 < starts.count ? starts[line + 1] - 1 : bytes.count
        var checkpoints = [Checkpoint(offset: starts[line], column: 1)]
        bytes.withUnsafeBufferPointer { buffer in
            var last = checkpoints[0]
            var split = last.offset + Self.checkpointSpacing
            while split < lineEnd {
                if buffer[split - 1] < 0x80, buffer[split] < 0x80, !(buffer[split - 1] == 0x0D && buffer[split] == 0x0A) {
                    last = Checkpoint(offset: split, column: last.column + characterCount(last.offset..<split))
                    checkpoints.append(last)
                    split += Self.checkpointSpacing
                } else {
                    split += 1
                }
            }
        }
        index.checkpoints[line] = checkpoints
        return checkpoints
    }

    /// How many characters (as Swift and a reader count them) `bytes[range]` holds.
    private func characterCount(_ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self).count
        }
    }

    // MARK: Indexes

    /// What positions need, made on first use.
    private final class Index {
        var lineStarts: [Int]?
        var checkpoints: [Int: [Checkpoint]] = [:]
        /// The tree the rest is for.
        var root: xmlNodePtr?
        /// The start tags by name (`startTags(in:)`).
        var tags: [[UInt8]: [Int]]?
        /// How many start tags were found by a walk of the tree.
        var walks = 0
        /// The offset of the start tag of each element, once more than `walksBeforeIndex` were
        /// asked for.
        var startTags: [xmlNodePtr: Int]?
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
