/// The encoding a file's XML declaration names (`<?xml version="1.0" encoding="…"?>`).
///
/// Written by hand: the compiler reads every file as UTF-8, whatever its declaration says
/// (`ContentXMLParser`), and told so, libxml2 consumes the declaration without keeping the
/// name it held. The declaration's grammar is fixed and tiny (XML 1.0, §2.8 and §4.3.3):
///
///     XMLDecl      ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
///     EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'")
///     Eq           ::= S? '=' S?
///     EncName      ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
///
/// Nothing else in a declaration can hold the word `encoding` (a version is `1.` and digits;
/// `standalone` is `yes` or `no`), so finding it is enough. A name that breaks `EncName`, and
/// a declaration malformed in any other way, are libxml2's to report.
enum XMLDeclaration {
    /// A declared encoding name and the offset of its first byte in the file.
    struct DeclaredEncoding: Equatable {
        var name: String
        var offset: Int
    }

    /// The length of the UTF-8 byte order mark `bytes` start with: 3, or 0 when there is none.
    static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The encoding named by the declaration at the start of `bytes` (after a UTF-8 byte order
    /// mark, if any); nil when there is no declaration or it names no encoding.
    static func encoding(in bytes: [UInt8]) -> DeclaredEncoding? {
        let start = byteOrderMarkLength(bytes)
        let opening = Array("<?xml".utf8)
        // A declaration is short; this many bytes hold any real one whole.
        let end = min(bytes.count, start + 512)
        guard end - start > opening.count, bytes[start..<(start + opening.count)].elementsEqual(opening),
            isSpace(bytes[start + opening.count])
        else { return nil }
        let keyword = Array("encoding".utf8)
        var index = start + opening.count
        while index + keyword.count <= end {
            if bytes[index] == UInt8(ascii: "?") { return nil }
            if bytes[index..<(index + keyword.count)].elementsEqual(keyword) {
                return name(in: bytes, after: index + keyword.count, end: end)
            }
            index += 1
        }
        return nil
    }

    /// Whether `name` is UTF-8: encoding names are compared without regard to case (XML 1.0,
    /// §4.3.3).
    static func isUTF8(_ name: String) -> Bool {
        name.lowercased() == "utf-8"
    }

    /// The quoted name after `encoding`: `Eq`, then the name in matching quotes.
    private static func name(in bytes: [UInt8], after position: Int, end: Int) -> DeclaredEncoding? {
        var index = position
        func skipSpace() { while index < end, isSpace(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        let nameStart = index + 1
        guard let nameEnd = bytes[nameStart..<end].firstIndex(of: quote), nameEnd > nameStart,
            isLetter(bytes[nameStart]), bytes[nameStart..<nameEnd].allSatisfy(isNameByte)
        else { return nil }
        return DeclaredEncoding(name: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self), offset: nameStart)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
