import CatalogModel

/// Where a page's links point: to the paths `digno preview` serves, or to the files of a static
/// site, relative to the page, so that the site works opened from disk and on any static host.
/// The default language's pages are at the root; each other language's in a folder named by
/// its code (`/sv/products/espresso`, `sv/products/espresso.html`), beside the root's images
/// and style sheet.
package struct SiteLinks: Sendable {
    package enum Style: Sendable {
        /// `/products/espresso` for `cafedigno://products/espresso`, `/images/SHA-256`, `/style.css`.
        case server
        /// `products/espresso.html`, `images/SHA-256.png`, `style.css`, relative to the page.
        case files
    }

    package var style: Style
    /// The file name extension of each image (`png`, `jpg`), for the files of a static site.
    package var imageExtensions: [ImageID: String]
    /// The folder of the pages' language (`sv`); nil for the default language's, at the root.
    package var languageFolder: String?
    /// The renditions of the pictures a page shows (`CatalogBundle.renditions(of:)`): their WebP
    /// ones are the `srcset` the browser chooses from (none before schema 4), and the picture's
    /// own image gives its size.
    package var ladders: [ImageID: [ImageRendition]]

    package init(style: Style, imageExtensions: [ImageID: String] = [:], languageFolder: String? = nil, ladders: [ImageID: [ImageRendition]] = [:]) {
        self.style = style
        self.imageExtensions = imageExtensions
        self.languageFolder = languageFolder
        self.ladders = ladders
    }

    /// The same links, for the pages in `folder` (nil: the default language's).
    package func inLanguageFolder(_ folder: String?) -> SiteLinks {
        SiteLinks(style: style, imageExtensions: imageExtensions, languageFolder: folder, ladders: ladders)
    }

    /// The path of a route's page, from the site's root: `/products/espresso`, or for a static
    /// site its file, `products/espresso.html` (Etusivu: `index.html`); in the language folder.
    package func path(of route: Route) -> String {
        path(of: route, inLanguageFolder: languageFolder)
    }

    /// The path of a route's page in the language folder `folder` (nil: the default language's).
    package func path(of route: Route, inLanguageFolder folder: String?) -> String {
        let deepLink = String(route.description.dropFirst(Route.scheme.count + 3))  // after "cafedigno://"
        switch style {
        case .server: return (folder.map { "/" + $0 } ?? "") + "/" + deepLink
        case .files: return (folder.map { $0 + "/" } ?? "") + (route == .home ? "index.html" : deepLink + ".html")
        }
    }

    /// A link from the page of `page` to the same screen in the language folder `folder`: the
    /// language switch.
    package func href(to route: Route, inLanguageFolder folder: String?, from page: Route) -> String {
        relative(path(of: route, inLanguageFolder: folder), from: page)
    }

    /// The path of page `number` (from 1) of a list shown a page at a time: page 1 is the list's
    /// own; then `/products?page=2`, or for a static site `products-2.html`.
    package func path(of route: Route, page number: Int) -> String {
        guard number > 1 else { return path(of: route) }
        switch style {
        case .server: return path(of: route) + "?page=\(number)"
        case .files: return String(path(of: route).dropLast(".html".count)) + "-\(number).html"
        }
    }

    /// A link from the page of `page` to page `number` of the list `route`.
    package func href(to route: Route, page number: Int, from page: Route) -> String {
        relative(path(of: route, page: number), from: page)
    }

    /// A link from the page of `page` to the page of `route`.
    package func href(to route: Route, from page: Route) -> String {
        relative(path(of: route), from: page)
    }

    /// An image's address from the page of `page`.
    package func image(_ id: ImageID, from page: Route) -> String {
        switch style {
        case .server: "/images/\(id.rawValue)"
        case .files: relative("images/\(id.rawValue).\(imageExtensions[id] ?? "png")", from: page)
        }
    }

    /// A rendition's address from the page of `page`: `/images/PICTURE/780.webp` from the
    /// preview (which finds it among the picture's), `images/SHA-256.webp` in a static site.
    package func image(_ rendition: ImageRendition, from page: Route) -> String {
        switch style {
        case .server: "/images/\(rendition.image.rawValue)/\(rendition.width).\(Self.fileExtension(rendition.format))"
        case .files: relative("images/\(rendition.id.rawValue).\(Self.fileExtension(rendition.format))", from: page)
        }
    }

    /// The file name extension of a format: `jpg`, `png`, `webp`.
    package static func fileExtension(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    /// The size of `id`'s own image (the largest JPEG or PNG), in pixels, when its renditions
    /// are known.
    package func size(of id: ImageID) -> (width: Int, height: Int)? {
        (ladders[id] ?? []).first { $0.id == id }.map { ($0.width, $0.height) }
    }

    /// The WebP renditions of `id` as a `srcset`, narrowest first (`… 390w, … 780w`); empty
    /// when it has none.
    package func sourceSet(_ id: ImageID, from page: Route) -> String {
        (ladders[id] ?? []).filter { $0.format == .webp }.sorted { $0.width < $1.width }
            .map { "\(image($0, from: page)) \($0.width)w" }.joined(separator: ", ")
    }

    /// The style sheet's address from the page of `page`.
    package func stylesheet(from page: Route) -> String {
        relative(style == .server ? "/style.css" : "style.css", from: page)
    }

    /// A path from the root as the page of `page` reaches it: detail pages are one folder down,
    /// and a language folder's pages one more.
    private func relative(_ path: String, from page: Route) -> String {
        guard style == .files else { return path }
        return String(repeating: "../", count: (languageFolder == nil ? 0 : 1) + (page.isDetail ? 1 : 0)) + path
    }
}
