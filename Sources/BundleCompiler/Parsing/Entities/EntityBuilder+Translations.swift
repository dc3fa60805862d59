import CatalogContent
import CatalogModel

// catalog.xml's languages, and reading a text with its translations: the field's first element is the text in the default
// language, and each element of its name after it with `xml:lang` its translation (an alt
// text's, `<alt xml:lang>` inside its `<image>`; a rich text's, a whole `<body>` or `<method>`).
// Each translation is placed at its own element, in its language.
extension EntityBuilder {
    /// catalog.xml's `<languages>`: Finnish only when there is none.
    mutating func languages(_ entity: EntityReference) -> Languages {
        guard let list = fieldElement(root, .languages, entity) else { return .finnishOnly }
        var declarations: [Languages.Declaration] = []
        for (index, element) in list.children.enumerated() {
            recordElement(element, entity, .language(index))
            declarations.append(Languages.Declaration(
                code: LanguageCode(collapsingWhitespace(element.attribute("code") ?? "")),
                fallback: element.attribute("fallback").map { LanguageCode(collapsingWhitespace($0)) },
                required: element.attribute("required").map { ["true", "1"].contains(collapsingWhitespace($0)) } ?? false))
        }
        return declarations.isEmpty ? .finnishOnly : Languages(declarations)
    }

    /// A picture, its alt text's translations read from its `<alt xml:lang="…">` elements.
    mutating func image(_ parent: Element, _ field: FieldPath, _ entity: EntityReference,
                                _ translations: inout Translations) -> ImageReference {
        guard let element = fieldElement(parent, field, entity) else { return ImageReference(source: "") }
        return picture(element, field, entity, &translations)
    }

    mutating func picture(_ element: Element, _ field: FieldPath, _ entity: EntityReference,
                                  _ translations: inout Translations) -> ImageReference {
        for alt in element.children where alt.isNamed("alt") {
            // The schema requires xml:lang on each.
            guard let language = alt.language else { continue }
            translate(.text(checked(alt.text, alt, entity, "alt")), alt, field, LanguageCode(language), entity, &translations)
        }
        return ImageReference(source: element.attribute("src") ?? "", alt: alt(element, entity))
    }

    // MARK: Translations

    /// A text field and its translations: the first element of the field's name is the text
    /// in the default language, with no `xml:lang`; each one after it with `xml:lang` is its
    /// translation into that language. A field marked `translate="no"` is the same in every
    /// language.
    mutating func text(_ parent: Element, _ field: FieldPath, _ entity: EntityReference,
                               _ translations: inout Translations) -> String {
        optionalText(parent, field, entity, &translations) ?? ""
    }

    mutating func optionalText(_ parent: Element, _ field: FieldPath, _ entity: EntityReference,
                                       _ translations: inout Translations) -> String? {
        guard let name = field.elementName else { return nil }
        var original: String?
        for element in parent.children where element.isNamed(name) {
            let text = checked(element.text, element, entity, field.name)
            guard let language = element.language else {
                if original == nil {
                    recordElement(element, entity, field)
                    original = text
                    if element.attribute("translate").map(collapsingWhitespace) == "no" { translations.fixed.insert(field) }
                } else {
                    problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationTwice,
                        message: "<\(field.name)> is written twice without xml:lang; keep one, or give the translation its language, such as xml:lang=\"sv\""))
                }
                continue
            }
            guard original != nil else {
                orphan(element, entity, field.name, language, after: "the Finnish <\(field.name)> it translates")
                continue
            }
            translate(.text(text), element, field, LanguageCode(language), entity, &translations)
        }
        return original
    }

    /// Records a translation at its element; a second one into the same language is an error.
    mutating func translate(_ value: Translations.Value, _ element: Element, _ field: FieldPath, _ language: LanguageCode,
                                    _ entity: EntityReference, _ translations: inout Translations) {
        if translations.add(value, for: field, in: language) {
            recordElement(element, entity, field, language)
        } else {
            problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationTwice,
                message: "\(field.name) is translated into \(language) twice; keep one of the two"))
        }
    }

    /// A translation with no text in the default language before it.
    mutating func orphan(_ element: Element, _ entity: EntityReference, _ name: String, _ language: String, after original: String) {
        problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationOrphan,
            message: "this \(name) in \(language) translates nothing: write it after \(original), or remove xml:lang if it is the Finnish text"))
    }

    mutating func pictures(_ entity: EntityReference, _ translations: inout Translations) -> [ImageReference] {
        guard let list = fieldElement(root, .images, entity) else { return [] }
        var pictures: [ImageReference] = []
        for (index, element) in list.children.enumerated() {
            recordElement(element, entity, .picture(index))
            pictures.append(picture(element, .picture(index), entity, &translations))
        }
        return pictures
    }

    /// A body or method and its translations, as `text(_:_:_:_:)` reads a text field's.
    mutating func richText(_ parent: Element, _ field: RichTextField, _ entity: EntityReference,
                                   _ translations: inout Translations) -> RichText {
        guard let name = field.path.elementName else { return RichText(blocks: []) }
        var original: RichText?
        for element in parent.children where element.isNamed(name) {
            guard let language = element.language.map({ LanguageCode($0) }) else {
                if original == nil {
                    recordElement(element, entity, field.path)
                    original = richText(element, field, entity, nil)
                } else {
                    problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationTwice,
                        message: "<\(field.rawValue)> is written twice without xml:lang; keep one, or give the translation its language, such as xml:lang=\"sv\""))
                }
                continue
            }
            guard original != nil else {
                orphan(element, entity, field.rawValue, language.rawValue, after: "the Finnish <\(field.rawValue)> it translates")
                continue
            }
            guard translations[field.path, language] == nil else {
                problems.append(ElementDiagnostic(element: element, entity: entity, code: .translationTwice,
                    message: "\(field.rawValue) is translated into \(language) twice; keep one of the two"))
                continue
            }
            recordElement(element, entity, field.path, language)
            translations.add(.richText(richText(element, field, entity, language)), for: field.path, in: language)
        }
        return original ?? RichText(blocks: [])
    }

    /// One body or method element, its parts and links placed in its language.
    mutating func richText(_ element: Element, _ field: RichTextField, _ entity: EntityReference, _ language: LanguageCode?) -> RichText {
        var reader = RichTextReader(field: field)
        var blocks: [(Element, FieldPath)]? = fieldElements == nil ? nil : []
        let text = reader.read(element, recording: &blocks) { link, index in self.linkTarget(link, entity, .link(field, index), language) }
        for (block, path) in blocks ?? [] { recordElement(block, entity, path, language) }
        // Run through a paragraph's inline runs together: a run of marks may go on across them.
        for (_, excess) in text.partsWithLongMarkRuns { refuseMarks(excess, element, entity, field.rawValue) }
        return text
    }
}
