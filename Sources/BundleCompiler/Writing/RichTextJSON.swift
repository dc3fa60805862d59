import CatalogModel

/// Writes rich text in its stored JSON form (see `RichText+Codable.swift`), byte for byte what
/// `JSONEncoder` with sorted keys writes, at a fraction of the cost: a bundle holds one such
/// text per product and recipe. Hand-written because the form is tiny and fixed; a test checks
/// that it matches `JSONEncoder` and decodes back.
enum RichTextJSON {
    static func encode(_ text: RichText) -> String {
        String(decoding: utf8(text), as: UTF8.self)
    }

    /// The JSON form's UTF-8 bytes, which the bundle writer binds as they are: making them a
    /// `String` first would check them again, byte by byte.
    static func utf8(_ text: RichText) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        output.append(UInt8(ascii: "["))
        for (index, block) in text.blocks.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch block {
            case .paragraph(let inlines): object("p", &output) { runs(inlines, &$0) }
            case .heading(let level, let inlines): object(level <= 2 ? "h2" : "h3", &output) { runs(inlines, &$0) }
            case .list(let ordered, let items):
                object(ordered ? "ol" : "ul", &output) { output in
                    output.append(UInt8(ascii: "["))
                    for (itemIndex, item) in items.enumerated() {
                        if itemIndex > 0 { output.append(UInt8(ascii: ",")) }
                        runs(item, &output)
                    }
                    output.append(UInt8(ascii: "]"))
                }
            }
        }
        output.append(UInt8(ascii: "]"))
        return output
    }

    private static func object(_ key: StaticString, _ output: inout [UInt8], _ value: (inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "{"))
        output.append(UInt8(ascii: "\""))
        append(key, &output)
        append("\":", &output)
        value(&output)
        output.append(UInt8(ascii: "}"))
    }

    private static func runs(_ inlines: [RichText.Inline], _ output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, inline) in inlines.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch inline {
            case .text(let text): string(text, &output)
            case .emphasis(let children): object("em", &output) { runs(children, &$0) }
            case .strong(let children): object("strong", &output) { runs(children, &$0) }
            case .link(let target, let children):
                // Sorted keys: "link" before "text".
                append("{\"link\":{\"", &output)
                switch target {
                case .product(let id):
                    append("product\":", &output)
                    string(id.rawValue, &output)
                case .recipe(let id):
                    append("recipe\":", &output)
                    string(id.rawValue, &output)
                }
                append("},\"text\":", &output)
                runs(children, &output)
                output.append(UInt8(ascii: "}"))
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A JSON string: quotes, backslashes and control characters escaped as JSONEncoder does;
    /// everything else, `/` included (`withoutEscapingSlashes`), as its UTF-8 bytes. Runs of
    /// bytes that need no escape, nearly all of a text, are copied in one piece.
    static func string(_ text: String, _ output: inout [UInt8]) {
        var text = text
        output.append(UInt8(ascii: "\""))
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"", &output)
                case UInt8(ascii: "\\"): append("\\\\", &output)
                case 0x0A: append("\\n", &output)
                case 0x0D: append("\\r", &output)
                case 0x09: append("\\t", &output)
                case 0x08: append("\\b", &output)
                case 0x0C: append("\\f", &output)
                default:
                    append("\\u00", &output)
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0x0F))
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Appends a literal's bytes without making an array of them first.
    private static func append(_ literal: StaticString, _ output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
