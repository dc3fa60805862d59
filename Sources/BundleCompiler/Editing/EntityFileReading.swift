import CatalogContent
import CatalogModel

/// One content file read as the compiler reads it, for `digno studio`'s forms: the entities it
/// holds, each with the fields `ContentEntity` describes, or why it cannot be read as a form
/// (it is not well-formed: git's conflict markers, a half-written edit).
package enum EntityFileReading {
    /// The file's entities by reference: a product's, recipe's or retailer's one; the home and
    /// its promotions; the company; catalog.xml's tabs. A file that is well-formed but does not
    /// match the schema is still read (its problems are the check's to tell).
    package static func entities(in bytes: [UInt8], path: String) throws(EntityFileEdit.Unplaceable) -> [EntityReference: any ContentEntity] {
        guard let file = ContentFile.at(path) else { throw EntityFileEdit.Unplaceable(description: "\(path) is not where a content file goes") }
        let parser: ContentXMLParser
        do { parser = try ContentXMLParser(libxml: try LibXML.shared.get()) } catch { throw EntityFileEdit.Unplaceable(description: "\(error)") }
        let result = parser.parseWellFormed(bytes)
        guard let document = result.document, let root = result.root else {
            let words: String = switch result.problems.first {
            case .doctype(let line): "line \(line): a DOCTYPE is not allowed in content"
            case .malformed(let error), .schema(let error): "line \(error.line): \(error.message)"
            case nil: "it could not be parsed"
            }
            throw EntityFileEdit.Unplaceable(description: "\(path) is not well-formed XML: \(words)")
        }
        defer { withExtendedLifetime(document) {} }
        guard root.name == file.kind.rootElement else {
            throw EntityFileEdit.Unplaceable(description: "\(path) has the root element <\(root.name)>, not <\(file.kind.rootElement)>")
        }
        var builder = EntityBuilder(file: file, root: root)
        builder.keepsUnreadableDays = true
        var entities: [EntityReference: any ContentEntity] = [:]
        switch builder.build() {
        case .catalog(let header): for section in header.sections { entities[EntityReference(.section, section.id.rawValue)] = section }
        case .home(let home):
            entities[EntityReference(.home)] = home
            for promotion in home.promotions { entities[EntityReference(.promotion, promotion.id.rawValue)] = promotion }
        case .company(let company): entities[EntityReference(.company)] = company
        case .product(let product): entities[file.entity] = product
        case .recipe(let recipe): entities[file.entity] = recipe
        case .retailer(let retailer): entities[file.entity] = retailer
        case nil: break
        }
        return entities
    }

    /// A promotion's days as its file writes them (`first-day`, `last-day`; an empty text for
    /// one not written), where they are not days the compiler can read: what its form shows
    /// and keeps until the editor chooses a day. Days that can be read are not listed.
    package static func writtenDays(of promotion: EntityReference, in bytes: [UInt8], path: String) -> [String: String] {
        guard let file = ContentFile.at(path), let parser = try? ContentXMLParser(libxml: try LibXML.shared.get()) else { return [:] }
        let result = parser.parseWellFormed(bytes)
        guard let document = result.document, let root = result.root else { return [:] }
        defer { withExtendedLifetime(document) {} }
        var builder = EntityBuilder(file: file, root: root, recordFieldElements: true)
        builder.keepsUnreadableDays = true
        _ = builder.build()
        guard let element = builder.fieldElements?[FieldElementKey(entity: promotion, field: nil)] else { return [:] }
        var days: [String: String] = [:]
        for (name, written) in [("first-day", element.attribute("first-day")), ("last-day", element.attribute("last-day"))]
        where written.flatMap({ Day($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) == nil {
            days[name] = written ?? ""
        }
        return days
    }
}

extension ContentFile {
    /// The content file at `path` in the content folder (`products/espresso.xml`,
    /// `home.xml`), by where it lies; nil for a path where no content file goes.
    static func at(_ path: String) -> ContentFile? {
        if let kind = ContentFileKind.allCases.first(where: { $0.singleFileName == path }) { return ContentFile(path: path, kind: kind, id: "") }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasSuffix(".xml"), parts[1].count > 4,
              let kind = ContentFileKind.allCases.first(where: { $0.folder.map { $0 == parts[0] } ?? false }) else { return nil }
        return ContentFile(path: path, kind: kind, id: String(parts[1].dropLast(4)))
    }
}
