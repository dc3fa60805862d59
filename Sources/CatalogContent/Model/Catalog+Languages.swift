import CatalogModel

extension Catalog {
    /// The catalogue as a reader of `language` sees it: each text in the best language of
    /// `language`'s chain that has it (`Languages.chain(for:)`), else in the default. What is
    /// not text is the same in every language.
    package func translated(to language: LanguageCode) -> Catalog {
        translated(to: language, reusing: nil)
    }

    /// `translated(to:)`, taking each entity that is as it was in `previous.source` (at the
    /// same index: a save keeps every other file where it was) as `previous.translated` has it.
    /// The comparison is quick where the entity is the one read before (its texts share their
    /// storage), the translation is not.
    package func translated(to language: LanguageCode, reusing previous: (source: Catalog, translated: Catalog)?) -> Catalog {
        let chain = languages.chain(for: language)
        guard chain.count > 1 else { return self }
        let previous = previous?.source.languages == languages ? previous : nil
        func each<Entity: ContentEntity & Equatable>(_ new: [Entity], _ old: [Entity]?, _ oldTranslated: [Entity]?) -> [Entity] {
            guard let old, let oldTranslated, old.count == oldTranslated.count else { return new.map { $0.translated(along: chain) } }
            // Compared in place in their buffers: an array's subscript copied both entities,
            // which cost more than comparing them.
            return new.withUnsafeBufferPointer { new in
                old.withUnsafeBufferPointer { old in
                    oldTranslated.withUnsafeBufferPointer { oldTranslated in
                        new.indices.map { index in
                            index < old.count && old[index] == new[index] ? oldTranslated[index] : new[index].translated(along: chain)
                        }
                    }
                }
            }
        }
        var copy = self
        copy.sections = each(sections, previous?.source.sections, previous?.translated.sections)
        copy.home = home.translated(along: chain)
        copy.home.promotions = each(home.promotions, previous?.source.home.promotions, previous?.translated.home.promotions)
        copy.company = company.translated(along: chain)
        copy.products = each(products, previous?.source.products, previous?.translated.products)
        copy.recipes = each(recipes, previous?.source.recipes, previous?.translated.recipes)
        copy.retailers = each(retailers, previous?.source.retailers, previous?.translated.retailers)
        return copy
    }

    /// The catalogue in its default language alone, as a bundle of schema 2 holds it: no
    /// translations, one language.
    package var defaultLanguageOnly: Catalog {
        guard languages.declarations.count > 1 || !translationsAreEmpty else { return self }
        var copy = self
        copy.languages = Languages([Languages.Declaration(code: languages.defaultLanguage)])
        for index in copy.sections.indices { copy.sections[index].translations = Translations() }
        copy.home.translations = Translations()
        for index in copy.home.promotions.indices { copy.home.promotions[index].translations = Translations() }
        copy.company.translations = Translations()
        for index in copy.products.indices { copy.products[index].translations = Translations() }
        for index in copy.recipes.indices { copy.recipes[index].translations = Translations() }
        for index in copy.retailers.indices { copy.retailers[index].translations = Translations() }
        return copy
    }

    private var translationsAreEmpty: Bool {
        var empty = true
        forEachTranslated { _, translations in empty = empty && translations.isEmpty && translations.fixed.isEmpty }
        return empty
    }

    /// Calls `body` with each entity's translations and its texts in the default language by
    /// field, rich text as its plain text. `fixedOnly`: only the texts of the fields marked
    /// `translate="no"` (`Translations.fixed`) are wanted, and only those are made (most
    /// entities have none: an empty dictionary, no plain text of a body made in vain).
    package func forEachDefaultText(fixedOnly: Bool = false, _ body: (EntityReference, Translations, [FieldPath: String]) throws -> Void) rethrows {
        try forEachEntity { reference, entity in
            let translations = entity.translations
            if fixedOnly && translations.fixed.isEmpty { return try body(reference, translations, [:]) }
            var texts: [FieldPath: String] = [:]
            for text in entity.translatableTexts where !fixedOnly || translations.fixed.contains(text.path) {
                texts[text.path] = text.plainText
            }
            try body(reference, translations, texts)
        }
    }

    /// Whether any entity holds a translation.
    package var hasTranslations: Bool {
        var found = false
        forEachTranslated { _, translations in found = found || !translations.isEmpty }
        return found
    }

