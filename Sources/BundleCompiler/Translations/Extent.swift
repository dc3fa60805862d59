/// Where an element is in its file's bytes: its start tag from `start`, its content from
/// `contentStart` to `contentEnd` (nil for an empty-element tag), and its end at `end`.
struct Extent {
    var start: Int
    var contentStart: Int
    var contentEnd: Int?
    var end: Int

    /// The element whose start tag is at `start`, named `name`: its start tag's end (quotes
    /// minded), then the end tag that closes it, counting elements of its name inside it and
    /// passing over comments, CDATA sections and processing instructions, where XML allows a
    /// literal `<`.
    init?(_ bytes: [UInt8], start: Int, name: [UInt8]) {
        func tagEnd(from index: Int) -> Int? {
            var quote: UInt8?
            var index = index
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return index
                }
                index += 1
            }
            return nil
        }
        func starts(_ marker: String, at index: Int) -> Bool {
            let marker = Array(marker.utf8)
            return index + marker.count <= bytes.count && Array(bytes[index..<(index + marker.count)]) == marker
        }
        func named(at index: Int) -> Bool {
            guard index + name.count < bytes.count, Array(bytes[index..<(index + name.count)]) == name else { return false }
            return [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[index + name.count])
        }
        guard let close = tagEnd(from: start) else { return nil }
        self.start = start
        contentStart = close + 1
        if bytes[close - 1] == UInt8(ascii: "/") {
            contentEnd = nil
            end = close + 1
            return
        }
        var depth = 1
        var index = close + 1
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let passing: (String, String)? = starts("<!--", at: index) ? ("<!--", "-->") : starts("<![CDATA[", at: index) ? ("<![CDATA[", "]]>") : starts("<?", at: index) ? ("<?", "?>") : nil
            if let (_, closing) = passing {
                var next = index + 2
                while next < bytes.count, !starts(closing, at: next) { next += 1 }
                index = next + closing.utf8.count
                continue
            }
            guard let tagClose = tagEnd(from: index) else { return nil }
            if bytes[index + 1] == UInt8(ascii: "/"), named(at: index + 2) {
                depth -= 1
                if depth == 0 {
                    contentEnd = index
                    end = tagClose + 1
                    return
                }
            } else if named(at: index + 1), bytes[tagClose - 1] != UInt8(ascii: "/") {
                depth += 1
            }
            index = tagClose + 1
        }
        return nil
    }
}
