import CLibXML2
import CatalogContent
import CatalogModel

/// Texts of one language written into one content file as an editor would write them. A
/// translation is a `xml:lang` element (`<summary xml:lang="sv">`, `<alt xml:lang="sv">` in its
/// `<image>`, a whole `<body xml:lang="sv">`): its words replaced in place when there is one,
/// else a new element on a line of its own after the field's elements of the languages before
/// it, at their indentation; a translation removed takes its line with it. The default
/// language's texts (`language` nil) are replaced in place, a picture's in its `alt`
/// attribute. Nothing else in the file changes: comments, order, indentation, the other
/// languages. Written by hand: no library here edits XML text in place (libxml2 would
/// re-serialise the whole file).
struct ContentFileEdit {
    /// One text to write: where, and its value; nil removes a translation.
    struct Translation {
        var entity: EntityReference
        var field: FieldPath
        var value: TranslationUnit.Text?
    }

    /// Why a translation could not be placed in its file (the file changed under the import,
    /// or is not what the validator read).
    struct Unplaceable: Error {
        var message: String
    }

    let file: ContentFile
    let bytes: [UInt8]
    /// The language of the texts written; nil for the default language's.
    let language: LanguageCode?
    /// The catalogue's languages in declared order: a new translation goes after those before it.
    let languageOrder: [LanguageCode]

    /// The file's bytes with `translations` written in, and the lines (from 1) each one's
    /// element spans in them, in the order given.
    func applying(_ translations: [Translation]) throws(Unplaceable) -> (bytes: [UInt8], lines: [ClosedRange<Int>]) {
        guard !translations.isEmpty else { return (bytes, []) }
        let parser: ContentXMLParser
        do { parser = try ContentXMLParser(libxml: try LibXML.shared.get()) } catch { throw Unplaceable(message: "\(error)") }
        let result = parser.parse(bytes)
        guard let document = result.document, let root = result.root else {
            throw Unplaceable(message: "\(file.path) no longer parses; check it with digno validate")
        }
        defer { withExtendedLifetime(document) {} }
        var builder = EntityBuilder(file: file, root: root, recordFieldElements: true)
        // A promotion whose day is no day is still edited (its day fixed by a save, or not touched).
        builder.keepsUnreadableDays = true
        _ = builder.build()
        // A repeated kind's file names its entity: one whose root says another id is not the
        // file the texts were read from.
        let id: String? = file.kind.folder == nil ? nil : root.attribute("id")
        if let id, id != file.id { throw Unplaceable(message: "\(file.path) now holds the \(file.kind.rawValue) \(id), not \(file.id)") }
        var place = Place(fieldElements: builder.fieldElements ?? [:], offsets: SourceText.startTagOffsets(SourceText.startTags(in: bytes), root: root.node))
        var splices: [(range: Range<Int>, text: [UInt8], index: Int)] = []
        // A file whose lines end in CR LF gets new lines that do too.
        let crlf = bytes.indices.dropFirst().contains { bytes[$0] == UInt8(ascii: "\n") && bytes[$0 - 1] == UInt8(ascii: "\r") }
        for (index, translation) in translations.enumerated() {
            guard let (range, text) = try splice(translation, &place) else { continue }
            splices.append((range, Array((crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text).utf8), index))
        }
        // One pass over the file, the splices in order, counting lines as it goes.
        splices.sort { $0.range.lowerBound < $1.range.lowerBound }
        var edited: [UInt8] = []
        edited.reserveCapacity(bytes.count + splices.reduce(0) { $0 + $1.text.count })
        var lines = [ClosedRange<Int>](repeating: 1...1, count: translations.count)
        var line = 1, from = 0
        func copy(_ part: ArraySlice<UInt8>) {
            line += part.count { $0 == UInt8(ascii: "\n") }
            edited.append(contentsOf: part)
        }
        for splice in splices {
            guard splice.range.lowerBound >= from else { throw Unplaceable(message: "two translations of \(file.path) overlap") }
            copy(bytes[from..<splice.range.lowerBound])
            // Where the splice's element starts: past the line break that begins an inserted one.
            let first = line + (splice.text.first == UInt8(ascii: "\n") || splice.text.starts(with: [13, 10]) ? 1 : 0)
            copy(splice.text[...])
            lines[splice.index] = first...max(first, line)
            from = splice.range.upperBound
        }
        copy(bytes[from...])
        return (edited, lines)
    }

    /// What a file's parse tells of where things are: its fieldElements, its start tags' offsets, and
    /// each parent's children, listed once (an ingredient's siblings are looked up per line).
    private struct Place {
        var fieldElements: [FieldElementKey: XMLElement]
        var offsets: [xmlNodePtr: Int]
        var children: [xmlNodePtr: [XMLElement]] = [:]
        /// Each listed child's place among its parent's children.
        var positions: [xmlNodePtr: Int] = [:]

