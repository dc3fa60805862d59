import CLibXML2
import CatalogContent
import CatalogModel

extension EntityFileEdit {
    /// A field of an entity written anew (`FieldElements`): its elements, the default language's
    /// and the translations after it, replaced by what `write` gives at their indentation;
    /// where it had none, put among the entity's other fields in the order its kind's fields
    /// are written (`fieldOrder`); an empty text removes them with their lines.
    package struct Replacement: Sendable {
        package var entity: EntityReference
        /// The field's element (`ingredients`, `images`, `icon`, `body`, `sells`).
        package var element: String
        /// The elements of the kind in the order its files write them, for a field not there yet.
        package var fieldOrder: [String]
        /// The field's elements at an indentation, or "" for none.
        package var write: @Sendable (_ indent: String) -> String

        package init(entity: EntityReference, element: String, fieldOrder: [String], write: @escaping @Sendable (_ indent: String) -> String) {
            self.entity = entity
            self.element = element
            self.fieldOrder = fieldOrder
            self.write = write
        }
    }

    /// An attribute of an entity's own element given a value (`position`, a promotion's
    /// `first-day`), or removed (nil).
    package struct AttributeChange: Sendable, Hashable {
        package var entity: EntityReference
        package var name: String
        package var value: String?
        /// The child element of the entity's whose attribute it is (the first so named, such as
        /// `image` for its `src`); nil for the entity's own element.
        package var element: String?

        package init(entity: EntityReference, name: String, value: String?, element: String? = nil) {
            self.entity = entity
            self.name = name
            self.value = value
            self.element = element
        }
    }

    /// `bytes` with each field of `replacements` written anew and each attribute of
    /// `attributes` set; everything else as it was.
    package static func replacing(_ replacements: [Replacement], attributes: [AttributeChange] = [], in bytes: [UInt8]) throws(Unplaceable) -> [UInt8] {
        var edited = bytes
        // One at a time, each finding its place in the text the one before it wrote.
        for replacement in replacements { edited = try replace(replacement, in: edited) }
        for attribute in attributes { edited = try set(attribute, in: edited) }
        return edited
    }

    /// The parsed file: its bytes, the element of `entity`, and each element's start tag offset.
    private struct Parsed {
        var document: ParsedXML
        var element: XMLElement
        var offsets: [xmlNodePtr: Int]
    }

    private static func parse(_ bytes: [UInt8], _ entity: EntityReference) throws(Unplaceable) -> Parsed {
        guard let file = ContentFile.named(for: entity) else { throw Unplaceable(description: "\(entity) has no file") }
        let parser: ContentXMLParser
        do { parser = try ContentXMLParser(libxml: try LibXML.shared.get()) } catch { throw Unplaceable(description: "\(error)") }
        let result = parser.parseWellFormed(bytes)
        guard let document = result.document, let root = result.root else { throw Unplaceable(description: "\(file.path) does not parse") }
        var builder = EntityBuilder(file: file, root: root, recordFieldElements: true)
        // A promotion whose day is no day is still edited (its day fixed by a save, or not touched).
        builder.keepsUnreadableDays = true
        _ = builder.build()
        guard let element = builder.fieldElements?[FieldElementKey(entity: entity, field: nil)] else {
            throw Unplaceable(description: "\(file.path) no longer holds \(entity)")
        }
        return Parsed(document: document, element: element, offsets: SourceText.startTagOffsets(SourceText.startTags(in: bytes), root: root.node))
    }

    private static func replace(_ replacement: Replacement, in bytes: [UInt8]) throws(Unplaceable) -> [UInt8] {
        let parsed = try parse(bytes, replacement.entity)
        defer { withExtendedLifetime(parsed.document) {} }
        let children = parsed.element.children
        func extent(_ element: XMLElement) throws(Unplaceable) -> Extent {
            guard let start = parsed.offsets[element.node], let extent = Extent(bytes, start: start, name: Array(element.name.utf8)) else {
                throw Unplaceable(description: "cannot find <\(element.name)> of \(replacement.entity)")
            }
            return extent
        }
        let matching = children.indices.filter { children[$0].name == replacement.element }
        let entityExtent = try extent(parsed.element)
        let lineEnd = bytes.contains(13) && bytes.indices.dropFirst().contains { bytes[$0] == 10 && bytes[$0 - 1] == 13 } ? "\r\n" : "\n"
        func lines(_ text: String) -> [UInt8] {
            Array((lineEnd == "\n" ? text : text.replacingOccurrences(of: "\n", with: lineEnd)).utf8)
        }
        if let first = matching.first, let last = matching.last {
            guard matching.count == last - first + 1 else {
                throw Unplaceable(description: "the <\(replacement.element)> elements of \(replacement.entity) are not together; edit them in a text editor")
            }
            let start = try extent(children[first]).start, end = try extent(children[last]).end
            let lineStart = Self.lineStart(bytes, start)
            let indent = String(decoding: bytes[lineStart..<start], as: UTF8.self)
            var written = replacement.write(indent)
            // The comments among the elements written anew are not lost: each is kept, on a line
            // of its own, just before them.
            let comments = Self.comments(in: bytes[start..<end])
            if !comments.isEmpty {
                written = (comments.map { indent + $0 } + (written.isEmpty ? [] : [written])).joined(separator: "\n")
            }
            // Removed with its lines, or replaced from its line's start to its end.
            var upper = end
            if written.isEmpty, lineStart < start || lineStart == 0 || bytes[lineStart - 1] == 10 {
                upper = Self.pastLineEnd(bytes, end)
            }
            return Array(bytes[..<lineStart]) + lines(written) + Array(bytes[upper...])
        }
        // Not there: before the first element of a field written after it, else before the
        // entity's end tag, one level in from the entity.
        let written: String
        let entityIndent = String(decoding: bytes[Self.lineStart(bytes, entityExtent.start)..<entityExtent.start], as: UTF8.self)
        let rank = replacement.fieldOrder.firstIndex(of: replacement.element) ?? replacement.fieldOrder.count
        if let next = children.first(where: { (replacement.fieldOrder.firstIndex(of: $0.name) ?? -1) > rank }) {
            let start = try extent(next).start
            let lineStart = Self.lineStart(bytes, start)
            written = replacement.write(String(decoding: bytes[lineStart..<start], as: UTF8.self))
            guard !written.isEmpty else { return bytes }
            return Array(bytes[..<lineStart]) + lines(written + "\n") + Array(bytes[lineStart...])
        }
        guard let contentEnd = entityExtent.contentEnd else {
            throw Unplaceable(description: "\(replacement.entity) is an empty element; edit it in a text editor")
        }
        written = replacement.write(entityIndent + "  ")
        guard !written.isEmpty else { return bytes }
        let lineStart = Self.lineStart(bytes, contentEnd)
        return Array(bytes[..<lineStart]) + lines(written + "\n") + Array(bytes[lineStart...])
    }

