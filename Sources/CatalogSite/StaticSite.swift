import CatalogContent
import CatalogModel
import Foundation

/// `digno site`: every screen of a bundle as a static web site, in each of its languages (the
/// default at the root, each other in a folder named by its code: `sv/products/espresso.html`),
/// pictures as files named by their SHA-256, links relative, so that it works opened from disk
/// and on any static host. The same bundle and day give the same files, byte for byte.
package struct StaticSite {
    /// What `write` made.
    package struct Summary: Equatable, Sendable {
        package var pages: Int
        /// The languages the pages are in, the default's (at the root) first.
        package var languages: [String]
        package var images: Int
        /// The pictures' WebP renditions, each a file of its own (none from a bundle before schema 4).
        package var renditions: Int
        package var bytes: Int
    }

    /// Why a site was not written.
    package enum Failure: CausedError, Equatable, CustomStringConvertible {
        case bundle(ScreenError)
        case outputNotASite(String)
        /// The site cannot be written: `cause`, the file system's or the template library's error.
        case writing(String, reason: String, cause: ErrorCause)

        package var description: String {
            switch self {
            case .bundle(let error): error.description
            case .outputNotASite(let path):
                "'\(path)' exists and is not a site digno wrote (it has no \(StaticSite.marker)); choose an empty or new folder"
            case .writing(let path, let reason, let cause): "cannot write '\(path)': \(reason): \(cause)"
            }
        }

        package var cause: ErrorCause? {
            switch self {
            case .bundle(let error): ErrorCause(error)
            case .outputNotASite: nil
            case .writing(_, _, let cause): cause
            }
        }
    }

    /// The file that marks a folder as a site digno wrote, so that writing again may replace it.
    package static let marker = ".digno-site"

    package let bundle: CatalogBundle
    /// The day whose promotions Etusivu shows.
    package let today: Day

    /// How many rows a list page shows.
    package let listPageSize: Int

    package init(bundle: CatalogBundle, today: Day, listPageSize: Int = SiteRenderer.listPageSize) {
        self.bundle = bundle
        self.today = today
        self.listPageSize = max(1, listPageSize)
    }

    /// Every route of the bundle: the five sections and every product and recipe.
    package func routes() throws(ScreenError) -> [Route] {
        let products: [ProductRow], recipes: [RecipeRow]
        do {
            products = try bundle.productRows()
            recipes = try bundle.recipeRows()
        } catch {
            throw .bundle(error)
        }
        return [.home, .products] + products.map { .product($0.id) } + [.recipes] + recipes.map { .recipe($0.id) } + [.retailers, .company]
    }

    /// Every screen of the bundle in its language, in the order of `routes()`, read on every
    /// core (the bundle's reads are safe from several threads at once).
    package func screens() throws(ScreenError) -> [Screen] {
        try screens(in: bundle)
    }

    /// Every screen of `bundle` (this bundle, read in one of its languages).
    private func screens(in bundle: CatalogBundle) throws(ScreenError) -> [Screen] {
        let today = today
        let results = Parallel.map(try routes(), workers: Self.workers, makeWorker: { _ in () }) { _, route in
            Result { () throws(ScreenError) -> Screen in try bundle.screen(for: route, today: today) }
        }
        return try results.map { result throws(ScreenError) in try result.get() }
    }

    /// One thread for each core.
    static var workers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Writes the site into `output`, which must be new, empty or a site written before. The
    /// site is made in a folder beside it and moved into place when complete, so a failure
    /// leaves what was there.
    package func write(to output: String) throws(Failure) -> Summary {
        let fileManager = FileManager.default
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        if let contents = try? fileManager.contentsOfDirectory(atPath: outputURL.path), !contents.isEmpty,
           !contents.contains(Self.marker) {
            throw .outputNotASite(output)
        }
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: outputURL.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw .outputNotASite(output)
        }

        // Each language's screens, the default's first.
        var screensByLanguage: [(languages: PageLanguages, screens: [Screen])] = []
        for language in bundle.languages {
            let reading = bundle.reading(in: [language])
            do { screensByLanguage.append((PageLanguages(reading), try screens(in: reading))) } catch { throw .bundle(error) }
        }
        var images: [ImageID: StoredImage] = [:]
        // Each picture's renditions (schema 4): the WebP ones are the pages' `srcset`, and files.
        var ladders: [ImageID: [ImageRendition]] = [:]
        var renditions: [StoredImage] = []
        for id in Set(screensByLanguage.flatMap { $0.screens.flatMap(Self.images) }).sorted() {
            let image: StoredImage?
            do { image = try bundle.image(id) } catch { throw .bundle(.bundle(error)) }
            guard let image else {
                throw .bundle(.bundle(.damaged(path: bundle.path, reason: BundleFailure(.content, "a screen shows the image \(id.rawValue), which it does not hold"))))
            }
            images[id] = image
            do throws(CatalogBundleError) {
                // Every rendition, the own image's size for `width` and `height`; the WebP ones
                // written as files beside it.
                let ladder = try bundle.renditions(of: id)
                ladders[id] = ladder
                for rendition in ladder where rendition.format == .webp {
                    guard let stored = try bundle.image(rendition) else {
                        throw CatalogBundleError.damaged(path: bundle.path, reason: BundleFailure(.content, "the image \(id.rawValue) has no \(rendition.width)-pixel \(rendition.format.mediaType)"))
                    }
                    renditions.append(stored)
                }
            } catch {
                throw .bundle(.bundle(error))
            }
        }
        let links = SiteLinks(style: .files, imageExtensions: images.mapValues { $0.mediaType == "image/jpeg" ? "jpg" : "png" }, ladders: ladders)
        let renderer: SiteRenderer
        do { renderer = try SiteRenderer(links: links) } catch { throw .writing(output, reason: "a template does not parse", cause: ErrorCause(error)) }

        let brand = bundle.release.brand
        // The pages are independent: rendered on every core. A long list is several pages.
        let pages = screensByLanguage.flatMap { languages, screens in
            screens.flatMap { $0.listPages(size: listPageSize) }.map { (languages: languages, page: $0) }
        }
        var files: [(path: String, bytes: Data)] = Parallel.map(pages, workers: Self.workers, makeWorker: { _ in () }) { _, item in
            let page = item.page, languages = item.languages
            return (links.inLanguageFolder(languages.folder(of: languages.current)).path(of: page.screen.route, page: page.page?.number ?? 1),
                    Data(renderer.page(page.screen, brand: brand, languages: languages, listPage: page.page).utf8))
        }
        files += images.values.sorted { $0.id < $1.id }.map { image in
            ("images/\(image.id.rawValue).\(links.imageExtensions[image.id] ?? "png")", image.bytes)
        }
        // Two pictures' renditions may be the same bytes: one file.
        var renditionFiles = Set<ImageID>()
        files += renditions.filter { renditionFiles.insert($0.id).inserted }.sorted { $0.id < $1.id }.map { rendition in
            ("images/\(rendition.id.rawValue).webp", rendition.bytes)
        }
        files.append(("style.css", Data(SiteRenderer.stylesheet)))
        files.append((Self.marker, Data("A site written by digno site; writing one again replaces this folder.\n".utf8)))

        let staging = outputURL.deletingLastPathComponent().appendingPathComponent(".\(outputURL.lastPathComponent).writing")
        do {
            try? fileManager.removeItem(at: staging)
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.bytes.write(to: url)
            }
            try Self.replace(outputURL, with: staging)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw .writing(output, reason: "a file cannot be written", cause: ErrorCause(error))
        }
        return Summary(pages: pages.count, languages: bundle.languages, images: images.count, renditions: renditionFiles.count,
                       bytes: files.reduce(0) { $0 + $1.bytes.count })
    }

    /// Moves the finished site into place: the old one aside, the new one in, the old one away.
    private static func replace(_ output: URL, with staging: URL) throws {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: output.path) else {
            try fileManager.moveItem(at: staging, to: output)
            return
        }
        let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old")
        try? fileManager.removeItem(at: old)
        try fileManager.moveItem(at: output, to: old)
        do {
            try fileManager.moveItem(at: staging, to: output)
        } catch {
            try? fileManager.moveItem(at: old, to: output)
            throw error
        }
        try? fileManager.removeItem(at: old)
    }

    /// Every image a screen shows.
    package static func images(in screen: Screen) -> [ImageID] {
        var ids = screen.tabs.map(\.icon)
        switch screen.content {
        case .home(let home): ids += [home.logo, home.picture.image] + home.promotions.map(\.picture.image)
        case .productList(let rows): ids += rows.map(\.icon)
        case .recipeList(let rows): ids += rows.map(\.icon)
        case .product(let detail): ids += detail.pictures.map(\.image) + detail.recipes.map(\.icon) + detail.retailers.map(\.logo)
        case .recipe(let detail): ids += detail.pictures.map(\.image) + detail.products.map(\.icon)
        case .retailerList(let rows): ids += rows.map(\.logo)
        case .company(let company): ids += [company.logo] + company.pictures.map(\.image)
        }
        return ids
    }
}
