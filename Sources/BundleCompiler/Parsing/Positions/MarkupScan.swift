#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CatalogContent
import CatalogModel

/// A look at a file's markup before libxml2 reads it, for what libxml2 2.9 reads in time that
/// grows with the square of its size: refused when no content file needs it, left to the tree
/// when a real file might hold it.
///
/// - A start tag's attributes: libxml2 compares each with every one before it (for a repeated
///   name) and each namespace a tag declares with the others. A tag with 100,000 attributes
///   took 6 s to parse and longer to validate. No element of the content format has more than
///   three attributes; an XML editor may add `xmlns:xsi` and `xsi:noNamespaceSchemaLocation`.
/// - Namespace declarations: libxml2 looks each element's name up among all the namespaces
///   declared around it, so 40 nested elements declaring 16 each made every element after them
///   cost five times as much. Content files use none.
/// - Comments and processing instructions inside an element's text: both the tree's schema
///   check and the one pass's join the pieces of an element's text by copying all they hold at
///   each piece, so 520,000 empty comments in one name took 5.7 s. Content files need none.
/// - Long or divided runs of text: the one pass (`ContentXMLParser.stream`) also gets a run's
///   text in pieces at each reference (`&amp;`), each CDATA section and every 300 bytes once it
///   holds a character beyond ASCII, and copies them the same way: 800,000 `&amp;` in one name
///   took 4.7 s, 2 million `ä` 1.7 s. The tree joins those pieces as it builds them, so a file
///   with such a run is read with the tree; nothing real has one (a name is at most 50
///   characters).
///
/// Read by hand over the bytes, as libxml2 reads the markup: `memchr` from one `<` to the next,
/// comments, CDATA sections and processing instructions skipped whole, quoted values skipped
/// whole; each `=` outside quotes in a start tag is one attribute. A tag that libxml2 would
/// refuse for another reason is read all the same: libxml2 reads on after a mistake.
struct MarkupScan {
    /// The most attributes one start tag may have.
    static let maxAttributes = 16
    /// The most namespace declarations (`xmlns="…"`, `xmlns:x="…"`) one file may make.
    static let maxNamespaces = 16
    /// The most comments and processing instructions one run of an element's text may hold.
    static let maxInterruptions = 64
    /// The longest run of text, in bytes, that the one pass reads.
    static let maxStreamedRun = 16 * 1024
    /// The most references, CDATA sections, comments and processing instructions a run of text
    /// that the one pass reads may hold.
    static let maxStreamedBreaks = 64

    /// What breaks a limit, and where.
    enum Excess: Equatable {
        /// A start tag at `offset` (its `<`) with more attributes than the limit.
        case attributes(name: String, offset: Int)
        /// The namespace declaration that goes past the limit, at `offset` (its name).
        case namespaces(offset: Int)
        /// The comment or processing instruction that goes past the limit, at `offset`.
        case interruptions(offset: Int)
    }

    /// The first thing that breaks a limit, if any.
    let excess: Excess?
    /// Whether every run of text can be read in one pass.
    let isStreamable: Bool

    /// Scans `bytes` whole, or up to the first excess.
    init(_ bytes: [UInt8]) {
        var scanner = Scanner()
        bytes.withUnsafeBufferPointer { scanner.scan($0) }
        excess = scanner.excess
        isStreamable = scanner.isStreamable
    }

    /// The scan itself, over the file's buffer: every file passes through here, in debug
    /// builds too, so it works on the buffer with `memchr`, never on slices or strings.
    private struct Scanner {
        var excess: Excess?
        var isStreamable = true
        private var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        private var namespaces = 0
        /// How deep in elements the scan is: text at depth 0 is outside the root element.
        private var depth = 0
        /// The run of text being read: where it started, and its breaks and interruptions.
        private var runStart = 0
        private var breaks = 0
        private var interruptions = 0

        mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
            var index = 0
            while excess == nil, let tag = find(UInt8(ascii: "<"), from: index, before: buffer.count) {
                countReferences(from: index, to: tag)
                index = read(at: tag)
            }
            if excess == nil {
                countReferences(from: index, to: buffer.count)
                endRun(at: buffer.count)
            }
        }

        /// Reads the markup at the `<` at `tag`; returns where the text after it starts.
        private mutating func read(at tag: Int) -> Int {
            let next = tag + 1 < buffer.count ? buffer[tag + 1] : 0
            if next == UInt8(ascii: "!"), has(Self.commentStart, at: tag) {
                interrupt(at: tag)
                return end(of: Self.commentEnd, from: tag + Self.commentStart.count)
            }
            if next == UInt8(ascii: "?") {
                interrupt(at: tag)
                return end(of: Self.instructionEnd, from: tag + 2)
            }
            if next == UInt8(ascii: "!"), has(Self.cdataStart, at: tag) {
                breaks += 1
                return end(of: Self.cdataEnd, from: tag + Self.cdataStart.count)
            }
            guard next != 0, next != UInt8(ascii: "!") else { return tag + 1 }
            endRun(at: tag)
            if next == UInt8(ascii: "/") {
                depth = max(depth - 1, 0)
                runStart = find(UInt8(ascii: ">"), from: tag, before: buffer.count).map { $0 + 1 } ?? buffer.count
            } else {
                runStart = readStartTag(at: tag)
            }
            return runStart
        }

