import Foundation
import LanguageServerProtocol

/// A content file's text as the server reads it: by lines, with LSP's positions (UTF-16 code
/// units) and the compiler's columns (characters) converted between them, and the attribute
/// value a position stands in.
struct DocumentText {
    let lines: [String]

    init(_ text: String) {
        // CR LF, lone CR and LF all end a line, as the compiler counts them.
        lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The compiler's line and column (from 1; the column in characters) as an LSP position.
    func position(line: Int, column: Int?) -> Position {
        let index = max(0, line - 1)
        guard index < lines.count else { return Position(line: index, character: 0) }
        let text = lines[index]
        let characters = max(0, (column ?? 1) - 1)
        let prefix = text.prefix(characters)
        return Position(line: index, character: prefix.utf16.count)
    }

    /// The range from a compiler position to the end of the word or tag that starts there.
    func range(line: Int, column: Int?) -> LanguageServerProtocol.Range {
        let start = position(line: line, column: column)
        guard start.line < lines.count else { return LanguageServerProtocol.Range(start: start, end: start) }
        let utf16 = Array(lines[start.line].utf16)
        var end = start.character
        if end < utf16.count && utf16[end] == UInt16(UInt8(ascii: "<")) { end += 1 }
        while end < utf16.count, let scalar = Unicode.Scalar(utf16[end]), !CharacterSet.whitespaces.contains(scalar),
              scalar != ">", scalar != "/", scalar != "<" {
            end += 1
        }
        if end == start.character { end = utf16.count }
        return LanguageServerProtocol.Range(start: start, end: Position(line: start.line, character: end))
    }

    /// An attribute's value written on one line: its name, value and where the value lies
    /// (between the quotes; to the line's end when the closing quote is not typed yet).
    struct AttributeValue {
        var name: String
        var value: String
        var range: LanguageServerProtocol.Range
    }

    /// Every attribute value on line `line`.
    func attributes(onLine line: Int) -> [AttributeValue] {
        guard line >= 0, line < lines.count else { return [] }
        let text = lines[line]
        return text.matches(of: Self.attribute).map { match in
            let value = match.output.3
            let start = text.utf16.distance(from: text.startIndex, to: value.startIndex)
            return AttributeValue(name: String(match.output.1), value: String(value),
                                  range: LanguageServerProtocol.Range(start: Position(line: line, character: start),
                                                                      end: Position(line: line, character: start + value.utf16.count)))
        }
    }

    /// The attribute value `position` stands in (at its quotes included).
    func attribute(at position: Position) -> AttributeValue? {
        attributes(onLine: position.line).first { $0.range.start.character <= position.character && position.character <= $0.range.end.character }
    }

    /// `name="value"` or `name='value'`, the closing quote optional; checked when compiled.
    /// Shared by every call: `Regex` is not `Sendable`, but matching never changes one.
    nonisolated(unsafe) private static let attribute = #/([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=\s*(["'])([^"'<>]*)\2?/#
}
