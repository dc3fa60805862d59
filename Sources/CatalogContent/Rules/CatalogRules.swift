import CatalogModel

/// The rules behind `Catalog.validate`, one method per part of the catalogue. Each part runs
/// the checks its fields need, in the order its diagnostics are reported; the checks themselves are
/// kept by family: fields and their limits (`+Fields`), references (`+References`), the 1..*
/// relations (`+Relations`), duplicates (`+Duplicates`, `+Clashes`) and promotions
/// (`+Promotions`).
struct CatalogRules {
    let catalog: Catalog
    /// The ids references may name: the loaded entities and the unloaded ones.
    let productIDs: Set<ProductID>
    let recipeIDs: Set<RecipeID>
    /// Kinds with at least one unloaded entity.
    let unloadedKinds: Set<EntityReference.Kind>
    /// Kinds none of whose entities could be read: every id of theirs is unknown, not wrong.
    let unreadKinds: Set<EntityReference.Kind>
    var diagnostics: [EntityDiagnostic] = []

    init(catalog: Catalog, unloaded: Set<EntityReference>) {
        self.catalog = catalog
        unloadedKinds = Set(unloaded.map(\.kind))
        unreadKinds = Set(unloaded.filter(\.id.isEmpty).map(\.kind))
        let unloadedIDs = unloaded.filter { !$0.id.isEmpty }
        productIDs = Set(catalog.products.map(\.id) + unloadedIDs.filter { $0.kind == .product }.map { ProductID($0.id) })
        recipeIDs = Set(catalog.recipes.map(\.id) + unloadedIDs.filter { $0.kind == .recipe }.map { RecipeID($0.id) })
    }

    mutating func report(
        _ code: DiagnosticCode, _ entity: EntityReference, _ field: FieldPath?, _ message: String,
        severity: Severity = .error
    ) {
        diagnostics.append(EntityDiagnostic(severity: severity, code: code, entity: entity, field: field, message: message))
    }

    // MARK: Parts

    mutating func checkCatalog() {
        let entity = EntityReference(.catalog)
        requireText(catalog.brand, .brand, entity, limit: FieldLimits.name, code: .nameTooLong, what: "the brand name")
        requireText(catalog.releaseVersion, .release, entity, what: "the release version")
        var seen = Set<SectionKind>()
        for (index, section) in catalog.sections.enumerated() {
            let ref = EntityReference(.section, section.id.rawValue)
            if !seen.insert(section.id).inserted {
                report(.duplicateID, ref, .section(index),
                       "section '\(section.id.rawValue)' is listed twice; list each tab section once")
            }
            requireText(section.title, .title, ref, limit: FieldLimits.title, code: .titleTooLong, what: "the tab title")
        }
        for kind in SectionKind.allCases where !seen.contains(kind) {
            report(.sectionMissing, entity, .sections,
                   "section '\(kind.rawValue)' is missing; the app has five tabs: home, products, recipes, retailers, company")
        }
    }

    mutating func checkProducts() {
        checkSomeProduct()
        checkUnique(catalog.products.map(\.id.rawValue), kind: .product)
        checkPositions(catalog.products.map { ($0.id.rawValue, $0.position) }, kind: .product)
        let used = productsInUse()
        for product in catalog.products {
            let ref = EntityReference(.product, product.id.rawValue)
            requireText(product.name, .name, ref, limit: FieldLimits.name, code: .nameTooLong, what: "the product's name")
            requireText(product.summary, .summary, ref, limit: FieldLimits.summary, code: .summaryTooLong,
                        what: "the short description shown in the product list")
            checkBody(product.body, .body, ref)
            checkPictures(product.images, ref)
            checkUsed(product, ref, used: used)
        }
    }

    mutating func checkRecipes() {
        checkSomeRecipe()
        checkUnique(catalog.recipes.map(\.id.rawValue), kind: .recipe)
        checkPositions(catalog.recipes.map { ($0.id.rawValue, $0.position) }, kind: .recipe)
        for recipe in catalog.recipes {
            let ref = EntityReference(.recipe, recipe.id.rawValue)
            requireText(recipe.name, .name, ref, limit: FieldLimits.name, code: .nameTooLong, what: "the recipe's name")
            requireText(recipe.summary, .summary, ref, limit: FieldLimits.summary, code: .summaryTooLong,
                        what: "the short description shown in the recipe list")
            // A line is its own id in an app's list (`Ingredient.id`), so it is written once.
            var lines = Set<String>()
            for (index, ingredient) in recipe.ingredients.enumerated() {
                let field = FieldPath.ingredient(index)
                requireText(ingredient.text, field, ref, what: "the ingredient line")
                if !ingredient.text.showsNothing, !lines.insert(ingredient.text).inserted {
                    report(.duplicateIngredient, ref, field,
                           "the line '\(ingredient.text)' is written twice; remove one, or say what each is for ('1 tl suolaa taikinaan', '1 tl suolaa täytteeseen')")
                }
                if let product = ingredient.product {
                    checkReference(.product(product), field, ref, element: "ingredient")
                }
            }
            checkBody(recipe.method, .method, ref)
            checkPictures(recipe.images, ref)
            checkUsesProduct(recipe, ref)
        }
    }

    mutating func checkRetailers() {
        checkSomeRetailer()
        checkUnique(catalog.retailers.map(\.id.rawValue), kind: .retailer)
        checkPositions(catalog.retailers.map { ($0.id.rawValue, $0.position) }, kind: .retailer)
        for retailer in catalog.retailers {
            let ref = EntityReference(.retailer, retailer.id.rawValue)
            requireText(retailer.name, .name, ref, limit: FieldLimits.name, code: .nameTooLong, what: "the retailer's name")
            requireText(retailer.address, .address, ref, limit: FieldLimits.address, code: .addressTooLong, what: "the street address")
            requireText(retailer.phone, .phone, ref, limit: FieldLimits.phone, code: .phoneTooLong, what: "the phone number")
            requireText(retailer.openingHours, .hours, ref, limit: FieldLimits.openingHours, code: .hoursTooLong,
                        what: "the opening hours")
            if let info = retailer.otherInfo {
                requireText(info, .info, ref, what: "the other information, or remove the element")
            }
            checkSells(retailer, ref)
        }
    }

    mutating func checkHome(today: Day?) {
        let home = EntityReference(.home)
        checkPicture(catalog.home.image, .image, home)
        checkBody(catalog.home.body, .body, home)
        checkPromotionIDs()
        for promotion in catalog.home.promotions {
            checkPromotion(promotion, today: today)
        }
    }

    mutating func checkCompany() {
        let company = EntityReference(.company)
        requireText(catalog.company.name, .name, company, limit: FieldLimits.name, code: .nameTooLong, what: "the company's name")
        requireText(catalog.company.webAddress, .web, company, what: "the company's web address")
        checkBody(catalog.company.body, .body, company)
        checkPictures(catalog.company.images, company)
    }
}
