import BundleCompiler
import CatalogContent
import CatalogModel

/// What a product or recipe is used by, and the edits that follow it when its id changes or it
/// is deleted: a recipe's ingredient lines naming the product, the products a retailer sells, a
/// promotion's link, and every link in formatted text (a body, a method, the home's and the
/// company's texts, in every language). Renamed, each reference takes the new id; removed, an
/// ingredient line keeps its words and names no product, a retailer no longer lists it, a
/// promotion has no link, and a link's words stay as words.
enum ReferenceEdit {
    /// The entities whose content names `target` (a product or recipe), in the catalogue's order.
    static func users(of target: EntityReference, in catalog: Catalog) -> [EntityReference] {
        var users: [EntityReference] = []
        catalog.forEachEntity { reference, entity in
            if reference != target, names(target, entity) { users.append(reference) }
        }
        return users
    }

    /// Whether `entity`'s content names `target`.
    static func names(_ target: EntityReference, _ entity: any ContentEntity) -> Bool {
        let link = linkTarget(target)
        if let link, richTexts(of: entity).contains(where: { $0.links(to: link) }) { return true }
        switch (entity, target.kind) {
        case (let recipe as Recipe, .product): return recipe.ingredients.contains { $0.product?.rawValue == target.id }
        case (let retailer as Retailer, .product): return retailer.sells.contains { $0.rawValue == target.id }
        case (let promotion as Promotion, _): return promotion.link != nil && promotion.link == link
        default: return false
        }
    }

    static func linkTarget(_ target: EntityReference) -> LinkTarget? {
        switch target.kind {
        case .product: .product(ProductID(target.id))
        case .recipe: .recipe(RecipeID(target.id))
        default: nil
        }
    }

    /// Every formatted text of `entity`, each language's.
    static func richTexts(of entity: any ContentEntity) -> [RichText] {
        func all<Entity: ContentEntity>(_ entity: Entity) -> [RichText] {
            var texts: [RichText] = []
            for field in Entity.fields {
                guard case .rich(let keyPath)? = field.text, let path = field.path else { continue }
                texts.append(entity[keyPath: keyPath])
                for entry in entity.translations.entries where entry.field == path {
                    if case .richText(let text) = entry.value { texts.append(text) }
                }
            }
            return texts
        }
        return all(entity)
    }

    /// What a form of a user of `target` sends to rename (`newID`) or remove (nil) every
    /// reference to it: its texts, lists and choices as the form holds them, those that named it
    /// changed.
    static func values(_ form: EntityForm, target: EntityReference, newID: String?) -> StudioWorkspace.FormValues {
        var values = StudioWorkspace.FormValues()
        let old = linkTarget(target)
        let new: LinkTarget? = newID.flatMap { linkTarget(EntityReference(target.kind, $0)) }
        for field in form.fields {
            guard let rich = field.rich, let old else { continue }
            let changed = rich.replacingLinks(to: old, with: new)
            if changed != rich { values.texts[field.key] = RichTextMarkup.write(changed) }
        }
        for list in form.lists {
            switch (list.kind, target.kind) {
            case (.ingredients, .product):
                let rows = list.rows.map { row in
                    var row = row
                    if row.reference == target.id { row.reference = newID ?? "" }
                    return row
                }
                if rows != list.rows { values.lists[list.key] = rows }
            case (.sells, .product):
                let rows = list.rows.compactMap { row -> FormList.Row? in
                    guard row.reference == target.id else { return row }
                    return newID.map { FormList.Row(reference: $0, texts: row.texts) }
                }
                if rows != list.rows { values.lists[list.key] = rows }
            default: break
            }
        }
        for choice in form.choices where choice.kind == .link {
            guard let old, choice.value == StudioPages.linkValue(old) else { continue }
            values.choices[choice.key] = new.map(StudioPages.linkValue) ?? ""
        }
        return values
    }
}

extension RichText {
    /// Whether a link in it leads to `target`.
    func links(to target: LinkTarget) -> Bool {
        func search(_ parts: [Inline]) -> Bool {
            parts.contains { part in
                switch part {
                case .text: false
                case .emphasis(let inner), .strong(let inner): search(inner)
                case .link(let to, let inner): to == target || search(inner)
                }
            }
        }
        return blocks.contains { block in
            switch block {
            case .paragraph(let parts), .heading(_, let parts): search(parts)
            case .list(_, let items): items.contains(where: search)
            }
        }
    }

    /// The text with each link to `old` leading to `new`, or, for nil, its words without a link.
    func replacingLinks(to old: LinkTarget, with new: LinkTarget?) -> RichText {
        func replace(_ parts: [Inline]) -> [Inline] {
            parts.flatMap { part -> [Inline] in
                switch part {
                case .text: [part]
                case .emphasis(let inner): [.emphasis(replace(inner))]
                case .strong(let inner): [.strong(replace(inner))]
                case .link(let to, let inner):
                    to == old ? (new.map { [.link($0, replace(inner))] } ?? replace(inner)) : [.link(to, replace(inner))]
                }
            }
        }
        return RichText(blocks: blocks.map { block in
            switch block {
            case .paragraph(let parts): .paragraph(replace(parts))
            case .heading(let level, let parts): .heading(level: level, replace(parts))
            case .list(let ordered, let items): .list(ordered: ordered, items: items.map(replace))
            }
        })
    }
}
