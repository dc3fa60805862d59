import CatalogContent

/// Where each field of an entity starts in its file, keyed by entity and field (nil for the
/// entity's own element). Recorded only when a diagnostic needs a position.
struct FieldElementKey: Hashable {
    var entity: EntityReference
    var field: FieldPath?
    /// The language of a translation's element; nil for the default language's.
    var language: LanguageCode?

    init(entity: EntityReference, field: FieldPath?, language: LanguageCode? = nil) {
        self.entity = entity
        self.field = field
        self.language = language
    }
}
