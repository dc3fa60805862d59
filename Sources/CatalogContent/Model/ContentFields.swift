import CatalogModel

// The one description of each kind's fields: which element of its content file each is, how the
// entity holds it, its limit, and whether it is written in every declared language. The walks
// over every text (`Catalog+Languages.swift`: a reader's language, the default texts, the
// fields to translate; the translators' units; the coverage and the missing translations) and
// the rules on required texts (`CatalogRules.requireTexts(of:_:)`) read it; a bundle's side of a translated field, its column and `translations.field`, is
// `TranslatedColumn` in CatalogModel (`FieldPath.translatedColumn`). A field added to the XSD
// and not here, or here and not in the XSD, fails `ContentFieldsTests`.

/// One field of a kind of entity, as its content file writes it.
package struct ContentField<Entity>: Sendable {
    /// Its element in the entity's element (`summary`, `ingredients`), or its attribute
    /// (`@position`).
    package let element: String
    /// How the entity holds its text, for a field a reader sees as text; nil for the others
    /// (a picture's file, a link, a position).
    package let text: FieldText<Entity>?
    /// The most characters its text may have, if it has a limit.
    package let limit: Int?
    /// Whether it is written in each declared language (its element repeats with `xml:lang`).
    package let isTranslatable: Bool
    /// For a plain text that must not be empty, what a message asks the editor to write
    /// (`the product's name`): the rules check it (`CatalogRules.requireTexts(of:_:)`).
    package let required: String?
    /// The field diagnostics name it by: its element's (`name`), for a list its first item's
    /// (`picture(0)`, `ingredient(0)`), for an attribute its own (`position`).
    package let path: FieldPath?

    /// A field a reader sees as text.
    static func text(_ element: String, _ path: FieldPath, _ text: FieldText<Entity>, limit: Int? = nil, translatable: Bool = true,
                     required: String? = nil) -> Self {
        Self(element: element, text: text, limit: limit, isTranslatable: translatable, required: required, path: path)
    }

    /// A field that is not text to read: a picture's file, a link, a list of references, an
    /// attribute.
    static func other(_ element: String, _ path: FieldPath? = nil) -> Self {
        Self(element: element, text: nil, limit: nil, isTranslatable: false, required: nil, path: path)
    }
}

/// An entity described by its kind's fields.
package protocol ContentEntity: Sendable {
    /// The kind's fields in the order its content file writes them.
    static var fields: [ContentField<Self>] { get }
    var translations: Translations { get set }
}

extension ContentEntity {
    /// Its translatable texts in the default language, in the order its file writes them (a
    /// retailer's other information only when it has one).
    package var translatableTexts: [EntityText] {
        var texts: [EntityText] = []
        for field in Self.fields where field.isTranslatable {
            guard let text = field.text, let path = field.path else { continue }
            switch text {
            case .plain(let keyPath):
                texts.append(EntityText(path: path, value: .text(self[keyPath: keyPath]), limit: field.limit))
            case .optional(let keyPath):
                if let value = self[keyPath: keyPath] { texts.append(EntityText(path: path, value: .text(value), limit: field.limit)) }
            case .rich(let keyPath):
                texts.append(EntityText(path: path, value: .richText(self[keyPath: keyPath]), limit: field.limit))
            case .alt(let keyPath):
                texts.append(EntityText(path: .image, value: .text(self[keyPath: keyPath].alt ?? ""), limit: field.limit, picture: self[keyPath: keyPath]))
            case .alts(let keyPath):
                for (index, picture) in self[keyPath: keyPath].enumerated() {
                    texts.append(EntityText(path: .picture(index), value: .text(picture.alt ?? ""), limit: field.limit, picture: picture))
                }
            case .lines(let keyPath):
                for (index, line) in self[keyPath: keyPath].enumerated() {
                    texts.append(EntityText(path: .ingredient(index), value: .text(line.text), limit: field.limit, line: line))
                }
            }
        }
        return texts
    }

    /// The fields of `translatableTexts`, cheaper: no text is made.
    package var translatableFields: [FieldPath] {
        var paths: [FieldPath] = []
        for field in Self.fields where field.isTranslatable {
            guard let text = field.text, let path = field.path else { continue }
            switch text {
            case .plain, .rich: paths.append(path)
            case .optional(let keyPath): if self[keyPath: keyPath] != nil { paths.append(path) }
            case .alt: paths.append(.image)
            case .alts(let keyPath): paths += self[keyPath: keyPath].indices.map { .picture($0) }
            case .lines(let keyPath): paths += self[keyPath: keyPath].indices.map { .ingredient($0) }
            }
        }
        return paths
    }

