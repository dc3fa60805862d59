import CatalogContent
import CatalogModel

/// What a content file holds, decided by where it lies in the content folder.
enum ContentFileKind: String, Sendable, CaseIterable {
    case catalog, home, company, product, recipe, retailer

    /// The root element the file must have.
    var rootElement: String { rawValue }

    /// The same name, for comparing with a parsed element's without making a string.
    var rootElementName: StaticString {
        switch self {
        case .catalog: "catalog"
        case .home: "home"
        case .company: "company"
        case .product: "product"
        case .recipe: "recipe"
        case .retailer: "retailer"
        }
    }

    /// The folder holding one file per entity, for the three repeated kinds.
    var folder: String? {
        switch self {
        case .product: "products"
        case .recipe: "recipes"
        case .retailer: "retailers"
        case .catalog, .home, .company: nil
        }
    }

    /// The file of the single kinds, relative to the content root.
    var singleFileName: String? {
        folder == nil ? "\(rawValue).xml" : nil
    }

    /// The kind of file an entity of `kind` is written in: a section in catalog.xml, a
    /// promotion in home.xml.
    init(holding kind: EntityReference.Kind) {
        switch kind {
        case .catalog, .section: self = .catalog
        case .home, .promotion: self = .home
        case .company: self = .company
        case .product: self = .product
        case .recipe: self = .recipe
        case .retailer: self = .retailer
        }
    }

    var entityKind: EntityReference.Kind {
        switch self {
        case .catalog: .catalog
        case .home: .home
        case .company: .company
        case .product: .product
        case .recipe: .recipe
        case .retailer: .retailer
        }
    }
}

/// One XML file of the content: where it is, what it holds, and the id its name gives.
struct ContentFile: Hashable, Sendable {
    /// The path relative to the content root, with `/` separators.
    var path: String
    var kind: ContentFileKind
    /// The file name without `.xml` for products, recipes and retailers; empty otherwise.
    var id: String

    /// The entity the file defines.
    var entity: EntityReference { EntityReference(kind.entityKind, id) }

    /// The file an entity is written in, by the names the content folder gives files (an
    /// entity's file is named by its id); nil for a product, recipe or retailer without one.
    static func named(for entity: EntityReference) -> ContentFile? {
        let kind = ContentFileKind(holding: entity.kind)
        if let name = kind.singleFileName { return ContentFile(path: name, kind: kind, id: "") }
        guard let folder = kind.folder, !entity.id.isEmpty else { return nil }
        return ContentFile(path: "\(folder)/\(entity.id).xml", kind: kind, id: entity.id)
    }
}
