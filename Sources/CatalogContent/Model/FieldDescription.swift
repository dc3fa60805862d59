import CatalogModel

/// A field of a kind as a tool tells a person about it, without the entity's type: its element,
/// its limit, whether it is written in each declared language and whether it must be written.
/// The language server's hover and completion read it; it is `ContentField` (the one
/// description of the fields) with the key paths left out.
package struct FieldDescription: Hashable, Sendable {
    /// Its element in the kind's element (`summary`), or its attribute (`@position`).
    package let element: String
    package let limit: Int?
    package let isTranslatable: Bool
    /// What a message asks the editor to write when the text is empty, for a required text.
    package let required: String?
    /// Whether the element may be left out (a retailer's other information).
    package let isOptional: Bool
    /// The field diagnostics name it by.
    package let path: FieldPath?

    init<Entity>(_ field: ContentField<Entity>) {
        element = field.element
        limit = field.limit
        isTranslatable = field.isTranslatable
        required = field.required
        path = field.path
        if case .optional = field.text { isOptional = true } else { isOptional = false }
    }

    /// What an editor should know of it beyond what the schema says, in a sentence each:
    /// "Required. At most 300 characters. Written in each declared language (`xml:lang`)."
    /// Empty for a field with nothing to add.
    package var facts: [String] {
        var facts: [String] = []
        if required != nil { facts.append(isOptional ? "May be left out, but not written empty." : "Required.") }
        if let limit { facts.append("At most \(limit) characters.") }
        if isTranslatable { facts.append("Written in each declared language (`xml:lang`).") }
        return facts
    }
}

extension EntityReference.Kind {
    /// The kind's fields in the order its content file writes them; none for the catalogue
    /// file, which is not an entity.
    package var fields: [FieldDescription] {
        switch self {
        case .catalog: []
        case .section: Section.fields.map(FieldDescription.init)
        case .home: Home.fields.map(FieldDescription.init)
        case .promotion: Promotion.fields.map(FieldDescription.init)
        case .company: Company.fields.map(FieldDescription.init)
        case .product: Product.fields.map(FieldDescription.init)
        case .recipe: Recipe.fields.map(FieldDescription.init)
        case .retailer: Retailer.fields.map(FieldDescription.init)
        }
    }

    /// The field written as `element` (an element's name, or `@` and an attribute's) in the
    /// element of the kind named `kindElement` (`product`), if it is one of a kind's fields.
    package static func field(_ element: String, in kindElement: String) -> FieldDescription? {
        Self(rawValue: kindElement)?.fields.first { $0.element == element }
    }
}
