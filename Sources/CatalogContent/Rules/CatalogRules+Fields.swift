import CatalogModel

extension CatalogRules {
    // MARK: Required texts, their limits and characters

    /// Each plain text of `entity` its kind's description says must be written (`ContentField.required`):
    /// not empty, within its limit, free of control characters (`requireText`). An optional
    /// one (a retailer's other information) only when it is there.
    mutating func requireTexts<Entity: ContentEntity>(of entity: Entity, _ reference: EntityReference) {
        for field in Entity.fields {
            guard let what = field.required, let path = field.path else { continue }
            let text: String? = switch field.text {
            case .plain(let keyPath)?: entity[keyPath: keyPath]
            case .optional(let keyPath)?: entity[keyPath: keyPath]
            default: nil
            }
            guard let text else { continue }
            requireText(text, path, reference, limit: field.limit, code: DiagnosticCode.tooLong(path) ?? .emptyField, what: what)
        }
    }

    mutating func requireText(
        _ text: String, _ field: FieldPath, _ entity: EntityReference, limit: Int? = nil,
        code: DiagnosticCode = .emptyField, what: String
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
            report(.imageCount, entity, .images,
                   "\(entity) has \(images.count) pictures; give it \(FieldLimits.pictures.lowerBound) or \(FieldLimits.pictures.upperBound)")
        }
        // A picture's image is its id in an app's list (`Picture.id`), so it is shown once
        // per screen. Compared as written (in a bundle, by SHA-256).
        var shown = Set<String>()
        for (index, image) in images.enumerated() {
            checkPicture(image, .picture(index), entity)
            if !shown.insert(image.source).inserted {
                report(.duplicatePicture, entity, .picture(index),
                       "the image '\(image.source)' is shown twice in \(entity); remove one, or choose another image")
            }
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

    /// A rich text's own rules (`checkBodyText`) and its links' targets (`checkLinks`).
    mutating func checkBody(_ text: RichText, _ field: RichTextField, _ entity: EntityReference) {
        checkBodyText(text, field, entity)
        checkLinks(text, field, entity)
    }

    /// A rich text's links: each names a product or recipe that exists.
    mutating func checkLinks(_ text: RichText, _ field: RichTextField, _ entity: EntityReference) {
        for (index, link) in text.links.enumerated() {
            checkReference(link, .link(field, index), entity, element: "link")
        }
    }

    /// What a rich text must be on its own: not empty, no empty block or link, no character
    /// nobody means to type.
    mutating func checkBodyText(_ text: RichText, _ field: RichTextField, _ entity: EntityReference) {
        let links = text.links
        var blank = Set<RichText.Part>()
        if text.isBlank {
            report(.emptyField, entity, field.path, "\(field.rawValue) is empty; write the text")
        } else {
            let blankParts = text.blankParts
            blank = Set(blankParts)
            for part in blankParts {
                let path = FieldPath.part(field, part)
                switch part.kind {
                case .paragraph:
                    report(.emptyBlock, entity, path, "\(field.rawValue) has an empty paragraph; write its text or remove it")
                case .heading:
                    report(.emptyBlock, entity, path, "\(field.rawValue) has an empty heading; write its text or remove it")
                case .listItem:
                    report(.emptyBlock, entity, path, "\(field.rawValue) has an empty list item; write its text or remove it")
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
            report(.controlCharacter, entity, .part(field, part), "\(field.rawValue) holds \(control.unwantedControlAdvice(inBlock: part.element))")
        }
    }
}
