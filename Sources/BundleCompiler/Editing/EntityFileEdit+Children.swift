import CLibXML2
import CatalogContent
import CatalogModel

extension EntityFileEdit {
    /// `bytes` with the elements named `child` in the list element `list` of `entity` (the
    /// home's `<promotion>`s in its `<promotions>`) kept in the order of `ids` (their `id`
    /// attributes), those not named dropped with their lines, and `appended` (whole elements,
    /// their lines without the list's indentation) added at its end, one level in.
    /// Each kept element is moved as written, its comments, translations and lines with it.
    package static func children(_ child: String, in list: String, of entity: EntityReference, keeping ids: [String], appending appended: [String] = [],
                                 in bytes: [UInt8]) throws(Unplaceable) -> [UInt8] {
        guard let file = ContentFile.named(for: entity) else { throw Unplaceable(description: "\(entity) has no file") }
        let parser: ContentXMLParser
        do { parser = try ContentXMLParser(libxml: try LibXML.shared.get()) } catch { throw Unplaceable(description: "\(error)") }
        let result = parser.parseWellFormed(bytes)
        guard let document = result.document, let root = result.root else { throw Unplaceable(description: "\(file.path) does not parse") }
        defer { withExtendedLifetime(document) {} }
        let offsets = SourceText.startTagOffsets(SourceText.startTags(in: bytes), root: root.node)
        func extent(_ element: XMLElement) throws(Unplaceable) -> Extent {
            guard let start = offsets[element.node], let extent = Extent(bytes, start: start, name: Array(element.name.utf8)) else {
                throw Unplaceable(description: "cannot find <\(element.name)> in \(file.path)")
            }
            return extent
        }
        guard let listElement = root.children.first(where: { $0.name == list }) else {
            throw Unplaceable(description: "\(file.path) has no <\(list)>; add it in a text editor")
        }
        let listExtent = try extent(listElement)
        guard let contentEnd = listExtent.contentEnd else { throw Unplaceable(description: "<\(list)> in \(file.path) is an empty element") }
        let children = listElement.children.filter { $0.name == child }
        // Each child's lines: from its line's start to past its line end.
        var texts: [String: ArraySlice<UInt8>] = [:]
        for element in children {
            let place = try extent(element)
            texts[element.attribute("id") ?? ""] = bytes[lineStart(bytes, place.start)..<pastLineEnd(bytes, place.end)]
        }
        for id in ids where texts[id] == nil { throw Unplaceable(description: "\(file.path) holds no <\(child) id=\"\(id)\">") }
        let indent = String(decoding: bytes[lineStart(bytes, listExtent.start)..<listExtent.start], as: UTF8.self) + "  "
        let crlf = bytes.indices.dropFirst().contains { bytes[$0] == 10 && bytes[$0 - 1] == 13 }
        var content: [UInt8] = []
        for id in ids { content += texts[id] ?? [] }
        for element in appended {
            let lines = element.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
            content += Array((lines.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n")).utf8)
        }
        // The children's lines, from the first's to the last's, replaced; an empty list keeps
        // its start and end tags.
        let from: Int, to: Int
        if let first = children.first, let last = children.last {
            from = lineStart(bytes, try extent(first).start)
            to = pastLineEnd(bytes, try extent(last).end)
        } else {
            from = lineStart(bytes, contentEnd)
            to = from
        }
        return Array(bytes[..<from]) + content + Array(bytes[to...])
    }
}
