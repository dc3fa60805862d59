import CatalogModel

/// Which entity a problem is in: its kind and id. The home, the company and the
/// catalogue file have one instance each and an empty id.
package struct EntityReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kinds of entity in a catalogue.
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case catalog, section, home, promotion, company, product, recipe, retailer
    }

    /// The entity's kind.
    package var kind: Kind
    /// The entity's id; empty for the home, the company and the catalogue.
    package var id: String

    /// A reference from a kind and an id.
    package init(_ kind: Kind, _ id: String = "") {
        self.kind = kind
        self.id = id
    }

    /// `product 'espresso'`, or just the kind for single entities.
    package var description: String {
        id.isEmpty ? kind.rawValue : "\(kind.rawValue) '\(id)'"
    }
}