        /// Reads a start tag from its `<` to its `>`, or to the next `<` outside quotes (a
        /// tag with no end), or to the end of the file; returns where it ends.
        private mutating func readStartTag(at tag: Int) -> Int {
            var index = tag + 1
            // Where the word being read started, while one is.
            var wordStart: Int?
            var attributes = 0
            while index < buffer.count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: ">"):
                    if buffer[index - 1] != UInt8(ascii: "/") { depth += 1 }
                    return index + 1
                case UInt8(ascii: "<"):
                    depth += 1
                    return index
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    guard let close = find(byte, from: index + 1, before: buffer.count) else { return buffer.count }
                    index = close + 1
                    wordStart = nil
                    continue
                case UInt8(ascii: "="):
                    attributes += 1
                    if attributes > MarkupScan.maxAttributes {
                        excess = .attributes(name: name(at: tag + 1), offset: tag)
                        return buffer.count
                    }
                    if let start = wordStart, declaresNamespace(from: start, to: index) {
                        namespaces += 1
                        if namespaces > MarkupScan.maxNamespaces {
                            excess = .namespaces(offset: start)
                            return buffer.count
                        }
                    }
                    wordStart = nil
                case 0x20, 0x09, 0x0A, 0x0D:
                    // Space may stand between a name and its '=': the name is kept until a
                    // new word starts.
                    break
                default:
                    if wordStart == nil || Self.isSpace(buffer[index - 1]) { wordStart = index }
                }
                index += 1
            }
            return buffer.count
        }

        /// A comment or processing instruction at `offset`.
        private mutating func interrupt(at offset: Int) {
            breaks += 1
            guard depth > 0 else { return }
            interruptions += 1
            if interruptions > MarkupScan.maxInterruptions { excess = .interruptions(offset: offset) }
        }

        /// Counts the references (`&…;`) in the text from `start` to `end` as breaks.
        private mutating func countReferences(from start: Int, to end: Int) {
            var from = start
            while isStreamable, breaks <= MarkupScan.maxStreamedBreaks, let ampersand = find(UInt8(ascii: "&"), from: from, before: end) {
                breaks += 1
                from = ampersand + 1
            }
        }

        /// Ends the run of text at the tag at `offset`.
        private mutating func endRun(at offset: Int) {
            if depth > 0, offset - runStart > MarkupScan.maxStreamedRun || breaks > MarkupScan.maxStreamedBreaks { isStreamable = false }
            breaks = 0
            interruptions = 0
        }

        // MARK: Bytes

        private static let commentStart = Array("<!--".utf8)
        private static let commentEnd = Array("-->".utf8)
        private static let instructionEnd = Array("?>".utf8)
        private static let cdataStart = Array("<![CDATA[".utf8)
        private static let cdataEnd = Array("]]>".utf8)
        private static let namespaceDeclaration = Array("xmlns".utf8)

        private func find(_ byte: UInt8, from start: Int, before end: Int) -> Int? {
            guard let base = buffer.baseAddress, start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }

        private func has(_ marker: [UInt8], at offset: Int) -> Bool {
            guard offset + marker.count <= buffer.count else { return false }
            for index in 0..<marker.count where buffer[offset + index] != marker[index] { return false }
            return true
        }

        /// The offset just after the first `marker` from `start`, or the end of the file.
        private func end(of marker: [UInt8], from start: Int) -> Int {
            var from = start
            while let candidate = find(marker[0], from: from, before: buffer.count) {
                if has(marker, at: candidate) { return candidate + marker.count }
                from = candidate + 1
            }
            return buffer.count
        }

        /// `xmlns`, or `xmlns:` and a prefix, with any space before the `=`.
        private func declaresNamespace(from start: Int, to end: Int) -> Bool {
            guard buffer[start] == UInt8(ascii: "x") else { return false }
            var nameEnd = start
            while nameEnd < end, !Self.isSpace(buffer[nameEnd]) { nameEnd += 1 }
            let xmlns = Self.namespaceDeclaration
            guard nameEnd - start >= xmlns.count, has(xmlns, at: start) else { return false }
            return nameEnd - start == xmlns.count || buffer[start + xmlns.count] == UInt8(ascii: ":")
        }

        /// The tag name that starts at `offset`.
        private func name(at offset: Int) -> String {
            var end = offset
            while end < buffer.count, !Self.isSpace(buffer[end]), buffer[end] != UInt8(ascii: ">"),
                  buffer[end] != UInt8(ascii: "/"), buffer[end] != UInt8(ascii: "<") {
                end += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<end]), as: UTF8.self)
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }
}

extension MarkupScan.Excess {
    /// Where it is: the tag's `<`, the declaration's name, or the comment's `<`.
    var offset: Int {
        switch self {
        case .attributes(_, let offset), .namespaces(let offset), .interruptions(let offset): offset
        }
    }

    var code: DiagnosticCode {
        switch self {
        case .attributes, .namespaces: .xmlTooManyAttributes
        case .interruptions: .xmlTooManyComments
        }
    }

    /// What is wrong, and what to do.
    var message: String {
        switch self {
        case .attributes(let name, _):
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            return "the tag <\(shown)> has more than \(MarkupScan.maxAttributes) attributes; "
                + "no element of the content format has more than 3: remove the ones it does not have"
        case .namespaces:
            return "the file declares more than \(MarkupScan.maxNamespaces) namespaces (xmlns=\"…\" or xmlns:name=\"…\"); "
                + "content files need only xmlns:xsi, which names the schema: remove the others"
        case .interruptions:
            return "more than \(MarkupScan.maxInterruptions) comments and processing instructions stand in one element's text, "
                + "with no tag between them; content files need none: remove them"
        }
    }
}
