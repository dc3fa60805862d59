import Foundation

extension Catalog {
    /// Checks every rule that concerns the catalogue as a whole: required fields and their
    /// lengths, references between entities, the 1..* relations, duplicate ids, names, texts
    /// and positions, and promotions. Returns every problem found, errors and warnings, in a
    /// stable order; an empty array means the catalogue is valid. Synchronous; it uses a second
    /// thread for part of the work while the calling one does the rest.
    ///
    /// - Parameters:
    ///   - today: the day to judge promotions against; a promotion whose last day is before it
    ///     gets a `promotion-ended` warning. Nil skips that check.
    ///   - unloaded: entities that exist but could not be loaded (their files have errors of
    ///     their own). References to them are not reported as unknown, a kind with unloaded
    ///     entities is not reported empty, and while a recipe is unloaded no product is reported
    ///     unused, since that recipe may use it. A reference with an empty id, such as
    ///     `EntityReference(.product)`, stands for a whole kind that could not be read (its
    ///     folder was refused): no reference to that kind is judged, since any id may exist.
    package func validate(today: Day? = nil, unloaded: Set<EntityReference> = []) -> [CatalogIssue] {
        let rules = CatalogRules(catalog: self, unloaded: unloaded)
        // The duplicate-text check, about half the work, runs on a second core beside the
        // rest; its issues still come last.
        let parts = IssueParts()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var rules = rules
            if part == 0 {
                rules.checkCatalog()
                rules.checkProducts()
                rules.checkRecipes()
                rules.checkRetailers()
                rules.checkHome(today: today)
                rules.checkCompany()
                rules.checkDuplicateNames()
            } else {
                rules.checkDuplicateTexts()
            }
            parts.set(part, rules.issues)
        }
        return parts.joined
    }
}

/// The issues each part of `validate` found, handed back from the threads that ran them.
private final class IssueParts: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[CatalogIssue]] = [[], []]  // guarded by `lock`

    func set(_ part: Int, _ issues: [CatalogIssue]) {
        lock.withLock { parts[part] = issues }
    }

    var joined: [CatalogIssue] { lock.withLock { parts.flatMap { $0 } } }
}

/// The rules behind `Catalog.validate`, one method per part of the catalogue.
struct CatalogRules {
    let catalog: Catalog
    /// The ids references may name: the loaded entities and the unloaded ones.
    let productIDs: Set<ProductID>
    let recipeIDs: Set<RecipeID>
    /// Kinds with at least one unloaded entity.
    let unloadedKinds: Set<EntityReference.Kind>
    /// Kinds none of whose entities could be read: every id of theirs is unknown, not wrong.
    let unreadKinds: Set<EntityReference.Kind>
    var issues: [CatalogIssue] = []

    init(catalog: Catalog, unloaded: Set<EntityReference>) {
        self.catalog = catalog
        unloadedKinds = Set(unloaded.map(\.kind))
        unreadKinds = Set(unloaded.filter(\.id.isEmpty).map(\.kind))
        let unloadedIDs = unloaded.filter { !$0.id.isEmpty }
        productIDs = Set(catalog.products.map(\.id) + unloadedIDs.filter { $0.kind == .product }.map { ProductID($0.id) })
        recipeIDs = Set(catalog.recipes.map(\.id) + unloadedIDs.filter { $0.kind == .recipe }.map { RecipeID($0.id) })
    }

    mutating func report(
        _ code: CatalogIssue.Code, _ entity: EntityReference, _ field: FieldPath?, _ message: String,
        severity: Severity = .error
    ) {
        issues.append(CatalogIssue(severity: severity, code: code, entity: entity, field: field, message: message))
    }

    // MARK: Parts

