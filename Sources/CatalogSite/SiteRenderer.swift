import CatalogModel
import Mustache

/// Turns screens into HTML pages, the app as a browser shows it, through the Mustache templates
/// and the style sheet in `Templates/` (a web designer edits those files; they are embedded into
/// the program when it is built). Every value from a bundle is HTML-escaped by the templates'
/// `{{…}}`: a `<script>` in a name is shown as text.
package struct SiteRenderer: Sendable {
    package let links: SiteLinks
    private let library: MustacheLibrary

    /// The style sheet the pages link to.
    package static var stylesheet: [UInt8] { PackageResources.style_css }

    /// The templates, by the name a `{{> name}}` partial uses.
    private static let templates: [(name: String, text: [UInt8])] = [
        ("page", PackageResources.page_mustache), ("home", PackageResources.home_mustache),
        ("rows", PackageResources.rows_mustache), ("product", PackageResources.product_mustache),
        ("recipe", PackageResources.recipe_mustache), ("retailers", PackageResources.retailers_mustache),
        ("company", PackageResources.company_mustache), ("picture", PackageResources.picture_mustache),
        ("block", PackageResources.block_mustache), ("inline", PackageResources.inline_mustache),
    ]

    /// A renderer whose pages link as `links` says. Throws when a template does not parse, a
    /// mistake in `Templates/` that the tests find.
    package init(links: SiteLinks) throws {
        self.links = links
        var library = MustacheLibrary()
        for template in Self.templates {
            try library.register(String(decoding: template.text, as: UTF8.self), named: template.name)
        }
        self.library = library
    }

    /// A screen's page. `head` and `foot` are HTML put as they are at the end of `<head>` and
    /// of `<body>` (the preview's reload script); everything else is escaped.
    package func page(_ screen: Screen, brand: String, head: String = "", foot: String = "") -> String {
        let view = PageView(screen, brand: brand, links: links, head: head, foot: foot)
        return library.render(view, withTemplate: "page") ?? ""
    }
}
