import CatalogContent
import CatalogModel

/// Where the content uses an image: which entity and which field. Built only for a use that
/// has a problem; the check itself needs only the reference.
struct ImageUsePlace {
    var entity: EntityReference
    var field: FieldPath
}

extension Catalog {
    /// Calls `visit` with every image use, in a stable order: the reference, how it is shown
    /// (an icon must be square), and a function that names the use's place.
    /// A visitor rather than an array of uses: a 100,000-entity catalogue has some 300,000.
    /// `only`: the entities whose uses are visited; nil, every one.
    func forEachImageUse(only: Set<EntityReference>? = nil, _ visit: (ImageReference, PictureUse, _ place: () -> ImageUsePlace) -> Void) {
        func wanted(_ entity: EntityReference) -> Bool { only?.contains(entity) ?? true }
        func pictures(_ kind: EntityReference.Kind, _ id: String, _ images: [ImageReference]) {
            guard wanted(EntityReference(kind, id)) else { return }
            for (index, image) in images.enumerated() {
                visit(image, .picture) { ImageUsePlace(entity: EntityReference(kind, id), field: .picture(index)) }
            }
        }
        for section in sections where wanted(EntityReference(.section, section.id.rawValue)) {
            visit(section.icon, .icon) { ImageUsePlace(entity: EntityReference(.section, section.id.rawValue), field: .icon) }
        }
        if wanted(EntityReference(.home)) {
            visit(home.logo, .logo) { ImageUsePlace(entity: EntityReference(.home), field: .logo) }
            visit(home.image, .picture) { ImageUsePlace(entity: EntityReference(.home), field: .image) }
        }
        for promotion in home.promotions where wanted(EntityReference(.promotion, promotion.id.rawValue)) {
            visit(promotion.image, .picture) { ImageUsePlace(entity: EntityReference(.promotion, promotion.id.rawValue), field: .image) }
        }
        if wanted(EntityReference(.company)) {
            visit(company.logo, .logo) { ImageUsePlace(entity: EntityReference(.company), field: .logo) }
        }
        pictures(.company, "", company.images)
        // By index, each entity read in place rather than copied whole.
        for index in products.indices {
            let id = products[index].id.rawValue
            guard wanted(EntityReference(.product, id)) else { continue }
            visit(products[index].icon, .icon) { ImageUsePlace(entity: EntityReference(.product, id), field: .icon) }
            pictures(.product, id, products[index].images)
        }
        for index in recipes.indices {
            let id = recipes[index].id.rawValue
            guard wanted(EntityReference(.recipe, id)) else { continue }
            visit(recipes[index].icon, .icon) { ImageUsePlace(entity: EntityReference(.recipe, id), field: .icon) }
            pictures(.recipe, id, recipes[index].images)
        }
        for index in retailers.indices {
            let id = retailers[index].id.rawValue
            guard wanted(EntityReference(.retailer, id)) else { continue }
            visit(retailers[index].logo, .logo) { ImageUsePlace(entity: EntityReference(.retailer, id), field: .logo) }
        }
    }
}
