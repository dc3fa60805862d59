import CatalogModel

/// A field of an entity, as the content file names it: `name`, `ingredient[2]`,
/// `body.link[1]`. The cases' indexes count from 0 in document order; `description`, which
/// messages show an editor, counts from 1, as XPath does (`ingredient[1]` is the first line).
///
/// The one contract between the catalogue rules, which report a problem at a field, and the
/// compiler, which records where each field's element is in its file (`EntityBuilder`) to
/// give the problem a line and column: both name fields with these cases, and the compiler
/// finds a one-element field's element by its `elementName`, so the two cannot spell a field
/// differently and send a problem to its entity's root element instead.
package enum FieldPath: Hashable, Sendable, Codable, CustomStringConvertible {
    // MARK: One element each, of the field's name

    /// catalog.xml's `<brand>`.
    case brand
    /// catalog.xml's `<release>`.
    case release
    /// catalog.xml's `<sections>`, the list of tabs.
    case sections
    /// catalog.xml's `<languages>`.
    case languages
    /// A tab's or a promotion's `<title>`.
    case title
    /// A product's, recipe's, retailer's or the company's `<name>`.
    case name
    /// A product's or recipe's `<summary>`.
    case summary
    /// A promotion's `<text>`.
    case text
    /// A retailer's `<address>`.
    case address
    /// A retailer's `<phone>`.
    case phone
    /// A retailer's `<hours>`.
    case hours
    /// A retailer's `<info>`.
    case info
    /// The company's or a retailer's `<web>`.
    case web
    /// A tab's, product's or recipe's `<icon>`.
    case icon
    /// The home's, the company's or a retailer's `<logo>`.
    case logo
    /// The home's or a promotion's `<image>`.
    case image
    /// A detail screen's `<images>`, the list of its pictures.
    case images
    /// A promotion's `<link>`.
    case link
    /// A product's or a page's `<body>`.
    case body
    /// A recipe's `<method>`.
    case method

    // MARK: An attribute of the entity's element

    /// A product's, recipe's or retailer's `position`.
    case position

    // MARK: One of a list, by its index among the elements of its name

    /// A `<section>` of catalog.xml: `section[2]`.
    case section(Int)
    /// A `<promotion>` of home.xml: `promotion[1]`.
    case promotion(Int)
    /// An `<ingredient>` of a recipe: `ingredient[2]`.
    case ingredient(Int)
    /// A `<sells>` of a retailer: `sells[1]`.
    case sells(Int)
    /// An `<image>` in a detail screen's `<images>`: `image[1]`.
    case picture(Int)
    /// A `<language>` of catalog.xml's `<languages>`: `language[2]`.
    case language(Int)

    // MARK: Rich text

    /// A paragraph, heading, list item or link of a body or method: `body.p[1]`,
    /// `method.h2[1]`, `body.li[3]`, `body.link[1]`.
    case part(RichTextField, RichText.Part)

    /// The `index`th `<link>` of a body or method, counted as in `RichText.links`.
    package static func link(_ field: RichTextField, _ index: Int) -> FieldPath {
        .part(field, RichText.Part(kind: .link, index: index))
    }

    /// The name of the field's element, for the compiler to find it by: `name`, `body`,
    /// `ingredient`, `image` for a picture. Nil for the fields that are not an element of a
    /// fixed name: an attribute, and a part of rich text (`h2`, `h3`…).
    package var elementName: StaticString? {
        switch self {
        case .brand: "brand"
        case .release: "release"
        case .sections: "sections"
        case .languages: "languages"
        case .language: "language"
        case .title: "title"
        case .name: "name"
        case .summary: "summary"
        case .text: "text"
        case .address: "address"
        case .phone: "phone"
        case .hours: "hours"
        case .info: "info"
        case .web: "web"
        case .icon: "icon"
        case .logo: "logo"
        case .image, .picture: "image"
        case .images: "images"
        case .link: "link"
        case .body: "body"
        case .method: "method"
        case .section: "section"
        case .promotion: "promotion"
        case .ingredient: "ingredient"
        case .sells: "sells"
        case .position, .part: nil
        }
    }

    /// The field's name as messages give it, without its index: `name`, `ingredient`,
    /// `body.link`.
    package var name: String {
        switch self {
        case .position: "position"
        case .part(let field, let part): "\(field.rawValue).\(part.element)"
        default: elementName?.description ?? ""
        }
    }

    /// Which occurrence, for a field that is one of a list.
    package var index: Int? {
        switch self {
        case .section(let index), .promotion(let index), .ingredient(let index), .sells(let index), .picture(let index), .language(let index):
            index
        case .part(_, let part): part.index
        default: nil
        }
    }

    /// The order fields are written in where a bundle or a release's notes list them: by their
    /// name with the index from 0 as text (`ingredient[10]` before `ingredient[2]`), as they
    /// always have been, so that the same content gives the same bytes.
    package var orderKey: String {
        index.map { "\(name)[\($0)]" } ?? name
    }

    /// `name`, or `name[n]` with n counted from 1 (`ingredient[1]` for `.ingredient(0)`), as
    /// XPath counts and as an editor counts the lines of a list.
    package var description: String {
        index.map { "\(name)[\($0 + 1)]" } ?? name
    }
}

extension FieldPath {
    /// The field a translation is kept under (`Translations`): the rich text a part is in, or
    /// the field itself.
    package var translatedField: FieldPath {
        if case .part(let field, _) = self { return field.path }
        return self
    }
}

/// The fields of rich text: a product's or a page's body, a recipe's method.
package enum RichTextField: String, Hashable, Sendable, Codable {
    case body, method

    /// The field as a whole.
    package var path: FieldPath {
        switch self {
        case .body: .body
        case .method: .method
        }
    }
}