    mutating func checkCatalog() {
        let entity = EntityReference(.catalog)
        requireText(catalog.brand, "brand", entity, limit: FieldLimits.name, code: .nameTooLong, what: "the brand name")
        requireText(catalog.releaseVersion, "release", entity, what: "the release version")
        var seen = Set<SectionKind>()
        for (index, section) in catalog.sections.enumerated() {
            let ref = EntityReference(.section, section.id.rawValue)
            if !seen.insert(section.id).inserted {
                report(.duplicateID, ref, FieldPath("section", index),
                       "section '\(section.id.rawValue)' is listed twice; list each tab section once")
            }
            requireText(section.title, "title", ref, limit: FieldLimits.title, code: .titleTooLong, what: "the tab title")
        }
        for kind in SectionKind.allCases where !seen.contains(kind) {
            report(.sectionMissing, entity, FieldPath("sections"),
                   "section '\(kind.rawValue)' is missing; the app has five tabs: home, products, recipes, retailers, company")
        }
    }

    mutating func checkProducts() {
        if productIDs.isEmpty && !unreadKinds.contains(.product) {
            report(.noProducts, EntityReference(.product), nil, "there are no products; add at least one file products/<id>.xml")
        }
        checkUnique(catalog.products.map(\.id.rawValue), kind: .product)
        checkPositions(catalog.products.map { ($0.id.rawValue, $0.position) }, kind: .product)
        var used = Set(catalog.recipes.flatMap(\.productIDs))
        // The product a mistyped ingredient most likely meant is not also told to be unused:
        // the ingredient's unknown-product error names it, and correcting the id uses it.
        if !unreadKinds.contains(.product) {
            let candidates = productIDs.map(\.rawValue)
            for id in used where !productIDs.contains(id) {
                if let meant = Self.nearest(to: id.rawValue, among: candidates) { used.insert(ProductID(meant)) }
            }
        }
        for product in catalog.products {
            let ref = EntityReference(.product, product.id.rawValue)
            requireText(product.name, "name", ref, limit: FieldLimits.name, code: .nameTooLong, what: "the product's name")
            requireText(product.summary, "summary", ref, limit: FieldLimits.summary, code: .summaryTooLong,
                        what: "the short description shown in the product list")
            checkBody(product.body, "body", ref)
            checkPictures(product.images, ref)
            if !used.contains(product.id) && !unloadedKinds.contains(.recipe) {
                report(.productUnused, ref, nil,
                       "product '\(product.id)' is not used by any recipe; every product needs at least one: add <ingredient product=\"\(product.id)\"> to a recipe that uses it")
            }
        }
    }

    mutating func checkRecipes() {
        if recipeIDs.isEmpty && !unreadKinds.contains(.recipe) {
            report(.noRecipes, EntityReference(.recipe), nil, "there are no recipes; add at least one file recipes/<id>.xml")
        }
        checkUnique(catalog.recipes.map(\.id.rawValue), kind: .recipe)
        checkPositions(catalog.recipes.map { ($0.id.rawValue, $0.position) }, kind: .recipe)
        for recipe in catalog.recipes {
            let ref = EntityReference(.recipe, recipe.id.rawValue)
            requireText(recipe.name, "name", ref, limit: FieldLimits.name, code: .nameTooLong, what: "the recipe's name")
            requireText(recipe.summary, "summary", ref, limit: FieldLimits.summary, code: .summaryTooLong,
                        what: "the short description shown in the recipe list")
            for (index, ingredient) in recipe.ingredients.enumerated() {
                let field = FieldPath("ingredient", index)
                requireText(ingredient.text, field, ref, what: "the ingredient line")
                if let product = ingredient.product {
                    checkReference(.product(product), field, ref, element: "ingredient")
                }
            }
            checkBody(recipe.method, "method", ref)
            checkPictures(recipe.images, ref)
            // An ingredient naming an unknown product is reported as such, not again here.
            if !recipe.ingredients.contains(where: { $0.product != nil }) {
                report(.recipeWithoutProduct, ref, nil,
                       "recipe '\(recipe.id)' uses no Café Digno product; every recipe needs at least one: mark the ingredient that is one with product=\"<id>\"")
            }
        }
    }