        mutating func children(of element: XMLElement) -> [XMLElement] {
            if let known = children[element.node] { return known }
            let listed = element.children
            children[element.node] = listed
            for (index, child) in listed.enumerated() { positions[child.node] = index }
            return listed
        }
    }

    /// Where `translation` goes and what is written there; nil for a translation removed that
    /// is not there.
    private func splice(_ translation: Translation, _ place: inout Place) throws(Unplaceable) -> (range: Range<Int>, text: String)? {
        let fieldElements = place.fieldElements, offsets = place.offsets
        let isAlt: Bool = switch translation.field {
        case .image, .picture: true
        default: false
        }
        let name = isAlt ? "alt" : translation.field.elementName.map { "\($0)" } ?? translation.field.name
        func extent(_ element: XMLElement) throws(Unplaceable) -> Extent {
            guard let start = offsets[element.node], let extent = Extent(bytes, start: start, name: Array(element.name.utf8)) else {
                throw Unplaceable(message: "cannot find \(translation.field) of \(translation.entity) in \(file.path)")
            }
            return extent
        }
        guard let language else {
            // The default language's text: in place, a picture's in its alt attribute.
            guard let value = translation.value, let element = fieldElements[FieldElementKey(entity: translation.entity, field: translation.field)] else {
                throw Unplaceable(message: "cannot find \(translation.field) of \(translation.entity) in \(file.path)")
            }
            let place = try extent(element)
            if isAlt { return attribute("alt", of: place, value: value.words) }
            guard let contentEnd = place.contentEnd else {
                // `<summary/>` becomes `<summary>`, the words, `</summary>`.
                let tag = String(decoding: bytes[place.start..<(place.contentStart - 2)], as: UTF8.self)
                return (place.start..<place.end, Self.trimmingSuffix(tag) + ">" + Self.content(value, indent: indentation(before: place.start)) + "</" + element.name + ">")
            }
            let comments = Self.comments(in: bytes[place.contentStart..<contentEnd])
            return (place.contentStart..<contentEnd, Self.content(value, indent: indentation(before: place.start), comments: comments))
        }
        if let existing = fieldElements[FieldElementKey(entity: translation.entity, field: translation.field, language: language)] {
            // In place: the element's start and end tags stay as written, its content is new.
            let place = try extent(existing)
            guard let value = translation.value else { return removal(of: place) }
            let indent = indentation(before: place.start)
            guard let contentEnd = place.contentEnd else {
                return (place.start..<place.end, Self.element(name, language, value, indent: indent))
            }
            // Comments in it stay: those before its words before the new ones, the others after.
            let comments = Self.comments(in: bytes[place.contentStart..<contentEnd])
            return (place.contentStart..<contentEnd, Self.content(value, indent: indent, comments: comments))
        }
        // A translation removed that is not there: nothing to do.
        guard let value = translation.value else { return nil }
        guard let original = fieldElements[FieldElementKey(entity: translation.entity, field: translation.field)] else {
            throw Unplaceable(message: "cannot find \(translation.field) of \(translation.entity) in \(file.path)")
        }
        // The element a new one follows: the last of the field's elements whose language comes
        // before this one (the default language's first).
        let rank = languageOrder.firstIndex(of: language) ?? languageOrder.count
        func comesBefore(_ element: XMLElement) -> Bool {
            guard let other = element.language.map({ LanguageCode($0) }) else { return true }
            return (languageOrder.firstIndex(of: other) ?? languageOrder.count) < rank
        }
        if isAlt {
            // Inside the picture's element, the default language's alt text being its attribute.
            let picture = try extent(original)
            let indent = indentation(before: picture.start)
            let alts = original.children.filter { $0.isNamed("alt") }
            if let after = alts.last(where: comesBefore) {
                let place = try extent(after)
                return (place.end..<place.end, "\n" + indentation(before: place.start) + Self.element(name, language, value, indent: indentation(before: place.start)))
            }
            if let first = alts.first {
                let place = try extent(first)
                let alsoIndent = indentation(before: place.start)
                return (place.start..<place.start, Self.element(name, language, value, indent: alsoIndent) + "\n" + alsoIndent)
            }
            let inner = indent + "  "
            let element = Self.element(name, language, value, indent: inner)
            guard picture.contentEnd != nil else {
                // `<image …/>` becomes `<image …>`, the alt text, `</image>`.
                var close = picture.end - 2
                while close > picture.start, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[close - 1]) { close -= 1 }
                return (close..<picture.end, ">\n" + inner + element + "\n" + indent + "</" + original.name + ">")
            }
            return (picture.contentStart..<picture.contentStart, "\n" + inner + element)
        }
        // The field's elements: its text in the default language and the translations that
        // follow it, up to the next element of its name without xml:lang (the next
        // ingredient line).
        var field = [original]
        if let parent = original.parent {
            let siblings = place.children(of: parent)
            for sibling in siblings[min((place.positions[original.node] ?? siblings.count) + 1, siblings.count)...] where xmlStrEqual(sibling.node.pointee.name, original.node.pointee.name) != 0 {
                guard sibling.language != nil else { break }
                field.append(sibling)
            }
        }
        let after = field.last(where: comesBefore) ?? original
        let place = try extent(after)
        let indent = indentation(before: place.start)
        return (place.end..<place.end, "\n" + indent + Self.element(name, language, value, indent: indent))
    }

    /// The spaces and tabs before `offset` on its line, when nothing else is before it there.
    private func indentation(before offset: Int) -> String {
        var start = offset
        while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
        guard start == 0 || bytes[start - 1] == UInt8(ascii: "\n") else { return "" }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// An element removed with its line: from its line's start to past its line end when
    /// nothing else is on the line, else the element alone.
    private func removal(of place: Extent) -> (range: Range<Int>, text: String) {
        var start = place.start, end = place.end
        while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
        var after = end
        while after < bytes.count, bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\t") { after += 1 }
        if start == 0 || bytes[start - 1] == UInt8(ascii: "\n"), after < bytes.count, bytes[after] == UInt8(ascii: "\n") || bytes[after] == UInt8(ascii: "\r") {
            end = after + (bytes[after] == UInt8(ascii: "\r") && after + 1 < bytes.count && bytes[after + 1] == UInt8(ascii: "\n") ? 2 : 1)
            return (start..<end, "")
        }
        return (place.start..<place.end, "")
    }

    /// An attribute of an element's start tag given `value`: its value replaced between its
    /// quotes (the quote kept), or the attribute added at the tag's end.
    private func attribute(_ name: String, of place: Extent, value: String) -> (range: Range<Int>, text: String) {
        let tagEnd = place.contentEnd == nil ? place.end - 2 : place.contentStart - 1
        let tag = bytes[place.start..<tagEnd]
        let escaped = XLIFFWriter.attribute(value)
        var index = tag.startIndex
        var quote: UInt8?
        func isSpace(_ byte: UInt8) -> Bool { [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(byte) }
        while index < tag.endIndex {
            let byte = tag[index]
            if let open = quote {
                if byte == open { quote = nil }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte; index += 1; continue }
            // An attribute's name starts after a space.
            if index > tag.startIndex, isSpace(tag[index - 1]), tag[index...].starts(with: name.utf8) {
                var next = index + name.utf8.count
                while next < tag.endIndex, isSpace(tag[next]) { next += 1 }
                if next < tag.endIndex, tag[next] == UInt8(ascii: "=") {
                    next += 1
                    while next < tag.endIndex, isSpace(tag[next]) { next += 1 }
                    if next < tag.endIndex, tag[next] == UInt8(ascii: "\"") || tag[next] == UInt8(ascii: "'") {
                        let open = tag[next]
                        var close = next + 1
                        while close < tag.endIndex, tag[close] != open { close += 1 }
                        let text = open == UInt8(ascii: "'") ? escaped.replacingOccurrences(of: "'", with: "&apos;") : escaped
                        return ((next + 1)..<close, text)
                    }
                }
            }
            index += 1
        }
        // Not there: added after the last attribute, before `>` or `/>`.
        var end = tagEnd
        while end > place.start, isSpace(bytes[end - 1]) { end -= 1 }
        return (end..<end, " \(name)=\"\(escaped)\"")
    }

    /// The comments in an element's content, as written: those before any of its words or
    /// elements, and the others. CDATA sections are passed over.
    static func comments(in content: ArraySlice<UInt8>) -> (leading: [String], others: [String]) {
        var leading: [String] = [], others: [String] = []
        var seenContent = false
        var index = content.startIndex
        func starts(_ marker: String, at offset: Int) -> Bool { content[offset...].starts(with: marker.utf8) }
        func end(of marker: String, from offset: Int) -> Int {
            var next = offset
            while next < content.endIndex, !starts(marker, at: next) { next += 1 }
            return min(next + marker.utf8.count, content.endIndex)
        }
        while index < content.endIndex {
            let byte = content[index]
            if byte == UInt8(ascii: "<"), starts("<!--", at: index) {
                let close = end(of: "-->", from: index + 4)
                let comment = String(decoding: content[index..<close], as: UTF8.self)
                if seenContent { others.append(comment) } else { leading.append(comment) }
                index = close
            } else if byte == UInt8(ascii: "<"), starts("<![CDATA[", at: index) {
                seenContent = true
                index = end(of: "]]>", from: index + 9)
            } else {
                if ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(byte) { seenContent = true }
                index += 1
            }
        }
        return (leading, others)
    }

    /// `text` without the spaces, tabs and line ends at its end.
    private static func trimmingSuffix(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
