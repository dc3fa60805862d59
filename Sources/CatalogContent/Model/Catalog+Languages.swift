import CatalogModel

extension Catalog {
    /// The catalogue as a reader of `language` sees it: each text in the best language of
    /// `language`'s chain that has it (`Languages.chain(for:)`), else in the default. What is
    /// not text is the same in every language.
    package func translated(to language: LanguageCode) -> Catalog {
        let chain = languages.chain(for: language)
        guard chain.count > 1 else { return self }
        var copy = self
        copy.sections = sections.map { $0.translated(along: chain) }
        copy.home = home.translated(along: chain)
        copy.company = company.translated(along: chain)
        copy.products = products.map { $0.translated(along: chain) }
        copy.recipes = recipes.map { $0.translated(along: chain) }
        copy.retailers = retailers.map { $0.translated(along: chain) }
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
        func visit(_ entity: EntityReference, _ translations: Translations, _ texts: @autoclosure () -> [FieldPath: String]) throws {
            guard fixedOnly else { return try body(entity, translations, texts()) }
            try body(entity, translations, translations.fixed.isEmpty ? [:] : texts().filter { translations.fixed.contains($0.key) })
        }
        func pictures(_ images: [ImageReference]) -> [FieldPath: String] {
            Dictionary(uniqueKeysWithValues: images.enumerated().map { (FieldPath.picture($0.offset), $0.element.alt ?? "") })
        }
        for section in sections {
            try visit(EntityReference(.section, section.id.rawValue), section.translations, [.title: section.title])
        }
        try visit(EntityReference(.home), home.translations, [.image: home.image.alt ?? "", .body: home.body.plainText])
        for promotion in home.promotions {
            try visit(EntityReference(.promotion, promotion.id.rawValue), promotion.translations,
                      [.title: promotion.title, .text: promotion.text, .image: promotion.image.alt ?? ""])
        }
        try visit(EntityReference(.company), company.translations,
                  [.name: company.name, .body: company.body.plainText].merging(pictures(company.images)) { a, _ in a })
        for product in products {
            try visit(EntityReference(.product, product.id.rawValue), product.translations,
                      [.name: product.name, .summary: product.summary, .body: product.body.plainText].merging(pictures(product.images)) { a, _ in a })
        }
        for recipe in recipes {
            func texts() -> [FieldPath: String] {
                var texts: [FieldPath: String] = [.name: recipe.name, .summary: recipe.summary, .method: recipe.method.plainText]
                for (index, line) in recipe.ingredients.enumerated() { texts[.ingredient(index)] = line.text }
                return texts.merging(pictures(recipe.images)) { a, _ in a }
            }
            try visit(EntityReference(.recipe, recipe.id.rawValue), recipe.translations, texts())
        }
        for retailer in retailers {
            func texts() -> [FieldPath: String] {
                var texts: [FieldPath: String] = [.hours: retailer.openingHours]
                if let info = retailer.otherInfo { texts[.info] = info }
                return texts
            }
            try visit(EntityReference(.retailer, retailer.id.rawValue), retailer.translations, texts())
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
        for section in sections { body(EntityReference(.section, section.id.rawValue), section.translations) }
        body(EntityReference(.home), home.translations)
        for promotion in home.promotions { body(EntityReference(.promotion, promotion.id.rawValue), promotion.translations) }
        body(EntityReference(.company), company.translations)
        for product in products { body(EntityReference(.product, product.id.rawValue), product.translations) }
        for recipe in recipes { body(EntityReference(.recipe, recipe.id.rawValue), recipe.translations) }
        for retailer in retailers { body(EntityReference(.retailer, retailer.id.rawValue), retailer.translations) }
    }

    /// Calls `body` with every entity's reference, translations and the fields a reader sees
    /// as text, each of which can be translated: names, summaries, bodies and methods,
    /// ingredient lines, alt texts, titles, promotion texts, opening hours and other info.
    /// A field its editor marked `translate="no"` is left out.
    package func forEachTranslatableField(_ body: (EntityReference, Translations, [FieldPath]) -> Void) {
        func pictures(_ images: [ImageReference]) -> [FieldPath] { images.indices.map { .picture($0) } }
        func visit(_ entity: EntityReference, _ translations: Translations, _ fields: [FieldPath]) {
            body(entity, translations, fields.filter { !translations.fixed.contains($0) })
        }
        for section in sections { visit(EntityReference(.section, section.id.rawValue), section.translations, [.title]) }
        visit(EntityReference(.home), home.translations, [.image, .body])
        for promotion in home.promotions {
            visit(EntityReference(.promotion, promotion.id.rawValue), promotion.translations, [.title, .text, .image])
        }
        visit(EntityReference(.company), company.translations, [.name, .body] + pictures(company.images))
        for product in products {
            visit(EntityReference(.product, product.id.rawValue), product.translations, [.name, .summary, .body] + pictures(product.images))
        }
        for recipe in recipes {
            visit(EntityReference(.recipe, recipe.id.rawValue), recipe.translations,
                  [.name, .summary] + recipe.ingredients.indices.map { .ingredient($0) } + [.method] + pictures(recipe.images))
        }
        for retailer in retailers {
            visit(EntityReference(.retailer, retailer.id.rawValue), retailer.translations, [.hours] + (retailer.otherInfo == nil ? [] : [.info]))
        }
    }
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

extension Section {
    func translated(along chain: [LanguageCode]) -> Section {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.title = translations.text(.title, title, along: chain)
        return copy
    }
}

extension Home {
    func translated(along chain: [LanguageCode]) -> Home {
        var copy = self
        copy.image = translations.picture(.image, image, along: chain)
        copy.body = translations.richText(.body, body, along: chain)
        copy.promotions = promotions.map { $0.translated(along: chain) }
        return copy
    }
}

extension Promotion {
    func translated(along chain: [LanguageCode]) -> Promotion {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.title = translations.text(.title, title, along: chain)
        copy.text = translations.text(.text, text, along: chain)
        copy.image = translations.picture(.image, image, along: chain)
        return copy
    }
}

extension Company {
    func translated(along chain: [LanguageCode]) -> Company {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.name = translations.text(.name, name, along: chain)
        copy.body = translations.richText(.body, body, along: chain)
        copy.images = translations.pictures(images, along: chain)
        return copy
    }
}

extension Product {
    func translated(along chain: [LanguageCode]) -> Product {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.name = translations.text(.name, name, along: chain)
        copy.summary = translations.text(.summary, summary, along: chain)
        copy.body = translations.richText(.body, body, along: chain)
        copy.images = translations.pictures(images, along: chain)
        return copy
    }
}

extension Recipe {
    func translated(along chain: [LanguageCode]) -> Recipe {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.name = translations.text(.name, name, along: chain)
        copy.summary = translations.text(.summary, summary, along: chain)
        copy.ingredients = ingredients.enumerated().map { index, line in
            Ingredient(text: translations.text(.ingredient(index), line.text, along: chain), product: line.product)
        }
        copy.method = translations.richText(.method, method, along: chain)
        copy.images = translations.pictures(images, along: chain)
        return copy
    }
}

extension Retailer {
    func translated(along chain: [LanguageCode]) -> Retailer {
        guard !translations.isEmpty else { return self }
        var copy = self
        copy.openingHours = translations.text(.hours, openingHours, along: chain)
        copy.otherInfo = otherInfo.map { translations.text(.info, $0, along: chain) }
        return copy
    }
}