    mutating func checkRetailers() {
        if catalog.retailers.isEmpty && !unloadedKinds.contains(.retailer) {
            report(.noRetailers, EntityReference(.retailer), nil, "there are no retailers; add at least one file retailers/<id>.xml")
        }
        checkUnique(catalog.retailers.map(\.id.rawValue), kind: .retailer)
        checkPositions(catalog.retailers.map { ($0.id.rawValue, $0.position) }, kind: .retailer)
        for retailer in catalog.retailers {
            let ref = EntityReference(.retailer, retailer.id.rawValue)
            requireText(retailer.name, "name", ref, limit: FieldLimits.name, code: .nameTooLong, what: "the retailer's name")
            requireText(retailer.address, "address", ref, limit: FieldLimits.address, code: .addressTooLong, what: "the street address")
            requireText(retailer.phone, "phone", ref, limit: FieldLimits.phone, code: .phoneTooLong, what: "the phone number")
            requireText(retailer.openingHours, "hours", ref, limit: FieldLimits.openingHours, code: .hoursTooLong,
                        what: "the opening hours")
            if let info = retailer.otherInfo {
                requireText(info, "info", ref, what: "the other information, or remove the element")
            }
            var sold = Set<ProductID>()
            for (index, product) in retailer.sells.enumerated() {
                let field = FieldPath("sells", index)
                checkReference(.product(product), field, ref, element: "sells")
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

    mutating func checkHome(today: Day?) {
        let home = EntityReference(.home)
        checkPicture(catalog.home.image, FieldPath("image"), home)
        checkBody(catalog.home.body, "body", home)
        checkPromotionIDs()
        for promotion in catalog.home.promotions {
            let ref = EntityReference(.promotion, promotion.id.rawValue)
            requireText(promotion.title, "title", ref, limit: FieldLimits.title, code: .titleTooLong, what: "the promotion's headline")
            requireText(promotion.text, "text", ref, limit: FieldLimits.promotionText, code: .textTooLong, what: "the promotion's text")
            checkPicture(promotion.image, FieldPath("image"), ref)
            if let link = promotion.link {
                checkReference(link, FieldPath("link"), ref, element: "link")
            }
            if promotion.firstDay > promotion.lastDay {
                report(.promotionDates, ref, nil,
                       "first-day \(promotion.firstDay) is after last-day \(promotion.lastDay); correct one of them")
            } else if let today, promotion.lastDay < today {
                report(.promotionEnded, ref, nil,
                       "promotion '\(promotion.id)' ended on \(promotion.lastDay); remove it or move its last-day", severity: .warning)
            }
        }
    }

    mutating func checkCompany() {
        let company = EntityReference(.company)
        requireText(catalog.company.name, "name", company, limit: FieldLimits.name, code: .nameTooLong, what: "the company's name")
        requireText(catalog.company.webAddress, "web", company, what: "the company's web address")
        checkBody(catalog.company.body, "body", company)
        checkPictures(catalog.company.images, company)
    }

    /// Two entities with the same text are almost always a copy-and-paste slip. Each text is
    /// kept only as a hash of its collapsed bytes; texts whose hashes meet are compared in
    /// full, so a hash collision never reports a false duplicate. (Keeping every text as a
    /// dictionary key cost 40 MB and a second at 100,000 entities.)
    mutating func checkDuplicateTexts() {
        let productCount = catalog.products.count
        // Entity `index` is product `index`, or recipe `index - productCount`.
        func text(_ index: Int) -> RichText {
            index < productCount ? catalog.products[index].body : catalog.recipes[index - productCount].method
        }
        func entity(_ index: Int) -> EntityReference {
            index < productCount ? EntityReference(.product, catalog.products[index].id.rawValue)
                : EntityReference(.recipe, catalog.recipes[index - productCount].id.rawValue)
        }
        var firstByHash: [Int: [Int]] = [:]  // hash of collapsed text → indices of first holders
        var collapsed = Self.CollapsedText()
        var other = Self.CollapsedText()
        for index in 0..<(productCount + catalog.recipes.count) {
            collapsed.set(text(index).plainText)
            guard !collapsed.isEmpty else { continue }
            let hash = collapsed.hashValue
            let original = firstByHash[hash]?.first { candidate in
                other.set(text(candidate).plainText)
                return other == collapsed
            }
            if let original {
                let field = index < productCount ? "body" : "method"
                let current = entity(index)
                report(.duplicateText, current, FieldPath(field),
                       "\(field) is the same text as in \(entity(original)); write this \(current.kind.rawValue)'s own text",
                       severity: .warning)
            } else {
                firstByHash[hash, default: []].append(index)
            }
        }
    }

    // MARK: Shared checks

    mutating func requireText(
        _ text: String, _ field: String, _ entity: EntityReference, limit: Int? = nil,
        code: CatalogIssue.Code = .emptyField, what: String
    ) {
        requireText(text, FieldPath(field), entity, limit: limit, code: code, what: what)
    }

    mutating func requireText(
        _ text: String, _ field: FieldPath, _ entity: EntityReference, limit: Int? = nil,
        code: CatalogIssue.Code = .emptyField, what: String
    ) {
        if text.showsNothing {
            report(.emptyField, entity, field, "\(field.name) is empty; write \(what)")
            return
        }
        if let limit, text.utf8.count > limit, text.count > limit {  // no character is shorter than a byte
            report(code, entity, field, "\(field.name) is \(text.count) characters; the limit is \(limit)")
        }
        if let control = text.unwantedControl {
            report(.controlCharacter, entity, field, "\(field.name) holds \(control.unwantedControlAdvice)")
        }
    }

    mutating func checkPictures(_ images: [ImageReference], _ entity: EntityReference) {
        if !FieldLimits.pictures.contains(images.count) {
            report(.imageCount, entity, FieldPath("images"),
                   "\(entity) has \(images.count) pictures; give it \(FieldLimits.pictures.lowerBound) or \(FieldLimits.pictures.upperBound)")
        }
        for (index, image) in images.enumerated() {
            checkPicture(image, FieldPath("image", index), entity)
        }
    }

    mutating func checkPicture(_ image: ImageReference, _ field: FieldPath, _ entity: EntityReference) {
        guard let alt = image.alt else { return }
        if alt.showsNothing {
            report(.emptyField, entity, field, "alt is empty; describe the picture for people who cannot see it")
            return
        }
        if alt.utf8.count > FieldLimits.alt, alt.count > FieldLimits.alt {
            report(.altTooLong, entity, field, "alt is \(alt.count) characters; the limit is \(FieldLimits.alt)")
        }
        if let control = alt.unwantedControl {
            report(.controlCharacter, entity, field, "alt holds \(control.unwantedControlAdvice)")
        }
    }

    mutating func checkBody(_ text: RichText, _ field: String, _ entity: EntityReference) {
        let links = text.links
        var blank = Set<RichText.BlankPart>()
        if text.isBlank {
            report(.emptyField, entity, FieldPath(field), "\(field) is empty; write the text")
        } else {
            let blankParts = text.blankParts
            blank = Set(blankParts)
            for part in blankParts {
                let path = FieldPath("\(field).\(part.element)", part.index)
                switch part.kind {
                case .paragraph:
                    report(.emptyBlock, entity, path, "\(field) has an empty paragraph; write its text or remove it")
                case .heading:
                    report(.emptyBlock, entity, path, "\(field) has an empty heading; write its text or remove it")
                case .listItem:
                    report(.emptyBlock, entity, path, "\(field) has an empty list item; write its text or remove it")
                case .link:
                    let target = switch links[part.index] {
                    case .product(let id): "product '\(id)'"
                    case .recipe(let id): "recipe '\(id)'"
                    }
                    report(.emptyLink, entity, path, "link to \(target) has no text to tap; write the words that open it between <link> and </link>")
                }
            }
        }
        // A part already reported empty is not reported again for what makes it so.
        for (part, control) in text.isBlank ? [] : text.partsWithUnwantedControls where !blank.contains(part) {
            report(.controlCharacter, entity, FieldPath("\(field).\(part.element)", part.index), "\(field) holds \(control.unwantedControlAdvice(inBlock: part.element))")
        }
        for (index, link) in links.enumerated() {
            checkReference(link, FieldPath("\(field).link", index), entity, element: "link")
        }
    }

    mutating func checkReference(_ target: LinkTarget, _ field: FieldPath, _ entity: EntityReference, element: String) {
        switch target {
        case .product(let id) where !productIDs.contains(id) && !unreadKinds.contains(.product):
            report(.unknownProduct, entity, field,
                   "\(element) names product '\(id)', which does not exist; use the id of a file in products/"
                       + Self.suggestion(for: id.rawValue, among: productIDs.map(\.rawValue)))
        case .recipe(let id) where !recipeIDs.contains(id) && !unreadKinds.contains(.recipe):
            report(.unknownRecipe, entity, field,
                   "\(element) names recipe '\(id)', which does not exist; use the id of a file in recipes/"
                       + Self.suggestion(for: id.rawValue, among: recipeIDs.map(\.rawValue)))
        default:
            break
        }
    }

    mutating func checkUnique(_ ids: [String], kind: EntityReference.Kind) {
        var seen = Set<String>()
        for id in ids where !seen.insert(id).inserted {
            report(.duplicateID, EntityReference(kind, id), nil, "\(kind.rawValue) id '\(id)' is used twice; ids must be unique")
        }
    }

    mutating func checkPositions(_ entries: [(id: String, position: Int?)], kind: EntityReference.Kind) {
        var holder: [Int: String] = [:]
        for entry in entries {
            guard let position = entry.position else { continue }
            if let other = holder[position] {
                report(.duplicatePosition, EntityReference(kind, entry.id), FieldPath("position"),
                       "position \(position) is also given to \(kind.rawValue) '\(other)'; give each a different position")
            } else {
                holder[position] = entry.id
            }
        }
    }

    /// A text's UTF-8 bytes with runs of ASCII whitespace made one space and none at the
    /// ends, so texts that differ only in line breaks and indentation compare equal. Bytes, not
    /// a `String`: it runs over every text of a catalogue, and hashing bytes skips Unicode
    /// normalisation. ASCII bytes never occur inside other characters. The buffer is reused
    /// from text to text and written through a pointer: appending byte by byte checked the
    /// array's capacity and uniqueness on every byte.
    struct CollapsedText: Hashable {
        private var buffer: [UInt8] = []
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        mutating func set(_ text: String) {
            var text = text
            let needed = text.utf8.count
            if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
            count = text.withUTF8 { source in
                buffer.withUnsafeMutableBufferPointer { output in
                    var written = 0
                    var pendingSpace = false
                    for byte in source {
                        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                            pendingSpace = written > 0
                        } else {
                            if pendingSpace {
                                output[written] = 0x20
                                written += 1
                            }
                            pendingSpace = false
                            output[written] = byte
                            written += 1
                        }
                    }
                    return written
                }
            }
        }

        /// The collapsed bytes.
        var bytes: ArraySlice<UInt8> { buffer[0..<count] }

        static func == (a: Self, b: Self) -> Bool { a.bytes == b.bytes }

        func hash(into hasher: inout Hasher) {
            buffer.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// ` (did you mean 'espresso'?)` when one id is close to the unknown one.
    static func suggestion(for unknown: String, among candidates: [String]) -> String {
        nearest(to: unknown, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The id nearest to an unknown one, if one is close enough to be what was meant; of
    /// equally near ones, the first in code-point order, whatever the candidates' order.
    static func nearest(to unknown: String, among candidates: [String]) -> String? {
        let typed = Array(unknown)
        let limit = max(2, typed.count / 4)
        return candidates
            .compactMap { id in editDistance(typed, Array(id), limit: limit).map { (id: id, distance: $0) } }
            .min { ($0.distance, $0.id) < ($1.distance, $1.id) }?.id
    }
}
