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
    func forEachImageUse(_ visit: (ImageReference, PictureUse, _ place: () -> ImageUsePlace) -> Void) {
        func pictures(_ kind: EntityReference.Kind, _ id: String, _ images: [ImageReference]) {
            for (index, image) in images.enumerated() {
                visit(image, .picture) { ImageUsePlace(entity: EntityReference(kind, id), field: .picture(index)) }
            }
        }
        for section in sections {
            visit(section.icon, .icon) { ImageUsePlace(entity: EntityReference(.section, section.id.rawValue), field: .icon) }
        }
        visit(home.logo, .logo) { ImageUsePlace(entity: EntityReference(.home), field: .logo) }
        visit(home.image, .picture) { ImageUsePlace(entity: EntityReference(.home), field: .image) }
        for promotion in home.promotions {
            visit(promotion.image, .picture) { ImageUsePlace(entity: EntityReference(.promotion, promotion.id.rawValue), field: .image) }
        }
        visit(company.logo, .logo) { ImageUsePlace(entity: EntityReference(.company), field: .logo) }
        pictures(.company, "", company.images)
        for product in products {
            visit(product.icon, .icon) { ImageUsePlace(entity: EntityReference(.product, product.id.rawValue), field: .icon) }
            pictures(.product, product.id.rawValue, product.images)
        }
        for recipe in recipes {
            visit(recipe.icon, .icon) { ImageUsePlace(entity: EntityReference(.recipe, recipe.id.rawValue), field: .icon) }
            pictures(.recipe, recipe.id.rawValue, recipe.images)
        }
        for retailer in retailers {
            visit(retailer.logo, .logo) { ImageUsePlace(entity: EntityReference(.retailer, retailer.id.rawValue), field: .logo) }
        }
    }
}
