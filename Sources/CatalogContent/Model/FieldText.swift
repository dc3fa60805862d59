import CatalogModel

/// How an entity holds a field's text.
package enum FieldText<Entity>: Sendable {
    /// Plain text.
    case plain(WritableKeyPath<Entity, String> & Sendable)
    /// Plain text that may be absent (a retailer's other information).
    case optional(WritableKeyPath<Entity, String?> & Sendable)
    /// Rich text.
    case rich(WritableKeyPath<Entity, RichText> & Sendable)
    /// One picture's alt text (`FieldPath.image`).
    case alt(WritableKeyPath<Entity, ImageReference> & Sendable)
    /// Each picture's alt text, one field each (`FieldPath.picture(i)`).
    case alts(WritableKeyPath<Entity, [ImageReference]> & Sendable)
    /// Each ingredient line, one field each (`FieldPath.ingredient(i)`).
    case lines(WritableKeyPath<Entity, [Ingredient]> & Sendable)
}
