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

    /// The preview's own style sheet (its error panel) and script (its reload on a new build).
    package static var previewStylesheet: [UInt8] { PackageResources.preview_css }
    package static var previewScript: [UInt8] { PackageResources.preview_js }

    /// The templates, by the name a `{{> name}}` partial uses.
    private static let templates: [(name: String, text: [UInt8])] = [
        ("page", PackageResources.page_mustache), ("home", PackageResources.home_mustache),
        ("rows", PackageResources.rows_mustache), ("product", PackageResources.product_mustache),
        ("recipe", PackageResources.recipe_mustache), ("retailers", PackageResources.retailers_mustache),
        ("company", PackageResources.company_mustache), ("picture", PackageResources.picture_mustache),
        ("block", PackageResources.block_mustache), ("inline", PackageResources.inline_mustache),
        ("lang", PackageResources.lang_mustache), ("sources", PackageResources.sources_mustache),
        ("problems", PackageResources.problems_mustache), ("notice", PackageResources.notice_mustache),
        ("preview-head", PackageResources.preview_head_mustache), ("changes", PackageResources.changes_mustache),
        ("warnings", PackageResources.warnings_mustache), ("translations", PackageResources.translations_mustache),
    ]

    /// A renderer whose pages link as `links` says. Throws when a template does not parse, a
    /// mistake in `Templates/` that the tests find.
    package init(links: SiteLinks) throws {
        self.links = links
        MustacheContentTypes.register(FastHTMLContentType(), named: FastHTMLContentType.name)
        var library = MustacheLibrary()
        for template in Self.templates {
            // Escaped by FastHTMLContentType; the pragma, put here rather than in the files,
            // leaves nothing in the output.
            let text = "{{% CONTENT_TYPE: \(FastHTMLContentType.name)}}" + String(decoding: template.text, as: UTF8.self)
            try library.register(text, named: template.name)
        }
        self.library = library
    }

    /// How many rows a list page shows; a longer list is shown a page at a time, with links to
    /// the pages before and after. A list of 40,000 products is 12 MB of HTML as one page; the
    /// preview serves a page of 50 in under 5 ms at the 99th percentile (docs/BENCHMARKS.md,
    /// "The preview").
    package static let listPageSize = 50

    /// A screen's page. `head` and `foot` are HTML put as they are at the end of `<head>` and
    /// of `<body>` (the preview's reload script); everything else is escaped. For a list shown
    /// a page at a time, `listPage` says which page the screen's rows are and whether more follow.
    /// `languages` says the page's language and the bundle's others, for its `lang`, its own
    /// words, its links (a language's pages are in its folder) and its language switch.
    /// `ladders` holds the renditions of the pictures it shows, for their `srcset` (by default
    /// the links' own).
    package func page(
        _ screen: Screen, brand: String, languages: PageLanguages = .finnish, listPage: ListPage? = nil, head: String = "", foot: String = "",
        ladders: [ImageID: [ImageRendition]]? = nil
    ) -> String {
        var links = links
        if let ladders { links.ladders = ladders }
        let view = PageView(screen, brand: brand, links: links, languages: languages, listPage: listPage, head: head, foot: foot)
        return library.render(view, withTemplate: "page") ?? ""
    }

    /// A page with a title and a sentence and no app around it (`digno preview`'s page for a
    /// screen that is not there, or before any version has built), with a link to Etusivu when
    /// `hasHome`.
    package func notice(title: String, message: String, hasHome: Bool, language: String = "fi", head: String = "", foot: String = "") -> String {
        let view = NoticeView(
            language: language, title: title, message: message, stylesheet: links.stylesheet(from: .home), hasHome: hasHome,
            homeHref: links.href(to: .home, from: .home), head: head, foot: foot)
        return library.render(view, withTemplate: "notice") ?? ""
    }

    /// The preview's changes panel, HTML to put at the end of a page's body.
    package func changes(_ panel: ChangesPanel) -> String {
        library.render(panel, withTemplate: "changes") ?? ""
    }

    /// The preview's error panel, HTML to put at the end of a page's body, its own words in
    /// the page's `language`.
    package func problems(_ panel: DiagnosticsPanel, language: String) -> String {
        library.render(DiagnosticsPanelView(panel, words: .for(language), isError: true), withTemplate: "problems") ?? ""
    }

    /// The preview's warnings panel for a build that succeeded, HTML to put at the end of a
    /// page's body, its own words in the page's `language`.
    package func warnings(_ panel: DiagnosticsPanel, language: String) -> String {
        library.render(DiagnosticsPanelView(panel, words: .for(language), isError: false), withTemplate: "warnings") ?? ""
    }

    /// The preview's sentence for a page asked for before any version has built, in `language`.
    package static func notBuilt(language: String) -> String {
        PanelStrings.for(language).notBuilt
    }

    /// What a preview page says while the first build is under way.
    package static func building(language: String) -> String {
        PanelStrings.for(language).building
    }

    /// The preview's translation page.
    package func translations(_ status: TranslationStatus, head: String = "", foot: String = "") -> String {
        let view = TranslationPageView(status: status, stylesheet: "/style.css", head: head, foot: foot)
        return library.render(view, withTemplate: "translations") ?? ""
    }

    /// What the preview adds to a page's head: its build number, its style sheet and its script.
    package func previewHead(generation: String) -> String {
        library.render(PreviewHeadView(generation: generation), withTemplate: "preview-head") ?? ""
    }
}
