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
    /// Each entity's own rules as an earlier check found them (`RuleMemo`), and the language of
    /// the catalogue checked (nil for the default's).
    var memo: RuleMemo?
    var memoLanguage: LanguageCode?
    /// The entities whose problems are wanted (`Catalog.validate(focus:)`); nil: every one.
    let focus: Set<EntityReference>?

    init(catalog: Catalog, unloaded: Set<EntityReference>, memo: RuleMemo? = nil, language: LanguageCode? = nil,
         focus: Set<EntityReference>? = nil) {
        self.catalog = catalog
        self.memo = memo
        self.memoLanguage = language
        self.focus = focus
        unloadedKinds = Set(unloaded.map(\.kind))
        unreadKinds = Set(unloaded.filter(\.id.isEmpty).map(\.kind))
        let unloadedIDs = unloaded.filter { !$0.id.isEmpty }
        productIDs = Set(catalog.products.map(\.id) + unloadedIDs.filter { $0.kind == .product }.map { ProductID($0.id) })
        recipeIDs = Set(catalog.recipes.map(\.id) + unloadedIDs.filter { $0.kind == .recipe }.map { RecipeID($0.id) })
    }

    /// The rules that read nothing but `value` (the entity `entity`), run by `check`, or their
    /// diagnostics as the memo kept them when the entity was the same.
    mutating func own<Value: Hashable>(_ entity: EntityReference, _ value: Value, _ check: (inout CatalogRules) -> Void) {
        guard let memo else {
            check(&self)
            return
        }
        if let kept = memo.diagnostics(of: entity, in: memoLanguage, ifStill: value) {
            diagnostics += kept
            return
        }
        let start = diagnostics.count
        check(&self)
        memo.store(Array(diagnostics[start...]), of: entity, in: memoLanguage, value: value)
    }

    /// Whether `entity`'s problems are wanted: the rules that report at one entity alone, from
    /// it alone or from indexes over all, are not run for the others.
    func wanted(_ entity: EntityReference) -> Bool {
        focus?.contains(entity) ?? true
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
            requireTexts(of: section, ref)
        }
        for kind in SectionKind.allCases where !seen.contains(kind) {
            report(.sectionMissing, entity, .sections,
                   "section '\(kind.rawValue)' is missing; the app has five tabs: home, products, recipes, retailers, company")
        }
    }

    // The entities are read in place, by index into the array's buffer: a loop's copy of each
    // (every string and list retained and released) cost more than the rules themselves at a
    // keystroke in `digno lsp`.

    mutating func checkProducts() {
        checkSomeProduct()
        let products = catalog.products
        checkUnique(products.map(\.id.rawValue), kind: .product)
        checkPositions(products.map { ($0.id.rawValue, $0.position) }, kind: .product)
        let used = productsInUse()
        products.withUnsafeBufferPointer { products in
            for index in products.indices {
                let ref = EntityReference(.product, products[index].id.rawValue)
                // Everything below reports at this entity alone.
                guard wanted(ref) else { continue }
                own(ref, products[index]) { rules in
                    rules.requireTexts(of: products[index], ref)
                    rules.checkBodyText(products[index].body, .body, ref)
                    rules.checkPictures(products[index].images, ref)
                }
                checkLinks(products[index].body, .body, ref)
                checkUsed(products[index].id, ref, used: used)
            }
        }
    }

    mutating func checkRecipes() {
        checkSomeRecipe()
        let recipes = catalog.recipes
        checkUnique(recipes.map(\.id.rawValue), kind: .recipe)
        checkPositions(recipes.map { ($0.id.rawValue, $0.position) }, kind: .recipe)
        recipes.withUnsafeBufferPointer { recipes in
            for index in recipes.indices {
                let ref = EntityReference(.recipe, recipes[index].id.rawValue)
                // Everything below reports at this entity alone.
                guard wanted(ref) else { continue }
                own(ref, recipes[index]) { rules in
                    let recipe = recipes[index]
                    rules.requireTexts(of: recipe, ref)
                    // A line is its own id in an app's list (`Ingredient.id`), so it is written once.
                    var lines = Set<String>()
                    for (index, ingredient) in recipe.ingredients.enumerated() {
                        let field = FieldPath.ingredient(index)
                        rules.requireText(ingredient.text, field, ref, what: "the ingredient line")
                        if !ingredient.text.showsNothing, !lines.insert(ingredient.text).inserted {
                            rules.report(.duplicateIngredient, ref, field,
                                         "the line '\(ingredient.text)' is written twice; remove one, or say what each is for ('1 tl suolaa taikinaan', '1 tl suolaa täytteeseen')")
                        }
                    }
                    rules.checkBodyText(recipe.method, .method, ref)
                    rules.checkPictures(recipe.images, ref)
                    rules.checkUsesProduct(recipe, ref)
                }
                let ingredients = recipes[index].ingredients
                for line in ingredients.indices {
                    if let product = ingredients[line].product {
                        checkReference(.product(product), .ingredient(line), ref, element: "ingredient")
                    }
                }
                checkLinks(recipes[index].method, .method, ref)
            }
        }
    }

    mutating func checkRetailers() {
        checkSomeRetailer()
        let retailers = catalog.retailers
        checkUnique(retailers.map(\.id.rawValue), kind: .retailer)
        checkPositions(retailers.map { ($0.id.rawValue, $0.position) }, kind: .retailer)
        retailers.withUnsafeBufferPointer { retailers in
            for index in retailers.indices {
                let ref = EntityReference(.retailer, retailers[index].id.rawValue)
                // Everything below reports at this entity alone.
                guard wanted(ref) else { continue }
                own(ref, retailers[index]) { rules in
                    let retailer = retailers[index]
                    rules.requireTexts(of: retailer, ref)
                    rules.checkSellsOwn(retailer, ref)
                }
                let sells = retailers[index].sells
                for line in sells.indices {
                    checkReference(.product(sells[line]), .sells(line), ref, element: "sells")
                }
            }
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
        requireTexts(of: catalog.company, company)
        checkBody(catalog.company.body, .body, company)
        checkPictures(catalog.company.images, company)
    }
}
