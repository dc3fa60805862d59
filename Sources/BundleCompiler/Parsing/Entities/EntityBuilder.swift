import CatalogContent
import CatalogModel

/// Turns a schema-valid document into a model entity. The schema has already fixed the
/// structure; this reads values, normalises whitespace, and finds what the schema cannot say
/// (a link with no target or two). One concern, an entity from its elements, at some 300
/// lines; its texts' translations are read in `EntityBuilder+Translations.swift`.
struct EntityBuilder<Element: ContentElement> {
    /// Something the schema cannot say, at the element it is about; the caller, which knows
    /// where elements start, makes it a diagnostic.
    struct ElementDiagnostic {
        var element: Element
        var entity: EntityReference
        var code: DiagnosticCode
        var message: String
    }

    let file: ContentFile
    let root: Element
    /// When set, the element of every field is recorded here.
    var fieldElements: [FieldElementKey: Element]?
    /// For a form (`EntityFileReading`): a promotion whose days cannot be read (`2027-02-30`,
    /// or none) is kept, each such day as 1 January 1970, which the form does not show (it
    /// shows the day as written, `EntityFileReading.writtenDays`); else it is left out, its
    /// problem reported.
    var keepsUnreadableDays = false
    var problems: [ElementDiagnostic] = []

    init(file: ContentFile, root: Element, recordFieldElements: Bool = false) {
        self.file = file
        self.root = root
        self.fieldElements = recordFieldElements ? [:] : nil
    }

    mutating func build() -> ParsedEntity? {
        switch file.kind {
        case .catalog: return catalog().map(ParsedEntity.catalog)
        case .home: return .home(home())
        case .company: return .company(company())
        case .product: return .product(product())
        case .recipe: return .recipe(recipe())
        case .retailer: return .retailer(retailer())
        }
    }

    // MARK: Files

    private mutating func catalog() -> CatalogHeader? {
        let entity = EntityReference(.catalog)
        recordElement(root, entity, nil)
        let brand = text(root, .brand, entity)
        let release = fieldElement(root, .release, entity)
        var sections: [Section] = []
        if let list = fieldElement(root, .sections, entity) {
            for (index, element) in list.children.enumerated() {
                guard let id = element.attribute("id").flatMap(SectionKind.init(rawValue:)) else { continue }
                let sectionEntity = EntityReference(.section, id.rawValue)
                // The section's place in the list is a field of the section, as the rules name
                // it (a section listed twice is `duplicate-id` there).
                recordElement(element, sectionEntity, .section(index))
                recordElement(element, sectionEntity, nil)
                var translations = Translations()
                var section = Section(
                    id: id, title: text(element, .title, sectionEntity, &translations), icon: image(element, .icon, sectionEntity))
                section.translations = translations
                sections.append(section)
            }
        }
        guard let release, let date = value(release, "date", entity, as: Day.init) else { return nil }
        // The schema's ByteSize pattern has admitted only what BundleBudget reads.
        let budget = root.child("budget").flatMap { $0.attribute("bundle") }.flatMap { BundleBudget(collapsingWhitespace($0)) }
        return CatalogHeader(brand: brand, releaseVersion: release.attribute("version") ?? "", releaseDate: date, sections: sections,
                             languages: languages(entity), budget: budget)
    }

    private mutating func home() -> Home {
        let entity = EntityReference(.home)
        recordElement(root, entity, nil)
        var promotions: [Promotion] = []
        for element in children(root, "promotions") {
            let id = element.attribute("id") ?? ""
            let promotionEntity = EntityReference(.promotion, id)
            recordElement(element, promotionEntity, nil)
            let firstDay = value(element, "first-day", promotionEntity, as: Day.init)
            let lastDay = value(element, "last-day", promotionEntity, as: Day.init)
            guard let first = firstDay ?? (keepsUnreadableDays ? Self.unreadableDay : nil),
                  let last = lastDay ?? (keepsUnreadableDays ? Self.unreadableDay : nil)
            else { continue }
            // By its place in the list too: two promotions may be given one id.
            recordElement(element, promotionEntity, .promotion(promotions.count))
            var translations = Translations()
            var promotion = Promotion(
                id: PromotionID(id), title: text(element, .title, promotionEntity, &translations),
                text: text(element, .text, promotionEntity, &translations),
                image: image(element, .image, promotionEntity, &translations), firstDay: first, lastDay: last,
                link: fieldElement(element, .link, promotionEntity).flatMap { linkTarget($0, promotionEntity, .link) })
            promotion.translations = translations
            promotions.append(promotion)
        }
        var translations = Translations()
        var home = Home(
            logo: image(root, .logo, entity), image: image(root, .image, entity, &translations),
            body: richText(root, .body, entity, &translations), promotions: promotions)
        home.translations = translations
        return home
    }

