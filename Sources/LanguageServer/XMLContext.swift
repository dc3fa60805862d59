import LanguageServerProtocol

/// Where a position stands in a content file's markup, for completion and hover of element and
/// attribute names: read from the text before it (a file being typed is rarely well-formed, so
/// no parser is asked), by a scan of its tags that skips comments, processing instructions and
/// CDATA.
///
/// Written by hand: libxml2 parses whole documents, and reports no context for a place in a
/// broken one.
enum XMLContext: Equatable {
    /// Typing an element's name after `<`: what is typed so far and the element it goes in (nil
    /// at the file's top).
    case elementName(typed: String, parent: String?)
    /// Typing an attribute's name in the start tag of `element`, which has `present` already.
    case attributeName(typed: String, element: String, present: [String])
    /// Anywhere else.
    case other

    /// The context at `position` of `text`.
    static func at(_ position: Position, in text: DocumentText) -> XMLContext {
        let before = prefix(of: text, to: position)
        guard let open = before.lastIndex(of: "<"), before[open...].firstIndex(of: ">") == nil else { return .other }
        let tag = before[before.index(after: open)...]
        guard let first = tag.first, first != "/", first != "!", first != "?" else {
            return tag.isEmpty ? .elementName(typed: "", parent: openElements(in: before[..<open]).last) : .other
        }
        guard let space = tag.firstIndex(where: \.isWhitespace) else {
            return .elementName(typed: String(tag), parent: openElements(in: before[..<open]).last)
        }
        let element = String(tag[..<space])
        let rest = tag[space...]
        // Inside a value: an odd number of quotes of the kind that opened it.
        var quote: Character?
        for character in rest where character == "\"" || character == "'" {
            if quote == nil { quote = character } else if quote == character { quote = nil }
        }
        guard quote == nil else { return .other }
        let typed = String(rest.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == "_" }.reversed())
        // The attributes written in the whole tag, after the position too (on its line).
        let line = position.line < text.lines.count ? Array(text.lines[position.line].utf16) : []
        let after = String(decoding: line.dropFirst(min(position.character, line.count)), as: UTF16.self)
        let tagAfter = after.prefix { $0 != ">" && $0 != "<" }
        let present = (String(rest) + " " + tagAfter).matches(of: /([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=/).map { String($0.output.1) }
        return .attributeName(typed: typed, element: element, present: present)
    }

    /// The name under `position` when it is an element's (in a start or end tag) or an
    /// attribute's, with the element it is in or of.
    enum Name: Equatable {
        case element(String, parent: String?)
        case attribute(String, element: String)
    }

    static func name(at position: Position, in text: DocumentText) -> (Name, LanguageServerProtocol.Range)? {
        guard position.line < text.lines.count else { return nil }
        let units = Array(text.lines[position.line].utf16)
        func isNameUnit(_ unit: UInt16) -> Bool {
            guard let scalar = Unicode.Scalar(unit) else { return false }
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == ":" || scalar == "."
        }
        var start = min(position.character, units.count), end = start
        while start > 0, isNameUnit(units[start - 1]) { start -= 1 }
        while end < units.count, isNameUnit(units[end]) { end += 1 }
        guard start < end else { return nil }
        let name = String(decoding: units[start..<end], as: UTF16.self)
        let range = LanguageServerProtocol.Range(start: Position(line: position.line, character: start), end: Position(line: position.line, character: end))
        let lt = UInt16(UInt8(ascii: "<")), slash = UInt16(UInt8(ascii: "/")), equals = UInt16(UInt8(ascii: "="))
        if start > 0, units[start - 1] == lt || (start > 1 && units[start - 1] == slash && units[start - 2] == lt) {
            let closing = units[start - 1] == slash
            let tagStart = Position(line: position.line, character: start - (closing ? 2 : 1))
            var parents = openElements(in: Substring(prefix(of: text, to: tagStart)))
            // An end tag's element is the innermost open one; its parent the one before.
            if closing, parents.last == name { parents.removeLast() }
            return (.element(name, parent: parents.last), range)
        }
        var after = end
        while after < units.count, units[after] == 32 || units[after] == 9 { after += 1 }
        if after < units.count, units[after] == equals, case .attributeName(_, let element, _) = at(range.start, in: text) {
            return (.attribute(name, element: element), range)
        }
        return nil
    }

    /// The text before `position`, lines joined by newlines.
    private static func prefix(of text: DocumentText, to position: Position) -> String {
        let line = min(position.line, text.lines.count - 1)
        guard line >= 0 else { return "" }
        let current = String(decoding: Array(text.lines[line].utf16).prefix(position.character), as: UTF16.self)
        return (text.lines.prefix(line) + [current]).joined(separator: "\n")
    }

    /// The elements open at the end of `text`, outermost first.
    static func openElements(in text: Substring) -> [String] {
        var stack: [String] = []
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "<") {
            let rest = text[open...]
            if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { break }
                index = end.upperBound
                continue
            }
            if rest.hasPrefix("<![CDATA[") {
                guard let end = rest.range(of: "]]>") else { break }
                index = end.upperBound
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            index = text.index(after: close)
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                if let at = stack.lastIndex(of: name) { stack.removeSubrange(at...) }
                continue
            }
            let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" })
            if !tag.hasSuffix("/"), !name.isEmpty { stack.append(name) }
        }
        return stack
    }
}