    private static func set(_ change: AttributeChange, in bytes: [UInt8]) throws(Unplaceable) -> [UInt8] {
        let parsed = try parse(bytes, change.entity)
        defer { withExtendedLifetime(parsed.document) {} }
        var element = parsed.element
        if let name = change.element {
            guard let child = parsed.element.children.first(where: { $0.name == name }) else {
                throw Unplaceable(description: "\(change.entity) has no <\(name)>; add it in a text editor")
            }
            element = child
        }
        guard let start = parsed.offsets[element.node], let extent = Extent(bytes, start: start, name: Array(element.name.utf8)) else {
            throw Unplaceable(description: "cannot find \(change.entity)")
        }
        let tagEnd = extent.contentEnd == nil ? extent.end - 2 : extent.contentStart - 1
        let tag = String(decoding: bytes[start..<tagEnd], as: UTF8.self)
        // The attribute as written: a space, its name, `=` and a quoted value.
        let pattern = try? Regex("\\s" + change.name + "\\s*=\\s*(\"[^\"]*\"|'[^']*')")
        if let pattern, let found = tag.firstMatch(of: pattern) {
            let lower = start + tag.utf8.distance(from: tag.startIndex, to: found.range.lowerBound)
            let upper = start + tag.utf8.distance(from: tag.startIndex, to: found.range.upperBound)
            let text = change.value.map { " \(change.name)=\"\(XLIFFWriter.attribute($0))\"" } ?? ""
            return Array(bytes[..<lower]) + Array(text.utf8) + Array(bytes[upper...])
        }
        guard let value = change.value else { return bytes }
        // Added after the element's name and id, as the shipped files write `position`.
        let name = element.name
        var at = start + 1 + name.utf8.count
        if let id = try? Regex("\\sid\\s*=\\s*(\"[^\"]*\"|'[^']*')"), let found = tag.firstMatch(of: id) {
            at = start + tag.utf8.distance(from: tag.startIndex, to: found.range.upperBound)
        }
        return Array(bytes[..<at]) + Array(" \(change.name)=\"\(XLIFFWriter.attribute(value))\"".utf8) + Array(bytes[at...])
    }

    /// The comments in `bytes`, each whole (`<!-- … -->`, its lines ended by LF), in order; a
    /// CDATA section's text is passed over.
    static func comments(in bytes: ArraySlice<UInt8>) -> [String] {
        func starts(_ marker: String, at index: Int) -> Bool { bytes[index...].starts(with: marker.utf8) }
        func end(of marker: String, from index: Int) -> Int? {
            var index = index
            while index < bytes.endIndex {
                if starts(marker, at: index) { return index + marker.utf8.count }
                index += 1
            }
            return nil
        }
        var found: [String] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "<"), starts("<!--", at: index), let close = end(of: "-->", from: index + 4) {
                found.append(String(decoding: bytes[index..<close], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
                index = close
            } else if bytes[index] == UInt8(ascii: "<"), starts("<![CDATA[", at: index) {
                index = end(of: "]]>", from: index + 9) ?? bytes.endIndex
            } else {
                index += 1
            }
        }
        return found
    }

    /// Where the line holding `offset` starts, when only spaces and tabs are before it there;
    /// else `offset` itself.
    static func lineStart(_ bytes: [UInt8], _ offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] == 32 || bytes[start - 1] == 9 { start -= 1 }
        return start == 0 || bytes[start - 1] == 10 ? start : offset
    }

    /// Past the line end after `offset` when only spaces and tabs are before it; else `offset`.
    static func pastLineEnd(_ bytes: [UInt8], _ offset: Int) -> Int {
        var end = offset
        while end < bytes.count, bytes[end] == 32 || bytes[end] == 9 { end += 1 }
        if end < bytes.count, bytes[end] == 13 { end += 1 }
        if end < bytes.count, bytes[end] == 10 { return end + 1 }
        return offset
    }
}
