import CatalogContent
import CatalogModel

/// The content's schema where editors' tools find it: the compiler's own `content.xsd` and
/// `xml.xsd`, copied to `schema/` in the content folder, and named from each content file's
/// root element by `xsi:noNamespaceSchemaLocation`, which Xerces (VS Code's XML extension,
/// IntelliJ, Oxygen) and Python's xmlschema follow. The compiler itself never reads them: it
/// validates against its embedded copy (`LibXML`).
package enum ContentSchema {
    /// The folder, in the content folder, that holds the schema's files.
    package static let folder = "schema"
    /// The schema itself, relative to the content folder.
    package static let path = "schema/content.xsd"
    /// The files `digno schema --write` writes, relative to the content folder, with the bytes
    /// they hold: content.xsd, and xml.xsd, which it imports from beside it for `xml:lang`.
    package static let files: [(path: String, bytes: [UInt8])] = [
        (path, PackageResources.content_xsd), ("schema/xml.xsd", PackageResources.xml_xsd),
    ]
    /// The namespace of `xsi:` attributes.
    package static let instanceNamespace = "http://www.w3.org/2001/XMLSchema-instance"
    /// The attribute that names a schema for elements in no namespace, without its prefix.
    package static let locationAttribute = "noNamespaceSchemaLocation"

    /// The version `content.xsd` declares (`<xs:schema version="…">`): raised with every change
    /// of the schema (a test holds it to the file's digest), so that a copy in a content folder
    /// can be told older or newer than the compiler's.
    package static let version: Int = version(of: PackageResources.content_xsd) ?? 0

    /// The elements `parent` may hold, as the schema says, each with its documentation's first
    /// sentence: for an editor's completion (`digno lsp`). Empty if the schema cannot be read.
    package static func children(of parent: String) -> [(name: String, meaning: String?)] {
        (try? LibXML.shared.get())?.documentation.children(of: parent) ?? []
    }

    /// The attributes of `element`, each with its documentation's first sentence.
    package static func attributes(of element: String) -> [(name: String, meaning: String?)] {
        (try? LibXML.shared.get())?.documentation.attributeNames(of: element) ?? []
    }

    /// What the element `name` inside `parent` is (nil `parent`: a file's root), as the
    /// schema's documentation says it; nil where it says nothing.
    package static func meaning(ofElement name: String, in parent: String?) -> String? {
        guard let documentation = (try? LibXML.shared.get())?.documentation else { return nil }
        guard let parent else { return documentation.rootMeaning(of: name) }
        return documentation.meaning(ofElement: name, in: parent)
    }

    /// What the attribute `name` of `element` is, as the schema's documentation says it.
    package static func meaning(ofAttribute name: String, of element: String) -> String? {
        (try? LibXML.shared.get())?.documentation.meaning(ofAttribute: name, of: element)
    }

    /// The version a copy of content.xsd declares; nil when it declares none or is no schema.
    package static func version(of bytes: [UInt8]) -> Int? {
        guard let tag = RootStartTag(bytes), tag.name.hasSuffix("schema") else { return nil }
        return tag.attribute("version").flatMap { Int($0.value) }
    }

    /// How a content file at `path` (relative to the content folder) names the schema: from a
    /// file at the top, `schema/content.xsd`; from `products/espresso.xml`, `../schema/content.xsd`.
    package static func reference(from path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/").count - 1) + Self.path
    }

    /// Where the schema is named in a content file's root start tag.
    package enum Reference: Equatable, Sendable {
        /// The file names the schema as it should.
        case named
        /// The file names no schema.
        case missing
        /// The file names a schema elsewhere (the location as written).
        case elsewhere(String)
    }

    /// How the file at `path` whose root start tag is `tag` names the schema.
    static func reference(in tag: RootStartTag, path: String) -> Reference {
        guard let prefix = tag.prefix(boundTo: instanceNamespace),
              let location = tag.attribute(prefix + ":" + locationAttribute)
        else { return .missing }
        return location.value == reference(from: path) ? .named : .elsewhere(location.value)
    }

    /// The file's bytes with its root start tag naming the schema as `reference(from:)` says,
    /// every other byte as it was: the location's value replaced where there is one, else the
    /// attributes added after the last (`xmlns:xsi` only when no prefix is bound to the
    /// namespace yet). Nil when the root start tag cannot be found, or it names the schema already.
    static func namingSchema(_ bytes: [UInt8], path: String) -> [UInt8]? {
        guard let tag = RootStartTag(bytes) else { return nil }
        let wanted = Array(reference(from: path).utf8)
        if let prefix = tag.prefix(boundTo: instanceNamespace), let location = tag.attribute(prefix + ":" + locationAttribute) {
            guard !bytes[location.valueRange].elementsEqual(wanted) else { return nil }
            var changed = bytes
            changed.replaceSubrange(location.valueRange, with: wanted)
            return changed
        }
        let prefix = tag.prefix(boundTo: instanceNamespace)
        var added = ""
        if prefix == nil {
            // A prefix `xsi` bound elsewhere would be a contradiction we do not untangle.
            guard tag.attribute("xmlns:xsi") == nil else { return nil }
            added += " xmlns:xsi=\"\(instanceNamespace)\""
        }
        added += " \(prefix ?? "xsi"):\(locationAttribute)=\"\(reference(from: path))\""
        var changed = bytes
        changed.insert(contentsOf: Array(added.utf8), at: tag.endOfAttributes)
        return changed
    }
}
