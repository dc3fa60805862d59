import BundleCompiler
import CatalogModel
@testable import CatalogPreview
import CatalogSite
import FlyingFox
import Foundation
import Testing

/// What the preview answers, request by request, over the bundle of the shipped content
/// (CatalogModelTests' committed fixture): pages, pictures, and a plain refusal for everything
/// hostile.
@Suite struct PreviewResponderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shipped = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/shipped.sqlite").path
    static let port: UInt16 = 8400

    let bundle: CatalogBundle
    let session = PreviewSession(run: "test")
    static let day = Day("2026-11-22")
    let responder: PreviewResponder

    init() throws {
        bundle = try CatalogBundle(path: Self.shipped)
        session.port = Self.port
        responder = PreviewResponder(session: session, renderer: try SiteRenderer(links: SiteLinks(style: .server)), day: { Self.day })
    }

    func show(_ bundle: CatalogBundle) {
        // The first bundle shown replaces none, so no file is named for removal.
        #expect(session.record(.built(bundle, path: Self.shipped, written: .rebuilt(reason: nil))).isEmpty)
    }

    func get(_ path: String, query: String = "", host: String? = "127.0.0.1:8400", headers: [HTTPHeader: String] = [:], method: HTTPMethod = .GET) -> HTTPResponse {
        var all = headers
        if let host { all[.host] = host }
        return responder.respond(to: HTTPRequest(
            method: method, version: .http11, target: HTTPRequest.Target(path: path, query: query),
            headers: HTTPHeaders(all), body: HTTPBodySequence()))
    }

    static func text(_ response: HTTPResponse) async throws -> String {
        guard case .httpBody(let body) = response.payload else { return "" }
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Before the first build is shown (the studio says its address once the content is
    /// checked), a page says it is being built; after a first build that failed, that the
    /// errors are to be fixed; then the page.
    @Test func aPageBeforeTheFirstBuildSaysItIsBeingBuilt() async throws {
        let before = get("/recipes/cafe-latte")
        #expect(before.statusCode == .serviceUnavailable)
        #expect(try await Self.text(before).contains("Sisältöä rakennetaan: sivu päivittyy, kun se on valmis."))
        _ = session.record(.failed(PreviewBuilder.panel(failure: "a test's failure"), text: "error\n"))
        #expect(try await Self.text(get("/recipes/cafe-latte")).contains("Sisältöä ei ole vielä rakennettu"))
        show(bundle)
        #expect(get("/recipes/cafe-latte").statusCode == .ok)
    }

    @Test func eachLanguagesPagesAreInItsFolder() async throws {
        show(bundle)
        for (path, language, heading) in [
            ("/sv", "sv", nil), ("/sv/", "sv", nil), ("/sv/home", "sv", nil), ("/en/recipes", "en", "<h1>Coffee recipes</h1>"),
            ("/sv/recipes/cafe-latte", "sv", "<h2>Ingredienser</h2>"), ("/en/products?page=1", "en", "<h1>Products</h1>"),
            ("/recipes/cafe-latte", "fi", "<h2>Ainekset</h2>"),
        ] {
            let response = get(String(path.split(separator: "?")[0]), query: path.contains("?") ? String(path.split(separator: "?")[1]) : "")
            #expect(response.statusCode == .ok, "\(path)")
            let page = try await Self.text(response)
            #expect(page.contains("<html lang=\"\(language)\">"), "\(path)")
            if let heading { #expect(page.contains(heading), "\(path)") }
        }
        // A language the catalogue does not have, or its default's code, is no folder.
        for path in ["/de/recipes", "/fi/recipes", "/sv/sv/recipes"] {
            #expect(get(path).statusCode == .notFound, "\(path)")
        }
        #expect(PreviewResponder.languageFolder(of: "/sv/products/espresso", languages: ["fi", "sv"]) == ("sv", "/products/espresso"))
        #expect(PreviewResponder.languageFolder(of: "/svx/products", languages: ["fi", "sv"]) == (nil, "/svx/products"))
        #expect(PreviewResponder.languageFolder(of: "/fi/products", languages: ["fi", "sv"]) == (nil, "/fi/products"))
    }

    @Test func pagesAreServedAtTheirDeepLinks() async throws {
        show(bundle)
        let product = try #require(try await bundle.productRows().first)
        for path in ["/", "/home", "/products", "/products/\(product.id.rawValue)", "/recipes", "/retailers", "/company", "/products/"] {
            let response = get(path)
            #expect(response.statusCode == .ok, "\(path)")
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[HTTPHeader("Content-Security-Policy")] ==
                    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
            #expect(response.headers[HTTPHeader("X-Content-Type-Options")] == "nosniff")
            #expect(response.headers[HTTPHeader("Referrer-Policy")] == "no-referrer")
            let page = try await Self.text(response)
            #expect(page.contains("<meta name=\"digno-generation\" content=\"test-1\">"), "\(path)")
            #expect(page.contains("<script src=\"/_preview/preview.js\" defer></script>"))
            #expect(!page.contains("digno-problems"))
        }
        let detail = try await Self.text(get("/products/\(product.id.rawValue)"))
        #expect(detail.contains(product.name))
    }

    @Test func aLongListIsServedAPageAtATime() async throws {
        show(bundle)
        var paged = responder
        paged.listPageSize = 5
        func get(_ query: String) -> HTTPResponse {
            paged.respond(to: HTTPRequest(
                method: .GET, version: .http11, target: HTTPRequest.Target(path: "/recipes", query: query),
                headers: HTTPHeaders([.host: "127.0.0.1:8400"]), body: HTTPBodySequence()))
        }
        let recipes = try await bundle.recipeRows()
        for (number, query) in ["", "page=2", "page=3"].enumerated() {
            let response = get(query)
            #expect(response.statusCode == .ok, "\(query)")
            let page = try await Self.text(response)
            let rows = page.components(separatedBy: "href=\"/recipes/").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
            #expect(rows == recipes[(number * 5)..<min(13, number * 5 + 5)].map(\.id.rawValue), "\(query)")
            #expect(page.contains(#"rel="next""#) == (number < 2))
        }
        #expect(try await Self.text(get("page=2")).contains(#"<a class="previous" href="/recipes" rel="prev">"#))
        #expect(try await Self.text(get("page=2")).contains(#"<a class="next" href="/recipes?page=3" rel="next">"#))
        for query in ["page=4", "page=0", "page=-1", "page=x", "page=1&page=2", "page=100001"] {
            #expect(get(query).statusCode == .notFound, "\(query)")
        }
        #expect(self.get("/products/espresso", query: "page=2").statusCode == .notFound)
        #expect(self.get("/products", query: "page=1").statusCode == .ok)
    }

    @Test func aScreenThatIsNotThereIsANotFoundPageThatStillReloads() async throws {
        show(bundle)
        for path in ["/products/no-such-product", "/recipes/no-such-recipe", "/nowhere", "/products/a/b"] {
            let response = get(path)
            #expect(response.statusCode == .notFound, "\(path)")
            let page = try await Self.text(response)
            #expect(page.contains("digno-generation"), "\(path)")
        }
    }

    @Test func picturesComeFromTheBundleUnderTheirSHA256ForGood() async throws {
        show(bundle)
        let product = try #require(try await bundle.productRows().first)
        let response = get("/images/\(product.icon.rawValue)")
        #expect(response.statusCode == .ok)
        #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
        let stored = try #require(try await bundle.image(product.icon))
        #expect(response.headers[.contentType] == stored.mediaType)
        guard case .httpBody(let body) = response.payload else { Issue.record("no body"); return }
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        #expect(data == stored.bytes)

        let again = get("/images/\(product.icon.rawValue)", headers: [.ifNoneMatch: "\"\(product.icon.rawValue)\""])
        #expect(again.statusCode == .notModified)
        #expect(get("/images/" + String(repeating: "0", count: 64)).statusCode == .notFound)
        #expect(get("/images/" + product.icon.rawValue.uppercased()).statusCode == .notFound)
        #expect(get("/images/short").statusCode == .notFound)
    }

    /// A picture's WebP renditions at `/images/PICTURE/WIDTH.webp`, as the pages' srcset names
    /// them, and nothing else under the picture.
    @Test func renditionsAreServedAtTheirPicturesAddressAndWidth() async throws {
        show(bundle)
        let product = try #require(try await bundle.productRows().first)
        let webp = try #require(try await bundle.renditions(of: product.icon).last { $0.format == .webp })  // the narrowest, first in srcset
        let path = "/images/\(product.icon.rawValue)/\(webp.width).webp"
        let response = get(path)
        #expect(response.statusCode == .ok)
        #expect(response.headers[.contentType] == "image/webp")
        guard case .httpBody(let body) = response.payload else { Issue.record("no body"); return }
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        #expect(try await data == bundle.image(webp)?.bytes)
        let tag = try #require(response.headers[.eTag])
        #expect(get(path, headers: [.ifNoneMatch: tag]).statusCode == .notModified)
        // The page shows it: the source of its icon.
        let list = try await Self.text(get("/products"))
        #expect(list.contains("<source type=\"image/webp\" srcset=\"\(path) \(webp.width)w"), "\(list)")
        for refused in ["/images/\(product.icon.rawValue)/\(webp.width + 1).webp", "/images/\(product.icon.rawValue)/\(webp.width).png",
                        "/images/\(product.icon.rawValue)/0\(webp.width).webp", "/images/\(product.icon.rawValue)/-1.webp",
                        "/images/\(product.icon.rawValue)/99999999999999999999.webp", "/images/\(product.icon.rawValue)/\(webp.width).webp.webp",
                        "/images/\(product.icon.rawValue)/x/\(webp.width).webp", "/images/\(String(repeating: "0", count: 64))/\(webp.width).webp"] {
            #expect(get(refused).statusCode == .notFound, "\(refused)")
        }
    }

    @Test func theHostMustBeThisServerSoDNSRebindingIsRefused() async throws {
        show(bundle)
        for host in ["127.0.0.1:8400", "localhost:8400", "LOCALHOST:8400", "[::1]:8400", "192.168.1.20:8400"] {
            #expect(get("/", host: host).statusCode == .ok, "\(host)")
        }
        for host: String? in [nil, "", "evil.example:8400", "evil.example", "127.0.0.1:8401", "127.0.0.1", "localhost.evil.example:8400",
                              "127.0.0.1.nip.io:8400", "[::1]", "[evil]:8400", "127.0.0.1:8400:1", "localhost:8400@evil.example"] {
            let response = get("/", host: host)
            #expect(response.statusCode == .forbidden, "\(host ?? "no Host")")
            #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(try await Self.text(response) == "403 Forbidden: this preview answers only requests for localhost:8400 or an IP address with port 8400\n")
        }
        #expect(PreviewResponder.isAllowedHost("localhost", port: 80))
    }

    @Test func pathsOutsideTheAppAreRefusedAsTheyAre() async throws {
        show(bundle)
        for path in ["/images/../../etc/passwd", "/images/..%2f..%2fetc%2fpasswd", "/images/%2e%2e/x", "/%2e%2e/", "/products/../company",
                     "//etc/passwd", "/images\\..\\x", "/products/espresso%00", "/./home", "/products//espresso", "/style.css/.."] {
            let response = get(path)
            #expect(response.statusCode == .badRequest, "\(path)")
            let text = try await Self.text(response)
            #expect(text.hasPrefix("400 Bad Request: "))
            #expect(!text.contains("passwd"))
        }
    }

    @Test func hugeAddressesOtherMethodsAndTheFilesOfThePreview() async throws {
        show(bundle)
        #expect(get("/", query: String(repeating: "a", count: 3000)).statusCode == .uriTooLong)
        #expect(get("/", query: "x=1").statusCode == .ok)
        let post = get("/", method: .POST)
        #expect(post.statusCode == .methodNotAllowed)
        #expect(post.headers[HTTPHeader("Allow")] == "GET")
        #expect(get("/style.css").headers[.contentType] == "text/css; charset=utf-8")
        #expect(get("/_preview/preview.css").statusCode == .ok)
        #expect(get("/_preview/preview.js").headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(get("/_preview/other.js").statusCode == .notFound)
        let events = get("/_preview/events")
        #expect(events.headers[.contentType] == "text/event-stream; charset=utf-8")
        session.close()
    }

    @Test func openPagesAreToldOfEveryBuildAndForgottenWhenTheyClose() async throws {
        show(bundle)
        do {
            let response = get("/_preview/events")
            guard case .httpBody(let body) = response.payload else { Issue.record("no body"); return }
            #expect(session.listenerCount == 1)
            var events = body.makeAsyncIterator()
            // Chunked: each event is one chunk, "<size in hex>\r\n<event>\r\n".
            func next() async throws -> String {
                let chunk = Array(try await events.next() ?? Data())
                guard let end = chunk.indices.first(where: { chunk[$0] == 0x0D && chunk[$0 + 1] == 0x0A }), chunk.count >= end + 4 else { return "" }
                return String(decoding: chunk[(end + 2)..<(chunk.count - 2)], as: UTF8.self)
            }
            #expect(try await next() == "retry: 500\ndata: test-1\n\n")
            _ = session.record(.failed(DiagnosticsPanel(summary: .counts(errors: 1, warnings: 0, files: 3), problems: [], hasLastGood: true), text: ""))
            #expect(try await next() == "data: test-2\n\n")
            session.keepAlive()
            #expect(try await next() == ": keep-alive\n\n")
        }
        // The page went away, and its response with it: its stream is let go.
        #expect(session.listenerCount == 0)
        // Once the server is stopping, a new stream ends at once.
        session.close()
        guard case .httpBody(let late) = get("/_preview/events").payload else { Issue.record("no body"); return }
        var chunks: [Data] = []
        for try await chunk in late { chunks.append(chunk) }
        #expect(chunks == [Data("0\r\n\r\n".utf8)])
    }

    @Test func problemsShowOverTheLastVersionThatBuiltEscaped() async throws {
        show(bundle)
        let panel = DiagnosticsPanel(
            summary: .counts(errors: 1, warnings: 0, files: 3),
            problems: [.init(place: "products/<b>.xml:3:7:", severity: "error", message: "<script>alert(1)</script> is wrong", code: "xml-malformed")],
            hasLastGood: false)
        #expect(session.record(.failed(panel, text: "")).isEmpty)
        let page = try await Self.text(get("/products"))
        #expect(page.contains("<meta name=\"digno-generation\" content=\"test-2\">"))
        #expect(page.contains("Sisällössä on virheitä: 1 virhe, 0 varoitusta 3 tiedostossa"))
        #expect(page.contains("Paneelin alla on viimeisin versio, joka rakentui."))
        #expect(page.contains(#"<li class="error"><span class="place">products/&lt;b&gt;.xml:3:7:</span> <span class="severity">virhe:</span> <span class="message" lang="en">&lt;script&gt;alert(1)&lt;/script&gt; is wrong</span> <span class="code">[xml-malformed]</span></li>"#))
        #expect(page.contains("class=\"tab-bar\""), "the app is still under the panel")
        // The same problems again change nothing: open pages do not reload.
        #expect(session.record(.failed(panel, text: "")).isEmpty)
        #expect(session.shown().generation == "test-2")
        // Fixed: the panel goes, and the pages update; the bundle shown was not changed.
        #expect(session.record(.built(bundle, path: Self.shipped, written: .unchanged)).isEmpty)
        #expect(session.shown().generation == "test-3")
        // Written whole into a new file: the one before is retired, and removed at the swap after.
        let rebuilt = "/nonexistent/preview-2.sqlite"
        #expect(session.record(.built(bundle, path: rebuilt, written: .rebuilt(reason: "the languages in catalog.xml changed"))).isEmpty)
        #expect(session.record(.built(bundle, path: "/nonexistent/preview-3.sqlite", written: .rebuilt(reason: nil)))
            == PatchableBundle.files(ofBundle: Self.shipped))
        #expect(session.shown().generation == "test-5")
        #expect(try await !Self.text(get("/products")).contains("digno-problems"))
    }

    @Test func beforeAnyVersionBuiltThePageIsTheProblemsAlone() async throws {
        let panel = DiagnosticsPanel(summary: .failed, problems: [.init(place: "", severity: "error", message: "no catalog.xml", code: "")], hasLastGood: false)
        _ = session.record(.failed(panel, text: ""))
        let response = get("/products")
        #expect(response.statusCode == .serviceUnavailable)
        let page = try await Self.text(response)
        #expect(page.contains(#"<li class="error"><span class="severity">virhe:</span> <span class="message" lang="en">no catalog.xml</span></li>"#))
        #expect(page.contains("Sisällössä on virheitä: rakentaminen epäonnistui"))
        #expect(page.contains("Sisältöä ei ole vielä rakennettu"))
        #expect(!page.contains("Paneelin alla"))
        #expect(get("/images/" + String(repeating: "a", count: 64)).statusCode == .notFound)
    }
}
