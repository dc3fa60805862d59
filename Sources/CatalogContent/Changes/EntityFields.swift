import CatalogModel
import Foundation

// Each entity as the comparison of two releases sees it: its fields by name, each a text
// compared word by word, one value, a set or an ordered list.

/// A field of an entity, as the comparison sees it.
struct FieldValue: Equatable {
    enum Value: Equatable {
        /// Compared word by word.
        case text(String)
        /// One value, or none.
        case single(String?)
        /// Compared as a set: what was added and removed.
        case set(Set<String>)
        /// Compared as a set, and then by order: the same items reordered are a change too.
        case list([String])
        /// Lines of text aligned (`LineDifference`): each added or removed line by its number.
        case lines([String])

        var shown: String? {
            switch self {
            case .text(let text): text
            case .single(let value): value
            case .set(let values): values.sorted().joined(separator: ", ")
            case .list(let values): values.joined(separator: ", ")
            case .lines(let values): values.joined(separator: "\n")
            }
        }
    }

    var name: String
    var value: Value

    init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }
}

/// An entity as a list of fields, the same fields in the same order for every entity of a kind.
struct EntityFields {
    var values: [FieldValue]

    init(_ section: Section) {
        values = [FieldValue("title", .text(section.title)), FieldValue("icon", .single(section.icon.shown))]
    }

    init(_ home: Home) {
        values = [FieldValue("logo", .single(home.logo.shown)), FieldValue("picture", .single(home.image.shown)),
                  FieldValue("body", .text(home.body.markup)), FieldValue("links", .set(home.body.linkTargets))]
    }

    init(_ promotion: Promotion) {
        values = [FieldValue("title", .text(promotion.title)), FieldValue("text", .text(promotion.text)),
                  FieldValue("picture", .single(promotion.image.shown)),
                  FieldValue("first day", .single(promotion.firstDay.description)), FieldValue("last day", .single(promotion.lastDay.description)),
                  FieldValue("link", .single(promotion.link?.shown))]
    }

    init(_ company: Company) {
        values = [FieldValue("name", .text(company.name)), FieldValue("logo", .single(company.logo.shown)),
                  FieldValue("body", .text(company.body.markup)), FieldValue("pictures", .list(company.images.map(\.shown))),
                  FieldValue("web address", .single(company.webAddress)), FieldValue("links", .set(company.body.linkTargets))]
    }

    init(_ product: Product) {
        values = [FieldValue("name", .text(product.name)), FieldValue("icon", .single(product.icon.shown)),
                  FieldValue("summary", .text(product.summary)), FieldValue("body", .text(product.body.markup)),
                  FieldValue("pictures", .list(product.images.map(\.shown))), FieldValue("links", .set(product.body.linkTargets))]
    }

    init(_ recipe: Recipe) {
        values = [FieldValue("name", .text(recipe.name)), FieldValue("icon", .single(recipe.icon.shown)),
                  FieldValue("summary", .text(recipe.summary)),
                  FieldValue("ingredients", .lines(recipe.ingredients.map { $0.text + ($0.product.map { " [product:\($0.rawValue)]" } ?? "") })),
                  FieldValue("products", .set(Set(recipe.productIDs.map(\.rawValue)))),
                  FieldValue("method", .text(recipe.method.markup)), FieldValue("pictures", .list(recipe.images.map(\.shown))),
                  FieldValue("links", .set(recipe.method.linkTargets))]
    }

    init(_ retailer: Retailer) {
        values = [FieldValue("name", .text(retailer.name)), FieldValue("logo", .single(retailer.logo.shown)),
                  FieldValue("address", .text(retailer.address)), FieldValue("phone", .single(retailer.phone)),
                  FieldValue("opening hours", .text(retailer.openingHours)), FieldValue("other information", .text(retailer.otherInfo ?? "")),
                  FieldValue("web address", .single(retailer.webAddress)),
                  FieldValue("coordinate", .single(retailer.coordinate.map { "\($0.latitude), \($0.longitude)" })),
                  FieldValue("sells", .list(retailer.sells.map(\.rawValue)))]
    }
}

extension ImageReference {
    /// `sha256` or `sha256 "alt text"`: a picture and its words as one value, so that changed
    /// words show as a change of the picture.
    var shown: String {
        guard let alt, !alt.isEmpty else { return source }
        return source + " \"" + alt + "\""
    }
}

extension LinkTarget {
    /// `product:espresso`, `recipe:latte`.
    var shown: String {
        switch self {
        case .product(let id): "product:" + id.rawValue
        case .recipe(let id): "recipe:" + id.rawValue
        }
    }
}

extension RichText {
    /// The text as written, with its form in a Markdown-like way (`## heading`, `- item`,
    /// `*emphasis*`, `**strong**`, `[words](product:espresso)`), so that a word diff of it
    /// shows changes of form and of link targets as well as of words.
    var markup: String {
        func render(_ inlines: [Inline]) -> String {
            inlines.map { (part: Inline) -> String in
                switch part {
                case .text(let text): return text
                case .emphasis(let inner): return "*" + render(inner) + "*"
                case .strong(let inner): return "**" + render(inner) + "**"
                case .link(let target, let inner): return "[" + render(inner) + "](" + target.shown + ")"
                }
            }.joined()
        }
        return blocks.map { (block: Block) -> String in
            switch block {
            case .paragraph(let inlines):
                return render(inlines)
            case .heading(let level, let inlines):
                return String(repeating: "#", count: max(1, min(level, 6))) + " " + render(inlines)
            case .list(let ordered, let items):
                return items.enumerated().map { (item: (offset: Int, element: [Inline])) -> String in
                    (ordered ? String(item.offset + 1) + ". " : "- ") + render(item.element)
                }.joined(separator: "\n")
            }
        }.joined(separator: "\n\n")
    }

    /// The products and recipes the text links to.
    var linkTargets: Set<String> {
        var targets: Set<String> = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .text: break
                case .emphasis(let inner), .strong(let inner): visit(inner)
                case .link(let target, let inner):
                    targets.insert(target.shown)
                    visit(inner)
                }
            }
        }
        for block in blocks {
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): visit(inlines)
            case .list(_, let items): items.forEach(visit)
            }
        }
        return targets
    }
}

extension Catalog {
    /// Every picture's SHA-256.
    var pictureSHA256s: Set<String> {
        var shas = Set(sections.map(\.icon.source))
        shas.formUnion([home.logo.source, home.image.source, company.logo.source])
        shas.formUnion(home.promotions.map(\.image.source))
        shas.formUnion(company.images.map(\.source))
        for product in products { shas.insert(product.icon.source); shas.formUnion(product.images.map(\.source)) }
        for recipe in recipes { shas.insert(recipe.icon.source); shas.formUnion(recipe.images.map(\.source)) }
        for retailer in retailers { shas.insert(retailer.logo.source) }
        return shas
    }
}
