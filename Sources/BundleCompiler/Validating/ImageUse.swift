import CatalogModel

/// One place the content uses an image: which entity, which field, the path, and whether the
/// image must be square (list icons and tab icons).
struct ImageUse {
    var entity: EntityReference
    var field: FieldPath
    var reference: ImageReference
    var mustBeSquare: Bool
}

extension Catalog {
    /// Every image use, in a stable order.
    var imageUses: [ImageUse] {
        var uses: [ImageUse] = []
        func add(_ entity: EntityReference, _ field: FieldPath, _ reference: ImageReference, square: Bool = false) {
            uses.append(ImageUse(entity: entity, field: field, reference: reference, mustBeSquare: square))
        }
        func addPictures(_ entity: EntityReference, _ images: [ImageReference]) {
            for (index, image) in images.enumerated() { add(entity, FieldPath("image", index), image) }
        }
        for section in sections { add(EntityReference(.section, section.id.rawValue), FieldPath("icon"), section.icon, square: true) }
        add(EntityReference(.home), FieldPath("logo"), home.logo)
        add(EntityReference(.home), FieldPath("image"), home.image)
        for promotion in home.promotions { add(EntityReference(.promotion, promotion.id.rawValue), FieldPath("image"), promotion.image) }
        add(EntityReference(.company), FieldPath("logo"), company.logo)
        addPictures(EntityReference(.company), company.images)
        for product in products {
            let entity = EntityReference(.product, product.id.rawValue)
            add(entity, FieldPath("icon"), product.icon, square: true)
            addPictures(entity, product.images)
        }
        for recipe in recipes {
            let entity = EntityReference(.recipe, recipe.id.rawValue)
            add(entity, FieldPath("icon"), recipe.icon, square: true)
            addPictures(entity, recipe.images)
        }
        for retailer in retailers { add(EntityReference(.retailer, retailer.id.rawValue), FieldPath("logo"), retailer.logo) }
        return uses
    }
}