    /// The entity as a reader of `chain`'s first language sees it: each translatable text in
    /// the first language of the chain that has it, else as it is. (A home's promotions are
    /// entities of their own.)
    package func translated(along chain: [LanguageCode]) -> Self {
        guard !translations.isEmpty else { return self }
        var copy = self
        for field in Self.fields where field.isTranslatable {
            guard let text = field.text, let path = field.path else { continue }
            switch text {
            case .plain(let keyPath): copy[keyPath: keyPath] = translations.text(path, self[keyPath: keyPath], along: chain)
            case .optional(let keyPath): copy[keyPath: keyPath] = self[keyPath: keyPath].map { translations.text(path, $0, along: chain) }
            case .rich(let keyPath): copy[keyPath: keyPath] = translations.richText(path, self[keyPath: keyPath], along: chain)
            case .alt(let keyPath): copy[keyPath: keyPath] = translations.picture(.image, self[keyPath: keyPath], along: chain)
            case .alts(let keyPath): copy[keyPath: keyPath] = translations.pictures(self[keyPath: keyPath], along: chain)
            case .lines(let keyPath):
                copy[keyPath: keyPath] = self[keyPath: keyPath].enumerated().map { index, line in
                    Ingredient(text: translations.text(.ingredient(index), line.text, along: chain), product: line.product)
                }
            }
        }
        return copy
    }
}

// MARK: Each kind's fields

extension Section: ContentEntity {
    package static let fields: [ContentField<Section>] = [
        .text("title", .title, .plain(\.title), limit: FieldLimits.title, required: "the tab title"),
        .other("icon", .icon),
        .other("@id"),
    ]
}

extension Home: ContentEntity {
    package static let fields: [ContentField<Home>] = [
        .other("logo", .logo),
        .text("image", .image, .alt(\.image), limit: FieldLimits.alt),
        .text("body", .body, .rich(\.body)),
        .other("promotions"),
    ]
}

extension Promotion: ContentEntity {
    package static let fields: [ContentField<Promotion>] = [
        .text("title", .title, .plain(\.title), limit: FieldLimits.title, required: "the promotion's headline"),
        .text("text", .text, .plain(\.text), limit: FieldLimits.promotionText, required: "the promotion's text"),
        .text("image", .image, .alt(\.image), limit: FieldLimits.alt),
        .other("link", .link),
        .other("@id"),
        .other("@first-day"),
        .other("@last-day"),
    ]
}

extension Company: ContentEntity {
    package static let fields: [ContentField<Company>] = [
        .text("name", .name, .plain(\.name), limit: FieldLimits.name, required: "the company's name"),
        .other("logo", .logo),
        .text("body", .body, .rich(\.body)),
        .text("images", .picture(0), .alts(\.images), limit: FieldLimits.alt),
        .text("web", .web, .plain(\.webAddress), translatable: false, required: "the company's web address"),
    ]
}

extension Product: ContentEntity {
    package static let fields: [ContentField<Product>] = [
        .text("name", .name, .plain(\.name), limit: FieldLimits.name, required: "the product's name"),
        .other("icon", .icon),
        .text("summary", .summary, .plain(\.summary), limit: FieldLimits.summary, required: "the short description shown in the product list"),
        .text("body", .body, .rich(\.body)),
        .text("images", .picture(0), .alts(\.images), limit: FieldLimits.alt),
        .other("@id"),
        .other("@position", .position),
    ]
}

extension Recipe: ContentEntity {
    package static let fields: [ContentField<Recipe>] = [
        .text("name", .name, .plain(\.name), limit: FieldLimits.name, required: "the recipe's name"),
        .other("icon", .icon),
        .text("summary", .summary, .plain(\.summary), limit: FieldLimits.summary, required: "the short description shown in the recipe list"),
        .text("ingredients", .ingredient(0), .lines(\.ingredients)),
        .text("method", .method, .rich(\.method)),
        .text("images", .picture(0), .alts(\.images), limit: FieldLimits.alt),
        .other("@id"),
        .other("@position", .position),
    ]
}

extension Retailer: ContentEntity {
    package static let fields: [ContentField<Retailer>] = [
        .text("name", .name, .plain(\.name), limit: FieldLimits.name, translatable: false, required: "the retailer's name"),
        .other("logo", .logo),
        .text("address", .address, .plain(\.address), limit: FieldLimits.address, translatable: false, required: "the street address"),
        .text("phone", .phone, .plain(\.phone), limit: FieldLimits.phone, translatable: false, required: "the phone number"),
        .text("hours", .hours, .plain(\.openingHours), limit: FieldLimits.openingHours, required: "the opening hours"),
        .text("info", .info, .optional(\.otherInfo), required: "the other information, or remove the element"),
        .text("web", .web, .optional(\.webAddress), translatable: false),
        .other("location"),
        .other("sells", .sells(0)),
        .other("@id"),
        .other("@position", .position),
    ]
}
