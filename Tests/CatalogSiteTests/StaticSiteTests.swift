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
        #expect(summary.pages == 21 && pages.count == 21)
        #expect(pages.contains("index.html") && pages.contains("products/espresso.html") && pages.contains("recipes/cafe-latte.html"))
        #expect(summary.images == files.keys.filter { $0.hasPrefix("images/") }.count && summary.images > 20)
        for page in pages {
            let html = String(decoding: files[page]!, as: UTF8.self)
            #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"fi\">"), "\(page)")
            let base = URL(fileURLWithPath: "/" + page).deletingLastPathComponent()
            for link in Self.attributes("href", in: html) + Self.attributes("src", in: html) {
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
        #expect(summary.pages == 21 + 2)
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
            #expect(html.contains("<a class=\"back\" href=\"\(list)\"><span aria-hidden=\"true\">‹ </span>\(title)</a>"), "\(route)")
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
    }
}