    /// Calls `body` with every entity's reference and translations, in catalogue order.
    package func forEachTranslated(_ body: (EntityReference, Translations) -> Void) {
        struct Visitor: EntityVisitor {
            let body: (EntityReference, Translations) -> Void
            func visit<Entity: ContentEntity>(_ reference: EntityReference, _ entity: Entity) { body(reference, entity.translations) }
        }
        withoutActuallyEscaping(body) { body in
            var visitor = Visitor(body: body)
            visitEntities(&visitor)
        }
    }

    /// Has `visitor` visit every entity as its own type, in catalogue order (as
    /// `forEachEntity(_:)`), each read in place in its array: no entity is copied or boxed
    /// (`forEachEntity`'s `any ContentEntity` copies each one whole, which cost a tenth of a
    /// check of 10,000 entities in three languages).
    package func visitEntities<Visitor: EntityVisitor>(_ visitor: inout Visitor) {
        func each<Entity: ContentEntity>(_ kind: EntityReference.Kind, _ entities: [Entity], id: (Entity) -> String) {
            entities.withUnsafeBufferPointer { buffer in
                for index in buffer.indices { visitor.visit(EntityReference(kind, id(buffer[index])), buffer[index]) }
            }
        }
        each(.section, sections) { $0.id.rawValue }
        visitor.visit(EntityReference(.home), home)
        each(.promotion, home.promotions) { $0.id.rawValue }
        visitor.visit(EntityReference(.company), company)
        each(.product, products) { $0.id.rawValue }
        each(.recipe, recipes) { $0.id.rawValue }
        each(.retailer, retailers) { $0.id.rawValue }
    }

    /// Calls `body` with every entity's reference and the entity, in catalogue order: the tabs,
    /// the home, its promotions, the company, the products, recipes and retailers.
    package func forEachEntity(_ body: (EntityReference, any ContentEntity) throws -> Void) rethrows {
        for section in sections { try body(EntityReference(.section, section.id.rawValue), section) }
        try body(EntityReference(.home), home)
        for promotion in home.promotions { try body(EntityReference(.promotion, promotion.id.rawValue), promotion) }
        try body(EntityReference(.company), company)
        for product in products { try body(EntityReference(.product, product.id.rawValue), product) }
        for recipe in recipes { try body(EntityReference(.recipe, recipe.id.rawValue), recipe) }
        for retailer in retailers { try body(EntityReference(.retailer, retailer.id.rawValue), retailer) }
    }

    /// Calls `body` with every entity's reference, translations and the fields a reader sees
    /// as text, each of which can be translated (`ContentField.isTranslatable`): names,
    /// summaries, bodies and methods, ingredient lines, alt texts, titles, promotion texts,
    /// opening hours and other info. A field its editor marked `translate="no"` is left out.
    /// `only`: the entities to call `body` with; nil, every one.
    package func forEachTranslatableField(only: Set<EntityReference>? = nil, _ body: (EntityReference, Translations, [FieldPath]) -> Void) {
        struct Visitor: EntityVisitor {
            let only: Set<EntityReference>?
            let body: (EntityReference, Translations, [FieldPath]) -> Void
            func visit<Entity: ContentEntity>(_ reference: EntityReference, _ entity: Entity) {
                if let only, !only.contains(reference) { return }
                let translations = entity.translations
                body(reference, translations, translations.fixed.isEmpty ? entity.translatableFields
                    : entity.translatableFields.filter { !translations.fixed.contains($0) })
            }
        }
        withoutActuallyEscaping(body) { body in
            var visitor = Visitor(only: only, body: body)
            visitEntities(&visitor)
        }
    }
}

/// What visits every entity of a catalogue as its own type (`Catalog.visitEntities(_:)`).
package protocol EntityVisitor {
    mutating func visit<Entity: ContentEntity>(_ reference: EntityReference, _ entity: Entity)
}

extension Translations {
    func text(_ field: FieldPath, _ original: String, along chain: [LanguageCode]) -> String {
        guard case .text(let text)? = first(field, along: chain)?.value else { return original }
        return text
    }

    func richText(_ field: FieldPath, _ original: RichText, along chain: [LanguageCode]) -> RichText {
        guard case .richText(let text)? = first(field, along: chain)?.value else { return original }
        return text
    }

    func picture(_ field: FieldPath, _ original: ImageReference, along chain: [LanguageCode]) -> ImageReference {
        guard case .text(let alt)? = first(field, along: chain)?.value else { return original }
        return ImageReference(source: original.source, alt: alt)
    }

    func pictures(_ originals: [ImageReference], along chain: [LanguageCode]) -> [ImageReference] {
        originals.enumerated().map { picture(.picture($0.offset), $0.element, along: chain) }
    }
}