    private mutating func company() -> Company {
        let entity = EntityReference(.company)
        recordElement(root, entity, nil)
        var translations = Translations()
        var company = Company(
            name: text(root, .name, entity, &translations), logo: image(root, .logo, entity), body: richText(root, .body, entity, &translations),
            images: pictures(entity, &translations), webAddress: text(root, .web, entity))
        company.translations = translations
        return company
    }

    private mutating func product() -> Product {
        let entity = file.entity
        recordElement(root, entity, nil)
        var translations = Translations()
        var product = Product(
            id: ProductID(file.id), name: text(root, .name, entity, &translations), icon: image(root, .icon, entity),
            summary: text(root, .summary, entity, &translations), body: richText(root, .body, entity, &translations),
            images: pictures(entity, &translations), position: position(entity))
        product.translations = translations
        return product
    }

    private mutating func recipe() -> Recipe {
        let entity = file.entity
        recordElement(root, entity, nil)
        var translations = Translations()
        let name = text(root, .name, entity, &translations)
        let summary = text(root, .summary, entity, &translations)
        // A line's translations follow it, each an <ingredient xml:lang="…"> of text alone.
        var ingredients: [Ingredient] = []
        for element in children(root, "ingredients") {
            guard let language = element.language else {
                recordElement(element, entity, .ingredient(ingredients.count))
                ingredients.append(Ingredient(text: checked(element.text, element, entity, "ingredient"),
                                              product: element.attribute("product").map { ProductID($0) }))
                continue
            }
            guard !ingredients.isEmpty else {
                orphan(element, entity, "ingredient", language, after: "the Finnish line it translates")
                continue
            }
            if element.attribute("product") != nil {
                problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationNotText,
                    message: "a translated ingredient names no product: the line it translates does; remove product=\"…\" here"))
            }
            let field = FieldPath.ingredient(ingredients.count - 1)
            translate(.text(checked(element.text, element, entity, "ingredient")), element, field, LanguageCode(language), entity, &translations)
        }
        var recipe = Recipe(
            id: RecipeID(file.id), name: name, icon: image(root, .icon, entity),
            summary: summary, ingredients: ingredients, method: richText(root, .method, entity, &translations),
            images: pictures(entity, &translations), position: position(entity))
        recipe.translations = translations
        return recipe
    }

    private mutating func retailer() -> Retailer {
        let entity = file.entity
        recordElement(root, entity, nil)
        var sells: [ProductID] = []
        var coordinate: Coordinate?
        for element in root.children {
            if element.isNamed("sells"), let product = element.attribute("product") {
                recordElement(element, entity, .sells(sells.count))
                sells.append(ProductID(product))
            } else if element.isNamed("location"), let latitude = value(element, "latitude", entity, as: Double.init),
                let longitude = value(element, "longitude", entity, as: Double.init)
            {
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            }
        }
        var translations = Translations()
        var retailer = Retailer(
            id: RetailerID(file.id), name: text(root, .name, entity), logo: image(root, .logo, entity),
            address: text(root, .address, entity), phone: text(root, .phone, entity),
            openingHours: text(root, .hours, entity, &translations), otherInfo: optionalText(root, .info, entity, &translations),
            webAddress: optionalText(root, .web, entity), coordinate: coordinate, sells: sells, position: position(entity))
        retailer.translations = translations
        return retailer
    }

    // MARK: Fields

    /// The child elements of `parent`'s child `name`; none if there is no such child.
    private func children(_ parent: Element, _ name: StaticString) -> [Element] {
        parent.child(name).map { Array($0.children) } ?? []
    }

    /// The first element wins: two promotions with one id are one entity to a problem placed by
    /// its entity, and the rules judge the first of them (the second is `duplicate-id`, placed by
    /// its place in the list), so a problem with the first must not move to the second.
    mutating func recordElement(_ element: Element, _ entity: EntityReference, _ field: FieldPath?, _ language: LanguageCode? = nil) {
        let key = FieldElementKey(entity: entity, field: field, language: language)
        if fieldElements?[key] == nil { fieldElements?[key] = element }
    }

    /// `parent`'s child element that holds `field`, found by the field's element name and
    /// recorded as where the field is.
    mutating func fieldElement(_ parent: Element, _ field: FieldPath, _ entity: EntityReference) -> Element? {
        guard let name = field.elementName, let element = parent.child(name) else { return nil }
        recordElement(element, entity, field)
        return element
    }

    private mutating func text(_ parent: Element, _ field: FieldPath, _ entity: EntityReference) -> String {
        optionalText(parent, field, entity) ?? ""
    }

    private mutating func optionalText(_ parent: Element, _ field: FieldPath, _ entity: EntityReference) -> String? {
        guard let element = fieldElement(parent, field, entity) else { return nil }
        return checked(element.text, element, entity, field.name)
    }

    private mutating func image(_ parent: Element, _ field: FieldPath, _ entity: EntityReference) -> ImageReference {
        guard let element = fieldElement(parent, field, entity) else { return ImageReference(source: "") }
        return ImageReference(source: element.attribute("src") ?? "", alt: alt(element, entity))
    }

    mutating func alt(_ element: Element, _ entity: EntityReference) -> String? {
        element.attribute("alt").map { checked(collapsingWhitespace($0), element, entity, "alt") }
    }

    /// `text`, after a look for a longer run of combining marks than stream-safe text allows,
    /// written so that the file's bytes did not show it (as character references, or across
    /// CDATA sections): such a text was not normalized, and any comparison of it takes time
    /// growing with the square of the run (Swift compares strings canonically), so its file
    /// is refused here, before the catalogue rules compare names.
    mutating func checked(_ text: String, _ element: Element, _ entity: EntityReference, _ name: String) -> String {
        if let excess = StreamSafeText.excess(in: text) { refuseMarks(excess, element, entity, name) }
        return text
    }

    mutating func refuseMarks(_ excess: StreamSafeText.Excess, _ element: Element, _ entity: EntityReference, _ name: String) {
        problems.append(ElementDiagnostic(element: element, entity: entity, code: .combiningMarks,
                                          message: FileLoader.combiningMarksMessage(excess, subject: "\(name) holds a character carrying")))
    }

    /// The entity's `position`, an attribute of its root element, which is where the field is.
    /// The day a promotion is given for one that cannot be read (`keepsUnreadableDays`).
    static var unreadableDay: Day { Day(year: 1970, month: 1, day: 1)! }

    private mutating func position(_ entity: EntityReference) -> Int? {
        recordElement(root, entity, .position)
        return value(root, "position", entity) { Int($0) }
    }

    /// An attribute of one of the schema's whitespace-collapsing types (`Day`, `Position`,
    /// `Latitude`, `Longitude`: xs:date, xs:positiveInteger, xs:decimal), read as the schema
    /// reads it, without the whitespace around it: `date=" 2026-11-22 "` is valid and means
    /// 2026-11-22. Before, such a value passed the schema and was then silently dropped (a
    /// promotion, a coordinate, a position) or failed the build with no diagnostic. A value
    /// the schema accepts and this still cannot read is reported, never dropped.
    private mutating func value<Value>(_ element: Element, _ name: StaticString, _ entity: EntityReference,
                                       as read: (String) -> Value?) -> Value? {
        guard let raw = element.attribute(name) else { return nil }
        if let value = read(collapsingWhitespace(raw)) { return value }
        problems.append(ElementDiagnostic(element: element, entity: entity, code: .schemaInvalid,
                                message: "\(name)=\"\(raw)\" cannot be read; write a day as YYYY-MM-DD, a position as a whole number from 1, a coordinate as a decimal number"))
        return nil
    }

    /// The target of a `<link>`: exactly one of `product` or `recipe`.
    mutating func linkTarget(_ element: Element, _ entity: EntityReference, _ field: FieldPath,
                                     _ language: LanguageCode? = nil) -> LinkTarget? {
        recordElement(element, entity, field, language)
        switch (element.attribute("product"), element.attribute("recipe")) {
        case (let product?, nil): return .product(ProductID(product))
        case (nil, let recipe?): return .recipe(RecipeID(recipe))
        case (_?, _?):
            problems.append(ElementDiagnostic(element: element, entity: entity, code: .linkTarget,
                                    message: "link names both a product and a recipe; keep one of product=\"…\" and recipe=\"…\""))
        case (nil, nil):
            problems.append(ElementDiagnostic(element: element, entity: entity, code: .linkTarget,
                                    message: "link names no target; add product=\"<id>\" or recipe=\"<id>\""))
        }
        return nil
    }
}
