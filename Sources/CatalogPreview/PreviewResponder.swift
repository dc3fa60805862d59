import CatalogModel
import CatalogSite
import FlyingFox
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers the preview's requests: a screen's page at its deep link (`/products/espresso` for
/// `cafedigno://products/espresso`; in another language of the catalogue under its code,
/// `/sv/products/espresso`), a picture at `/images/SHA-256` from the bundle's BLOBs,
/// the style sheet, and the preview's script, style sheet and event stream under `/_preview/`.
/// Everything else gets a plain refusal.
package struct PreviewResponder: HTTPHandler {
    let session: PreviewSession
    let renderer: SiteRenderer
    /// The day whose promotions Etusivu shows, asked for each page; nil for the bundle's
    /// release date.
    let day: @Sendable () -> Day?
    /// How many rows a list page shows.
    var listPageSize = SiteRenderer.listPageSize
    /// What a server built on the preview answers before it (`digno studio`); its pages then
    /// may frame the preview's (`frame-ancestors 'self'`).
    var addition: (any PreviewAddition)?

    /// Every response's security headers. The pages load nothing but their own style sheets,
    /// pictures and the reload script; no inline script or style runs, no other site may frame
    /// them, and the browser may not guess a type.
    static let securityHeaders: [HTTPHeader: String] = [
        HTTPHeader("Content-Security-Policy"):
            "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        HTTPHeader("X-Content-Type-Options"): "nosniff",
        HTTPHeader("Referrer-Policy"): "no-referrer",
        HTTPHeader("Cross-Origin-Resource-Policy"): "same-origin",
    ]

    package func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let addition, request.target.rawValue.utf8.count <= IncomingRequest.targetLimit,
           Self.isAllowedHost(request.headers[.host], port: session.port) {
            let body = request.method == .GET || request.method == .HEAD ? Data() : ((try? await request.bodyData) ?? Data())
            if let answer = await addition.respond(to: request, body: Array(body), port: session.port) { return answer }
        }
        return respond(to: request)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == .GET else {
            return Self.refusal(.methodNotAllowed, "this preview only answers GET", extra: [HTTPHeader("Allow"): "GET"])
        }
        guard request.target.rawValue.utf8.count <= IncomingRequest.targetLimit else {
            return Self.refusal(.uriTooLong, "the address is longer than \(IncomingRequest.targetLimit) bytes")
        }
        let port = session.port
        guard Self.isAllowedHost(request.headers[.host], port: port) else {
            // DNS rebinding: a page of another site whose name now resolves to this machine.
            return Self.refusal(.forbidden, "this preview answers only requests for localhost:\(port) or an IP address with port \(port)")
        }
        // The raw path, before FlyingFox decodes it: deep links, picture names and the preview's
        // own files are plain ASCII, so anything encoded or climbing is refused as it is.
        let path = request.target.path(percentEncoded: true)
        guard Self.isPlainPath(path) else {
            return Self.refusal(.badRequest, "this preview serves the app's screens, /images/<sha-256> and its style sheets; not this path")
        }
        switch path {
        case "/style.css":
            return Self.file(SiteRenderer.stylesheet, type: "text/css; charset=utf-8")
        case "/_preview/preview.css":
            return Self.file(SiteRenderer.previewStylesheet, type: "text/css; charset=utf-8")
        case "/_preview/preview.js":
            return Self.file(SiteRenderer.previewScript, type: "text/javascript; charset=utf-8")
        case "/_preview/events":
            return events()
        case "/_preview/translations":
            return translations()
        case "/favicon.ico":
            // Browsers ask for it on every site; the app has none, and saying so is not an error.
            return HTTPResponse(statusCode: .noContent, headers: HTTPHeaders(Self.securityHeaders))
        case "/":
            return page(.home, number: 1, language: nil)
        default:
            if path.hasPrefix("/images/") { return image(String(path.dropFirst("/images/".count)), request: request) }
            // A language's pages are in a folder named by its code.
            let (language, path) = Self.languageFolder(of: path, languages: session.shown().bundle?.languages ?? [])
            if path == "/" { return page(.home, number: 1, language: language) }
            guard let route = try? Route(parsing: Route.scheme + ":/" + path) else {
                return notFound("There is no screen at \(path).")
            }
            // A long list is shown a page at a time: `/products?page=2`.
            let pages = request.query.filter { $0.name == "page" }
            guard pages.count <= 1 else { return notFound("Give one page number.") }
            let number = pages.first.map { Int($0.value) ?? 0 } ?? 1
            guard (1...Self.pageLimit).contains(number) else {
                return notFound("A page is a number from 1.")
            }
            return page(route, number: number, language: language)
        }
    }

    /// A path's language folder, if its first segment is one of `languages` other than the
    /// first (the default's pages are at the root), and the rest of the path: `/sv/recipes` is
    /// Swedish's `/recipes`, `/sv` its Etusivu.
    static func languageFolder(of path: String, languages: [String]) -> (language: String?, path: String) {
        let segments = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard segments.count >= 2, languages.dropFirst().contains(String(segments[1])) else { return (nil, path) }
        let rest = path.dropFirst(segments[1].count + 1)
        return (String(segments[1]), rest.isEmpty ? "/" : String(rest))
    }

    /// The highest list page asked for that is looked up (50 rows a page: five million rows).
    static let pageLimit = 100_000

    // MARK: Pages

    private func page(_ route: Route, number: Int, language: String?) -> HTTPResponse {
        let shown = session.shown()
        let head = renderer.previewHead(generation: shown.generation)
        // The panels' own words in the page's language: its folder's, or the catalogue's default.
        let panelLanguage = language ?? shown.problems?.defaultLanguage ?? shown.notes.warnings?.defaultLanguage ?? shown.bundle?.languages.first ?? "fi"
        let foot = (shown.problems.map { renderer.problems($0, language: panelLanguage) }
            ?? shown.notes.warnings.map { renderer.warnings($0, language: panelLanguage) } ?? "")
            + (shown.changes.map(renderer.changes) ?? "")
        guard let shownBundle = shown.bundle else {
            // No build shown yet, and none failed: the first is under way.
            let message = shown.problems == nil ? SiteRenderer.building(language: panelLanguage) : SiteRenderer.notBuilt(language: panelLanguage)
            let html = renderer.notice(
                title: "Café Digno", message: message,
                hasHome: false, language: panelLanguage, head: head, foot: foot)
            return page(html: html, status: .serviceUnavailable)
        }
        let bundle = language.map { shownBundle.reading(in: [$0]) } ?? shownBundle
        let languages = PageLanguages(bundle)
        do throws(ScreenError) {
            let day = day() ?? bundle.release.releaseDate
            guard [.products, .recipes, .retailers].contains(route) else {
                guard number == 1 else { return notFound("Only the lists have pages.") }
                let screen = try bundle.screen(for: route, today: day)
                let ladders: [ImageID: [ImageRendition]]
                do { ladders = try Self.ladders(of: screen, in: bundle) } catch { throw ScreenError.bundle(error) }
                return page(html: renderer.page(screen, brand: bundle.release.brand, languages: languages, head: head, foot: foot, ladders: ladders),
                                 status: .ok)
            }
            // The page's rows and one more, which says whether another page follows.
            let size = listPageSize
            let read = try bundle.screen(for: route, today: day, rows: (number - 1) * size..<number * size + 1)
            let count = read.listCount ?? 0
            guard number == 1 || count > 0 else { return notFound("This list has no page \(number).") }
            let listPage = ListPage(number: number, hasNext: count > size)
            let shownRows = read.listRows(0..<size)
            let ladders: [ImageID: [ImageRendition]]
            do { ladders = try Self.ladders(of: shownRows, in: bundle) } catch { throw ScreenError.bundle(error) }
            return page(html: renderer.page(shownRows, brand: bundle.release.brand, languages: languages, listPage: listPage,
                                           head: head, foot: foot, ladders: ladders), status: .ok)
        } catch {
            switch error {
            case .route(let reason): return notFound(reason.description)
            case .bundle(let reason): return Self.refusal(.internalServerError, "the bundle cannot be read: \(reason)")
            }
        }
    }

    /// The translation page: each language's coverage, and its missing and outdated
    /// translations with links to their screens, as of the last version that built.
    private func translations() -> HTTPResponse {
        let shown = session.shown()
        let html = renderer.translations(
            shown.notes.translations, head: renderer.previewHead(generation: shown.generation), foot: shown.problems.map { renderer.problems($0, language: $0.defaultLanguage) } ?? "")
        return page(html: html, status: .ok)
    }

    /// A screen that is not there, such as a product just removed. The page still reloads on
    /// the next build, so it comes back when the product does.
    private func notFound(_ message: String) -> HTTPResponse {
        let shown = session.shown()
        let html = renderer.notice(
            title: "Ei löytynyt", message: message, hasHome: true,
            head: renderer.previewHead(generation: shown.generation), foot: shown.problems.map { renderer.problems($0, language: $0.defaultLanguage) } ?? "")
        return page(html: html, status: .notFound)
    }

    // MARK: Events

    /// Server-Sent Events: the number of each build, so that open pages update.
    private func events() -> HTTPResponse {
        HTTPResponse(
            statusCode: .ok,
            headers: HTTPHeaders(Self.securityHeaders.merging([
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            ]) { $1 }),
            body: HTTPBodySequence(from: EventBytes(chunks: session.listen())))
    }

    // MARK: Responses

    private func page(html: String, status: HTTPStatusCode) -> HTTPResponse {
        var headers = Self.securityHeaders.merging([.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]) { $1 }
        if addition != nil {
            // Shown beside a form of the server built on it, in a frame of its own origin.
            headers[HTTPHeader("Content-Security-Policy")] = headers[HTTPHeader("Content-Security-Policy")]?
                .replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors 'self'")
        }
        return HTTPResponse(statusCode: status, headers: HTTPHeaders(headers), body: Data(html.utf8))
    }

    private static func file(_ bytes: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: .ok,
            headers: HTTPHeaders(securityHeaders.merging([.contentType: type, .cacheControl: "no-cache"]) { $1 }),
            body: Data(bytes))
    }

    /// A plain-text refusal: the status and one sentence, nothing from the request echoed.
    package static func refusal(_ status: HTTPStatusCode, _ message: String, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        HTTPResponse(
            statusCode: status,
            headers: HTTPHeaders(securityHeaders.merging(extra.merging([.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"]) { $1 }) { $1 }),
            body: Data("\(status.code) \(status.phrase): \(message)\n".utf8))
    }

    // MARK: Checks

    /// A path of `/` and letters, digits, `-`, `_` and `.` only, with no empty or dot-only
    /// segment (but for one trailing slash): what the app's deep links, picture names and the preview's files are made of.
    static func isPlainPath(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let allowed = path.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"): true
            default: false
            }
        }
        guard allowed else { return false }
        if path == "/" { return true }
        // One trailing slash is allowed (`/products/`), as a route allows it.
        let segments = path.dropFirst().dropLast(path.hasSuffix("/") ? 1 : 0).split(separator: "/", omittingEmptySubsequences: false)
        return segments.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Whether a request's `Host` is this server: `localhost` or an IP address (v4, or v6 in
    /// brackets), with the port it listens on. A name that resolves here by DNS rebinding is
    /// neither, so a page of another site cannot read the preview.
    static func isAllowedHost(_ host: String?, port: UInt16) -> Bool {
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        let name: Substring, portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = host[host.index(after: host.startIndex)..<close]
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            portText = rest.isEmpty ? nil : rest.dropFirst()
            guard isAddress(String(name), family: AF_INET6) else { return false }
        } else {
            let parts = host.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            name = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard name == "localhost" || isAddress(String(name), family: AF_INET) else { return false }
        }
        if let portText { return portText == String(port) }
        return port == 80
    }

    private static func isAddress(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }
}
