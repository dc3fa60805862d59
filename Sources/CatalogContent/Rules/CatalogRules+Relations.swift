import CatalogModel

extension CatalogRules {
    // MARK: The 1..* relations: at least one of each kind, every product used by a recipe,
    // every recipe using a product, every retailer selling one

    mutating func checkSomeProduct() {
        if productIDs.isEmpty && !unreadKinds.contains(.product) {
            report(.noProducts, EntityReference(.product), nil, "there are no products; add at least one file products/<id>.xml")
        }
    }

    mutating func checkSomeRecipe() {
        if recipeIDs.isEmpty && !unreadKinds.contains(.recipe) {
            report(.noRecipes, EntityReference(.recipe), nil, "there are no recipes; add at least one file recipes/<id>.xml")
        }
    }

    mutating func checkSomeRetailer() {
        if catalog.retailers.isEmpty && !unloadedKinds.contains(.retailer) {
            report(.noRetailers, EntityReference(.retailer), nil, "there are no retailers; add at least one file retailers/<id>.xml")
        }
    }

    /// The products the recipes use. The product a mistyped ingredient most likely meant is
    /// counted as used, so it is not also told to be unused: the ingredient's unknown-product
    /// error names it, and correcting the id uses it.
    func productsInUse() -> Set<ProductID> {
        var used = Set<ProductID>()
        let recipes = catalog.recipes
        for index in recipes.indices {
            for ingredient in recipes[index].ingredients { if let product = ingredient.product { used.insert(product) } }
        }
        if !unreadKinds.contains(.product) {
            let candidates = productIDs.map(\.rawValue)
            for id in used where !productIDs.contains(id) {
                if let meant = Self.nearest(to: id.rawValue, among: candidates) { used.insert(ProductID(meant)) }
            }
        }
        return used
    }

    mutating func checkUsed(_ product: ProductID, _ ref: EntityReference, used: Set<ProductID>) {
        if !used.contains(product) && !unloadedKinds.contains(.recipe) {
            report(.productUnused, ref, nil,
                   "product '\(product)' is not used by any recipe; every product needs at least one: add <ingredient product=\"\(product)\"> to a recipe that uses it")
        }
    }

    mutating func checkUsesProduct(_ recipe: Recipe, _ ref: EntityReference) {
        // An ingredient naming an unknown product is reported as such, not again here.
        if !recipe.ingredients.contains(where: { $0.product != nil }) {
            report(.recipeWithoutProduct, ref, nil,
                   "recipe '\(recipe.id)' uses no Café Digno product; every recipe needs at least one: mark the ingredient that is one with product=\"<id>\"")
        }
    }

    /// Each `<sells>` names a product once, and there is at least one (that each names a
    /// product that exists is `checkReference`'s).
    mutating func checkSellsOwn(_ retailer: Retailer, _ ref: EntityReference) {
        var sold = Set<ProductID>()
        for (index, product) in retailer.sells.enumerated() {
            let field = FieldPath.sells(index)
            if !sold.insert(product).inserted {
                report(.duplicateSells, ref, field, "product '\(product)' is listed twice; remove one <sells product=\"\(product)\"/>",
                       severity: .warning)
            }
        }
        if retailer.sells.isEmpty {
            report(.retailerSellsNothing, ref, nil,
                   "retailer '\(retailer.id)' sells no Café Digno product; every retailer sells at least one: add <sells product=\"<id>\"/> for each")
        }
    }
}
