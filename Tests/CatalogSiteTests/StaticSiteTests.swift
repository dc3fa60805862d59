import CatalogModel
@testable import CatalogSite
import Foundation
import Testing

/// `digno site` over the bundle of the shipped content (CatalogModelTests' committed fixture).
@Suite struct StaticSiteTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shipped = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/shipped.sqlite").path
    let bundle: CatalogBundle
    let today = Day("2026-11-22")!

    init() throws {
        bundle = try CatalogBundle(path: Self.shipped)
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-site-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every file below `folder`, by its path from there.
    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = folder.standardizedFileURL.path + "/"
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(root.count))] = try Data(contentsOf: url)
        }
        return files
    }

    /// The values of one attribute in a page, as written (still escaped).
    static func attributes(_ name: String, in page: String) -> [String] {
        let marker = " \(name)=\""
        return page.components(separatedBy: marker).dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    @Test func everyScreenIsAPageAndEveryLinkLeadsToAFile() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let summary = try StaticSite(bundle: bundle, today: today).write(to: output.path)
        let files = try Self.files(in: output)
        let pages = files.keys.filter { $0.hasSuffix(".html") }.sorted()
        // Every screen in each of the three languages: Finnish at the root, the others in their folders.
        #expect(summary.pages == 21 * 3 && pages.count == 21 * 3)
        for folder in ["", "sv/", "en/"] {
            #expect(pages.contains(folder + "index.html") && pages.contains(folder + "products/espresso.html") && pages.contains(folder + "recipes/cafe-latte.html"))
        }
        // Each picture's own image, and its WebP renditions (the bundle is of schema 4).
        #expect(summary.images == files.keys.filter { $0.hasPrefix("images/") && !$0.hasSuffix(".webp") }.count && summary.images > 20)
        #expect(summary.renditions == files.keys.filter { $0.hasPrefix("images/") && $0.hasSuffix(".webp") }.count && summary.renditions > summary.images)
        for page in pages {
            let html = String(decoding: files[page]!, as: UTF8.self)
            let language = page.hasPrefix("sv/") ? "sv" : page.hasPrefix("en/") ? "en" : "fi"
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"\(language)\">"), "\(page)")
            let base = URL(fileURLWithPath: "/" + page).deletingLastPathComponent()
            // A srcset's entries are "address width".
            let sources = Self.attributes("srcset", in: html).flatMap { $0.components(separatedBy: ", ").map { String($0.split(separator: " ")[0]) } }
            #expect(html.contains("<source type=\"image/webp\" srcset=\""), "\(page)")
            for link in Self.attributes("href", in: html) + Self.attributes("src", in: html) + sources {
                if link.hasPrefix("https://") || link.hasPrefix("tel:") { continue }
                let target = String(base.appendingPathComponent(link).standardizedFileURL.path.dropFirst())
                #expect(files[target] != nil, "\(page) links to \(link), which is not in the site")
            }
            // Every picture has its text alternative (empty for icons, whose text is beside them).
            #expect(html.components(separatedBy: "<img ").count - 1 == html.components(separatedBy: "<img ").dropFirst().filter { $0.contains(" alt=\"") }.count, "\(page)")
        }
    }

    @Test func aLongListIsSeveralPagesLinkedInOrder() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        // 13 recipes, 5 rows a page: recipes.html, recipes-2.html, recipes-3.html.
        let summary = try StaticSite(bundle: bundle, today: today, listPageSize: 5).write(to: output.path)
        let files = try Self.files(in: output)
        #expect(summary.pages == (21 + 2) * 3)
        let recipes = try bundle.recipeRows()
        #expect(recipes.count == 13)
        for (number, name) in ["recipes.html", "recipes-2.html", "recipes-3.html"].enumerated() {
            let html = String(decoding: try #require(files[name]), as: UTF8.self)
            let rows = Self.attributes("href", in: html).filter { $0.hasPrefix("recipes/") }
            #expect(rows == recipes[(number * 5)..<min(13, number * 5 + 5)].map { "recipes/\($0.id.rawValue).html" }, "\(name)")
            #expect(html.contains("<span class=\"page-number\">Sivu \(number + 1)</span>"))
            #expect(html.contains(#"rel="prev""#) == (number > 0), "\(name)")
            #expect(html.contains(#"rel="next""#) == (number < 2), "\(name)")
        }
        let second = String(decoding: try #require(files["recipes-2.html"]), as: UTF8.self)
        #expect(second.contains(#"<a class="previous" href="recipes.html" rel="prev">"#))
        #expect(second.contains(#"<a class="next" href="recipes-3.html" rel="next">"#))
        // A list of one page has no pager.
        #expect(!String(decoding: try #require(files["products.html"]), as: UTF8.self).contains("class=\"pager\""))
        #expect(files["recipes-4.html"] == nil && files["products-2.html"] == nil)
    }

    @Test func theSameBundleAndDayGiveTheSameBytes() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = StaticSite(bundle: bundle, today: today)
        _ = try site.write(to: folder.appendingPathComponent("first").path)
        _ = try site.write(to: folder.appendingPathComponent("second").path)
        let first = try Self.files(in: folder.appendingPathComponent("first"))
        #expect(first == (try Self.files(in: folder.appendingPathComponent("second"))))
        // Written again over itself: replaced whole, the same files.
        _ = try site.write(to: folder.appendingPathComponent("first").path)
        #expect(first == (try Self.files(in: folder.appendingPathComponent("first"))))
    }

    @Test func aFolderThatIsNotASiteIsLeftAlone() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let precious = folder.appendingPathComponent("thesis.txt")
        try Data("mine".utf8).write(to: precious)
        #expect(throws: StaticSite.Failure.outputNotASite(folder.path)) {
            try StaticSite(bundle: bundle, today: today).write(to: folder.path)
        }
        #expect(try Data(contentsOf: precious) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["thesis.txt"])
    }

    @Test func thePagesFollowTheNavigationBarRules() throws {
        let renderer = try SiteRenderer(links: SiteLinks(style: .server))
        func page(_ route: Route) throws -> String {
            renderer.page(try bundle.screen(for: route, today: today), brand: bundle.release.brand)
        }
        for route in [Route.home, .company] {
            let html = try page(route)
            #expect(!html.contains("navigation-bar"), "\(route) has no navigation bar")
        }
        for (route, title) in [(Route.products, "Tuotteet"), (.recipes, "Kahvireseptit"), (.retailers, "Jälleenmyyjät")] {
            let html = try page(route)
            #expect(html.contains("<header class=\"navigation-bar\">\n\n<h1>\(title)</h1>"), "\(route)")
        }
        for (route, list, title) in [(Route.product("espresso"), "/products", "Tuotteet"), (.recipe("cafe-latte"), "/recipes", "Kahvireseptit")] {
            let html = try page(route)
            // The space between the arrow and the label is the link's own (a gap), not text the
            // flex layout would drop: "‹ Tuotteet", never "‹Tuotteet".
            #expect(html.contains("<a class=\"back\" href=\"\(list)\"><span aria-hidden=\"true\">‹</span>\(title)</a>"), "\(route)")
            #expect(!html.contains("<h1>\(title)</h1>"))
        }
        // The active tab, on every screen, is its section's.
        for route in try StaticSite(bundle: bundle, today: today).routes() {
            let html = try page(route)
            let current = html.components(separatedBy: "aria-current=\"page\"")
            #expect(current.count == 2, "\(route): one active tab")
            #expect(current[0].hasSuffix("<li><a href=\"\(SiteLinks(style: .server).path(of: .root(of: route.section)))\" "), "\(route)")
        }
    }

    @Test func linksAreTheScreensDeepLinks() throws {
        let server = SiteLinks(style: .server), files = SiteLinks(style: .files, imageExtensions: ["ab": "jpg"])
        #expect(server.path(of: .product("espresso")) == "/products/espresso")
        #expect(server.path(of: .home) == "/home")
        #expect(server.href(to: .recipe("cafe-latte"), from: .product("espresso")) == "/recipes/cafe-latte")
        #expect(files.href(to: .recipe("cafe-latte"), from: .product("espresso")) == "../recipes/cafe-latte.html")
        #expect(files.href(to: .home, from: .recipes) == "index.html")
        #expect(files.image("ab", from: .recipe("x")) == "../images/ab.jpg")
        #expect(server.image("ab", from: .recipe("x")) == "/images/ab")
        let html = try SiteRenderer(links: server).page(try bundle.screen(for: .product("espresso"), today: today), brand: "Café Digno")
        #expect(html.contains("href=\"/recipes/cafe-latte\""))

        // Another language's pages are in its folder; the images and the style sheet are shared.
        let swedishFiles = files.inLanguageFolder("sv"), swedishServer = server.inLanguageFolder("sv")
        #expect(swedishServer.path(of: .product("espresso")) == "/sv/products/espresso")
        #expect(swedishServer.href(to: .home, from: .recipes) == "/sv/home")
        #expect(swedishServer.image("ab", from: .recipe("x")) == "/images/ab")
        #expect(swedishFiles.href(to: .recipe("cafe-latte"), from: .product("espresso")) == "../../sv/recipes/cafe-latte.html")
        #expect(swedishFiles.href(to: .recipes, from: .recipes) == "../sv/recipes.html")
        #expect(swedishFiles.image("ab", from: .recipe("x")) == "../../images/ab.jpg")
        #expect(swedishFiles.stylesheet(from: .home) == "../style.css")
        #expect(swedishFiles.href(to: .recipe("x"), inLanguageFolder: nil, from: .recipe("x")) == "../../recipes/x.html")
        #expect(files.href(to: .recipe("x"), inLanguageFolder: "en", from: .recipe("x")) == "../en/recipes/x.html")
    }

    @Test func eachLanguageHasItsPagesItsWordsAndASwitch() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        _ = try StaticSite(bundle: bundle, today: today).write(to: output.path)
        let files = try Self.files(in: output)
        let swedish = String(decoding: try #require(files["sv/recipes/cafe-latte.html"]), as: UTF8.self)
        #expect(swedish.contains("<title>Caffè latte – Kafferecept – Café Digno</title>"))
        // A product and a recipe of one name have titles of their own.
        let titles = try ["products/espresso.html", "recipes/espresso.html"].map { path in
            let html = String(decoding: try #require(files[path]), as: UTF8.self)
            return html.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.1) } ?? ""
        }
        #expect(titles == ["Espresso – Tuotteet – Café Digno", "Espresso – Kahvireseptit – Café Digno"])
        // A detail picture is shown the page's width less its margins.
        #expect(swedish.contains(#"sizes="(max-width: 390px) calc(100vw - 32px), 358px""#))
        #expect(swedish.contains("<h2>Ingredienser</h2>") && swedish.contains("<h2>Gör så här</h2>") && swedish.contains("<h2>Produkter</h2>"))
        #expect(swedish.contains(#"<nav class="tab-bar" aria-label="Avsnitt">"#) && swedish.contains("<span>Kafferecept</span>"))
        #expect(swedish.contains("""
            <nav class="language-switch" aria-label="Språk">
            <ul>
            <li><a href="../../recipes/cafe-latte.html" hreflang="fi" lang="fi">Suomi</a></li>
            <li><a href="../../sv/recipes/cafe-latte.html" hreflang="sv" lang="sv" aria-current="true">Svenska</a></li>
            <li><a href="../../en/recipes/cafe-latte.html" hreflang="en" lang="en">English</a></li>
            </ul>
            </nav>
            """))
        #expect(swedish.contains(#"<link rel="alternate" hreflang="en" href="../../en/recipes/cafe-latte.html">"#))
        // The shipped content is wholly translated: no text in the page has a language of its own.
        let main = try #require(swedish.components(separatedBy: "<main").last)
        #expect(!main.contains(" lang=\""))
        let finnish = String(decoding: try #require(files["recipes/cafe-latte.html"]), as: UTF8.self)
        #expect(finnish.contains("<h2>Ainekset</h2>") && finnish.contains(#"aria-current="true">Suomi</a>"#))
        let english = String(decoding: try #require(files["en/index.html"]), as: UTF8.self)
        #expect(english.contains(#"<section class="promotions" aria-label="Offers">"#) || !english.contains("class=\"promotions\""))
        #expect(english.contains(#"<a href="../index.html" hreflang="fi" lang="fi">Suomi</a>"#))
    }

    @Test func aTextThatFellBackHasItsLanguage() throws {
        let icon: ImageID = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        let swedish = TextLanguages(language: "sv")
        let recipe = RecipeDetail(
            id: "latte", name: "Caffè latte", summary: "Italialainen maitokahvi",
            ingredients: [Ingredient(text: "1 shot espresso", languages: swedish),
                          Ingredient(text: "2 dl täysmaitoa", languages: TextLanguages(language: "sv", fallbacks: [.text: "fi"]))],
            method: RichText(blocks: [.paragraph([.text("Keitä.")])]),
            pictures: [Picture(image: icon, alt: "Latte lasissa", languages: TextLanguages(language: "sv", fallbacks: [.alt: "fi"]))],
            products: [ProductRow(id: "espresso", name: "Espresso", summary: "Tumma paahto", icon: icon,
                                  languages: TextLanguages(language: "sv", fallbacks: [.summary: "fi"]))],
            languages: TextLanguages(language: "sv", fallbacks: [.summary: "fi", .method: "fi"]))
        let tabs = [SectionTab(id: .recipes, title: "Kahvireseptit", icon: icon, languages: TextLanguages(language: "sv", fallbacks: [.title: "fi"]))]
        let screen = Screen(route: .recipe("latte"), tabs: tabs, navigationBar: NavigationBar(title: nil, backButton: "Kahvireseptit"),
                            content: .recipe(recipe))
        let html = try SiteRenderer(links: SiteLinks(style: .server))
            .page(screen, brand: "Café Digno", languages: PageLanguages(current: "sv", all: ["fi", "sv", "en"]))
        #expect(html.contains(#"<html lang="sv">"#))
        #expect(html.contains(#"<h1 class="title">Caffè latte</h1>"#) && html.contains(#"<p class="lead" lang="fi">Italialainen maitokahvi</p>"#))
        #expect(html.contains("<li>1 shot espresso</li>") && html.contains(#"<li lang="fi">2 dl täysmaitoa</li>"#))
        #expect(html.contains(#"alt="Latte lasissa" lang="fi">"#))
        #expect(html.contains(#"<div class="text" lang="fi"><p>Keitä.</p>"#))
        #expect(html.contains(#"<span class="name">Espresso</span><span class="summary" lang="fi">Tumma paahto</span>"#))
        #expect(html.contains(#"<span lang="fi">Kahvireseptit</span>"#) && html.contains(#"<a class="back" href="/sv/recipes" lang="fi">"#))
    }
}
