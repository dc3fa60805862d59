import CatalogModel

/// Writes rich text in its stored JSON form (see `RichText+Codable.swift`), byte for byte what
/// `JSONEncoder` with sorted keys writes, at a fraction of the cost: a bundle holds one such
/// text per product and recipe. Hand-written because the form is tiny and fixed; a test checks
/// that it matches `JSONEncoder` and decodes back.
enum RichTextJSON {
    static func encode(_ text: RichText) -> String {
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
        return String(decoding: output, as: UTF8.self)
    }

    private static func object(_ key: StaticString, _ output: inout [UInt8], _ value: (inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "{"))
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        output.append(contentsOf: Array("\":".utf8))
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
                output.append(contentsOf: Array("{\"link\":{\"".utf8))
                switch target {
                case .product(let id):
                    output.append(contentsOf: Array("product\":".utf8))
                    string(id.rawValue, &output)
                case .recipe(let id):
                    output.append(contentsOf: Array("recipe\":".utf8))
                    string(id.rawValue, &output)
                }
                output.append(contentsOf: Array("},\"text\":".utf8))
                runs(children, &output)
                output.append(UInt8(ascii: "}"))
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A JSON string: quotes, backslashes and control characters escaped as JSONEncoder does;
    /// everything else, `/` included (`withoutEscapingSlashes`), as its UTF-8 bytes.
    static func string(_ text: String, _ output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
