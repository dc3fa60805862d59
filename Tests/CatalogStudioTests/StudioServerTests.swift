@testable import BundleCompiler
import CatalogContent
import CatalogModel
@testable import CatalogStudio
import Foundation
import Testing
import TestSupport

/// The studio as it runs: a real server on a free port of 127.0.0.1 over a copy of the shipped
/// content, its forms read and posted as a browser does, the files changed under it as a text
/// editor or `git pull` would. (Tests/Browser drives it through Chromium.)
@Suite(.serialized, .timeLimit(.minutes(10))) struct StudioServerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let token = "test-token-0123456789"

    /// A copy of content/ to edit.
    static func contentCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-tests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("content"), to: folder)
        return folder
    }

    /// A started studio over a copy of content/, stopped and removed whatever happens.
    static func withStudio(content given: URL? = nil, prepare: (URL) throws -> String? = { _ in nil }, _ body: (Studio) async throws -> Void) async throws {
        let content = try given ?? contentCopy()
        let drafts = content.path + "-drafts"
        defer {
            try? FileManager.default.removeItem(at: content)
            try? FileManager.default.removeItem(atPath: drafts)
        }
        var options = StudioServer.Options(contentFolder: content.path, port: 0, day: { Day("2026-11-22") }, run: "test", token: token, draftsFolder: drafts)
        // A release to compare with, made of the content before the test changes it.
        options.compare = try prepare(content)
        let server = try StudioServer(options: options)
        let address = try await server.start()
        let port = try #require(UInt16(address.split(separator: ":").last?.split(separator: "/").first ?? ""))
        do {
            try await body(Studio(content: content, port: port))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    struct Studio {
        var content: URL
        var port: UInt16
        var origin: String { "http://127.0.0.1:\(port)" }

        /// One request on a connection of its own, as raw bytes go.
        func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "", bytes: [UInt8]? = nil) async throws -> Answer {
            let payload = bytes ?? Array(body.utf8)
            var all = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { $1 }
            if headers["Content-Length"] == nil, !payload.isEmpty || method == "POST" { all["Content-Length"] = String(payload.count) }
            let head = "\(method) \(path) HTTP/1.1\r\n" + all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
            let connection = try RawConnection(port: port)
            await connection.send(Array(head.utf8) + payload)
            let text = String(decoding: await connection.readAll(), as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let lines = parts[0].components(separatedBy: "\r\n")
            let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return Answer(status: status, headers: fields, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
        }

        func get(_ path: String) async throws -> Answer { try await request("GET", path) }

        /// A form posted as the studio's page posts it.
        func post(_ path: String, _ fields: [(String, String)], token: String = StudioServerTests.token, origin: String? = nil) async throws -> Answer {
            let body = ([("token", token)] + fields).map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
            return try await request("POST", path, headers: ["Origin": origin ?? self.origin, "Content-Type": "application/x-www-form-urlencoded"], body: body)
        }

        /// A photo dropped on a picture field, as the page's script sends it.
        func upload(_ entity: String, field: String, name: String, _ bytes: [UInt8], type: String = "image/png", token: String = StudioServerTests.token,
                    headers: [String: String] = [:]) async throws -> Answer {
            try await request("POST", "/_studio/upload/\(entity)?field=\(field)&name=\(Self.encode(name))",
                              headers: ["Origin": origin, "Content-Type": type, "X-Studio-Token": token].merging(headers) { $1 }, bytes: bytes)
        }

        /// The files under `images/`, by path.
        func pictures() throws -> [String] {
            let images = content.appendingPathComponent("images")
            let found = FileManager.default.enumerator(atPath: images.path)?.compactMap { $0 as? String } ?? []
            return found.filter { !$0.hasSuffix("/") && !FileManager.default.fileExists(atPath: images.appendingPathComponent($0).path + "/.") }.sorted()
        }

        static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)?.replacingOccurrences(of: "%20", with: "+") ?? ""
        }

        func file(_ path: String) throws -> String { try String(contentsOf: content.appendingPathComponent(path), encoding: .utf8) }

        func write(_ path: String, _ text: String) throws { try text.write(to: content.appendingPathComponent(path), atomically: true, encoding: .utf8) }

        /// The form's texts as its page holds them: each `t:` and `o:` field with its value.
        func form(_ path: String) async throws -> [(String, String)] {
            let page = try await get(path)
            #expect(page.status == 200)
            return StudioServerTests.fields(of: page.body)
        }

        /// Waits until the last check has seen the files (the preview's, after a save it heard).
        func settled(_ condition: @escaping (String) -> Bool) async throws {
            while !condition(try await get("/_studio/").body) { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    /// The fields of a form page as a browser sends them, in order (the token apart, and the
    /// new-line template left out): texts, lists' rows, choices, and what the form opened.
    static func fields(of page: String) -> [(String, String)] {
        let form = page.replacing(#/<template[^>]*>.*?</template>/#.dotMatchesNewlines(), with: "")
        var fields: [(Int, String, String)] = []
        let inputs = #/<input[^>]* name="([^"]*)"[^>]*? value="([^"]*)"/#
        let areas = #/<textarea[^>]* name="([^"]*)"[^>]*>([^<]*)</textarea>/#
        for match in form.matches(of: inputs) where match.1 != "token" && !match.1.hasPrefix("c:") && !match.1.hasPrefix("d:") {
            fields.append((form.distance(from: form.startIndex, to: match.range.lowerBound), unescape(String(match.1)), unescape(String(match.2))))
        }
        for match in form.matches(of: areas) {
            fields.append((form.distance(from: form.startIndex, to: match.range.lowerBound), unescape(String(match.1)), unescape(String(match.2))))
        }
        return fields.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func replacing(_ fields: [(String, String)], _ name: String, with value: String) -> [(String, String)] {
        fields.map { $0.0 == name ? ($0.0, value) : $0 }
    }

    // MARK: Reading

    @Test func theOverviewListsEveryEntityAndFiltersByName() async throws {
        try await Self.withStudio { studio in
            let overview = try await studio.get("/_studio/")
            #expect(overview.status == 200)
            #expect(overview.headers["content-security-policy"]?.contains("form-action 'self'") == true)
            for id in ["espresso", "coffee-beans", "cafe-latte", "pressokahvi", "deling-group"] { #expect(overview.body.contains("/\(id)\"")) }
            let filtered = try await studio.get("/_studio/results?q=latte")
            #expect(filtered.body.contains("/_studio/edit/recipe/cafe-latte"))
            #expect(filtered.body.contains("/_studio/edit/recipe/latte-macchiato"))
            #expect(!filtered.body.contains("/_studio/edit/recipe/cappuccino"))
            // A picker's suggestions: those matching what is typed, by name or id.
            let suggested = try await studio.get("/_studio/suggest?list=products-list&q=COFFEE")
            #expect(suggested.body.contains("value=\"coffee-beans\"") && suggested.body.contains("value=\"ground-coffee\"") && !suggested.body.contains("value=\"espresso\""))
            let links = try await studio.get("/_studio/suggest?list=links-list&q=recipe:latte")
            #expect(links.body.contains("value=\"recipe:cafe-latte\"") && !links.body.contains("value=\"product:"))
            #expect(try await studio.get("/_studio/suggest?list=other&q=x").status == 404)
            // The words of the page in the browser's language, or the one chosen.
            let swedish = try await studio.request("GET", "/_studio/", headers: ["Accept-Language": "sv-FI,sv;q=0.9"])
            #expect(swedish.body.contains("<html lang=\"sv\">") && swedish.body.contains("Filtrera på namn"))
            let english = try await studio.get("/_studio/?ui=en")
            #expect(english.headers["set-cookie"]?.hasPrefix("studio-ui=en;") == true)
            let remembered = try await studio.request("GET", "/_studio/", headers: ["Cookie": "studio-ui=en", "Accept-Language": "sv"])
            #expect(remembered.body.contains("<html lang=\"en\">"))
        }
    }

    /// Every shipped entity's form opened and sent back unchanged: nothing is written.
    @Test func everyShippedFormSentBackUnchangedWritesNothing() async throws {
        try await Self.withStudio { studio in
            let overview = try await studio.get("/_studio/")
            let forms = overview.body.matches(of: #/href="(/_studio/edit/[a-z0-9/-]+)"/#).map { String($0.1) }
            #expect(forms.count >= 20)
            let before = try Self.snapshot(studio.content)
            for form in forms {
                let fields = try await studio.form(form)
                #expect(!fields.isEmpty, "\(form)")
                let saved = try await studio.post(form.replacingOccurrences(of: "/edit/", with: "/save/"), fields)
                #expect(saved.status == 303 && saved.headers["location"]?.hasSuffix("?saved=0") == true, "\(form): \(saved.status)")
            }
            #expect(try Self.snapshot(studio.content) == before)
        }
    }

    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? FileManager.default.enumerator(atPath: "/")!
        where url.pathExtension == "xml" {
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    // MARK: Saving

    @Test func aSaveChangesOnlyItsElementsAndThePreviewShowsIt() async throws {
        try await Self.withStudio { studio in
            let before = try studio.file("products/espresso.xml")
            var fields = try await studio.form("/_studio/edit/product/espresso")
            fields = Self.replacing(fields, "t:summary@en", with: "Dark & strong")
            fields = Self.replacing(fields, "t:summary@sv", with: "")
            let saved = try await studio.post("/_studio/save/product/espresso", fields)
            #expect(saved.status == 303)
            #expect(saved.headers["location"] == "/_studio/edit/product/espresso?saved=1")
            let after = try studio.file("products/espresso.xml")
            #expect(after == before.replacingOccurrences(of: "<summary xml:lang=\"en\">Dark-roast ground espresso</summary>", with: "<summary xml:lang=\"en\">Dark &amp; strong</summary>")
                .replacingOccurrences(of: "  <summary xml:lang=\"sv\">Mörkrostat malet espressokaffe</summary>\n", with: ""))
            // The preview beside the form shows the saved text once it has patched its bundle.
            while !(try await studio.get("/en/products/espresso").body.contains("Dark &amp; strong")) { try await Task.sleep(for: .milliseconds(50)) }
            // Undone: the file as it was.
            let undone = try await studio.post("/_studio/undo/product/espresso", [])
            #expect(undone.status == 303 && undone.headers["location"] == "/_studio/edit/product/espresso?undone=1")
            #expect(try studio.file("products/espresso.xml") == before)
        }
    }

    /// A list's lines reordered and one added (naming a product), a position and a promotion's
    /// last day and link chosen: each written anew in the shipped files' layout, nothing else.
    @Test func listsAndChoicesAreWrittenInTheShippedLayout() async throws {
        try await Self.withStudio { studio in
            let before = try studio.file("recipes/cafe-latte.xml")
            let fields = try await studio.form("/_studio/edit/recipe/cafe-latte")
            // The two lines swapped (their fields, in the order a browser sends them), a third added.
            var rows: [[(String, String)]] = []
            var others: [(String, String)] = []
            for field in fields {
                if field.0 == "l:ingredients:row" { rows.append([field]) }
                else if field.0.hasPrefix("l:ingredients"), !field.0.hasSuffix(":present"), !rows.isEmpty { rows[rows.count - 1].append(field) }
                else { others.append(field) }
            }
            #expect(rows.count == 2)
            let added = [("l:ingredients:row", ""), ("l:ingredients:ref", "ground-coffee"), ("l:ingredients@fi", "Kanelia"), ("l:ingredients@sv", ""),
                         ("l:ingredients@en", "Cinnamon")]
            let sent = Self.replacing(others, "v:position", with: "4") + [("l:ingredients:present", "")] + rows[1] + rows[0] + added
            let saved = try await studio.post("/_studio/save/recipe/cafe-latte", sent)
            #expect(saved.status == 303, "\(saved.body)")
            let lines = [
                "    <ingredient>2–3 dl täysmaitoa</ingredient>", "    <ingredient xml:lang=\"sv\">2–3 dl standardmjölk</ingredient>",
                "    <ingredient xml:lang=\"en\">200–300 ml whole milk</ingredient>",
                "    <ingredient product=\"espresso\">1–2 annosta Café Digno Espressoa</ingredient>",
                "    <ingredient xml:lang=\"sv\">1–2 shots Café Digno Espresso</ingredient>", "    <ingredient xml:lang=\"en\">1–2 shots of Café Digno Espresso</ingredient>",
                "    <ingredient product=\"ground-coffee\">Kanelia</ingredient>", "    <ingredient xml:lang=\"en\">Cinnamon</ingredient>",
            ]
            let old = before.components(separatedBy: "\n").filter { $0.hasPrefix("    <ingredient") }
            #expect(try studio.file("recipes/cafe-latte.xml") == before
                .replacingOccurrences(of: old.joined(separator: "\n"), with: lines.joined(separator: "\n"))
                .replacingOccurrences(of: "<recipe id=\"cafe-latte\"", with: "<recipe id=\"cafe-latte\" position=\"4\""))

            // A promotion's last day and link.
            let home = try studio.file("home.xml")
            let promotion = try await studio.get("/_studio/")
            let path = try #require(promotion.body.firstMatch(of: #/href="(/_studio/edit/promotion/[a-z0-9-]+)"/#)).1
            let promotionFields = try await studio.form(String(path))
            let chosen = Self.replacing(Self.replacing(promotionFields, "v:last-day", with: "2027-02-28"), "v:link", with: "recipe:cafe-latte")
            #expect(try await studio.post(String(path).replacingOccurrences(of: "/edit/", with: "/save/"), chosen).status == 303)
            let written = try studio.file("home.xml")
            #expect(written == home.replacingOccurrences(of: "last-day=\"2027-01-31\"", with: "last-day=\"2027-02-28\"")
                .replacingOccurrences(of: "<link product=\"coffee-beans\"/>", with: "<link recipe=\"cafe-latte\"/>"))
        }
    }

    /// A retailer's place on the map changed, removed and added again, and the home's picture
    /// file chosen: each its element or attribute alone, the picture's words in every language
    /// kept; a picture file that does not exist is told at the file chosen, as typed.
    @Test func aRetailersPlaceAndAPicturesFileAreChosen() async throws {
        try await Self.withStudio { studio in
            let retailer = try studio.file("retailers/cafe-kahvila.xml")
            let save = "/_studio/save/retailer/cafe-kahvila"
            var fields = try await studio.form("/_studio/edit/retailer/cafe-kahvila")
            #expect(fields.contains { $0 == ("v:location:latitude", "60.1676") } && fields.contains { $0 == ("v:location:longitude", "24.9366") })
            #expect(try await studio.post(save, Self.replacing(fields, "v:location:latitude", with: "60.17")).status == 303)
            #expect(try studio.file("retailers/cafe-kahvila.xml") == retailer.replacingOccurrences(of: "latitude=\"60.1676\"", with: "latitude=\"60.17\""))
            fields = try await studio.form("/_studio/edit/retailer/cafe-kahvila")
            let removed = Self.replacing(Self.replacing(fields, "v:location:latitude", with: ""), "v:location:longitude", with: "")
            #expect(try await studio.post(save, removed).status == 303)
            #expect(try studio.file("retailers/cafe-kahvila.xml") == retailer.replacingOccurrences(of: "  <location latitude=\"60.1676\" longitude=\"24.9366\"/>\n", with: ""))
            fields = try await studio.form("/_studio/edit/retailer/cafe-kahvila")
            #expect(fields.contains { $0 == ("v:location:latitude", "") })
            let added = Self.replacing(Self.replacing(fields, "v:location:latitude", with: "60.1676"), "v:location:longitude", with: "24.9366")
            #expect(try await studio.post(save, added).status == 303)
            #expect(try studio.file("retailers/cafe-kahvila.xml") == retailer)

            // The home's picture: its file alone, its words kept.
            let home = try studio.file("home.xml")
            let homeFields = try await studio.form("/_studio/edit/home")
            #expect(homeFields.contains { $0 == ("v:image", "images/home/range.png") })
            let missing = try await studio.post("/_studio/check/home", Self.replacing(homeFields, "v:image", with: "images/home/nothing.png"))
            #expect(missing.body.contains("\"image\":[{\"code\":\"image-missing\""), "\(missing.body)")
            #expect(try await studio.post("/_studio/save/home", Self.replacing(homeFields, "v:image", with: "images/home/logo.png")).status == 303)
            #expect(try studio.file("home.xml") == home.replacingOccurrences(of: "<image src=\"images/home/range.png\"", with: "<image src=\"images/home/logo.png\""))
        }
    }

    /// A day that does not exist, written by hand (the date picker cannot make one): the
    /// promotion's form opens with the day as written and its problem, keeps it through a save
    /// of another field, and a day chosen replaces it.
    @Test func aDayThatDoesNotExistIsFixedFromTheForm() async throws {
        try await Self.withStudio { studio in
            let original = try studio.file("home.xml")
            let broken = original.replacingOccurrences(of: "last-day=\"2027-01-31\"", with: "last-day=\"2027-02-30\"")
            #expect(broken != original)
            try studio.write("home.xml", broken)
            let path = "/_studio/edit/promotion/uutuus-coffee-beans"
            let page = try await studio.get(path)
            #expect(page.status == 200 && page.body.contains("name=\"v:last-day\" type=\"text\" value=\"2027-02-30\""), "\(page.body)")
            var fields = try await studio.form(path)
            let checked = try await studio.post("/_studio/check/promotion/uutuus-coffee-beans", fields)
            #expect(checked.body.contains("\"last-day\":[{\"code\":\"schema-invalid\",\"message\":\"the attribute last-day of <promotion> holds '2027-02-30', which is no day: February 2027 has 28 days"), "\(checked.body)")
            // Another field saved: the day stays as written.
            let title = try #require(fields.first { $0.0 == "t:title@fi" }).1
            let titled = try await studio.post("/_studio/save/promotion/uutuus-coffee-beans", Self.replacing(fields, "t:title@fi", with: title + "!"))
            #expect(titled.status == 303, "\(titled.body)")
            let saved = try studio.file("home.xml")
            #expect(saved.contains("last-day=\"2027-02-30\"") && saved.contains(title + "!"))
            fields = try await studio.form(path)
            #expect(try await studio.post("/_studio/save/promotion/uutuus-coffee-beans", Self.replacing(fields, "v:last-day", with: "2027-02-28")).status == 303)
            #expect(try studio.file("home.xml") == saved.replacingOccurrences(of: "last-day=\"2027-02-30\"", with: "last-day=\"2027-02-28\""))
        }
    }

    /// Formatted text sent as markup: written in place, wrapped as the shipped files are, the
    /// other languages' texts untouched; markup that cannot be read is refused, nothing written.
    @Test func formattedTextIsWrittenInPlace() async throws {
        try await Self.withStudio { studio in
            let before = try studio.file("products/espresso.xml")
            let fields = try await studio.form("/_studio/edit/product/espresso")
            let markup = "<p>Vahva <strong>ja</strong> pehmeä, katso <link recipe=\"cappuccino\">Cappuccino</link>.</p><ul><li>Yksi</li><li>Kaksi</li></ul>"
            let saved = try await studio.post("/_studio/save/product/espresso", Self.replacing(fields, "t:body@fi", with: markup))
            #expect(saved.status == 303)
            let after = try studio.file("products/espresso.xml")
            let body = "  <body>\n    <p>Vahva <strong>ja</strong> pehmeä, katso <link recipe=\"cappuccino\">Cappuccino</link>.</p>\n    <ul>\n      <li>Yksi</li>\n      <li>Kaksi</li>\n    </ul>\n  </body>\n"
            let start = try #require(before.range(of: "  <body>\n")), end = try #require(before.range(of: "  </body>\n"))
            #expect(after == before.replacingCharacters(in: start.lowerBound..<end.upperBound, with: body))
            // From the form as it was before that save: both texts shown as words, not markup.
            let stale = try await studio.post("/_studio/save/product/espresso", Self.replacing(fields, "t:body@fi", with: "<p>Toinen <em>teksti</em>.</p>"))
            #expect(stale.status == 409)
            let shown = stale.body.matches(of: #/<span class="value">([^<]*)</span>/#).map { String($0.1) }
            #expect(shown.contains { $0.contains("Toinen teksti.") } && shown.contains { $0.contains("Vahva ja pehmeä") })
            #expect(!shown.contains { $0.contains("&lt;") })
            let broken = try await studio.post("/_studio/save/product/espresso", Self.replacing(try await studio.form("/_studio/edit/product/espresso"), "t:body@fi", with: "<p>open"))
            #expect(broken.status == 422)
            #expect(try studio.file("products/espresso.xml") == after)
        }
    }

    /// A text that may be left out: written where the file has none, its element is added in
    /// its place among the fields; emptied, it goes with its line.
    @Test func anOptionalTextIsAddedAndRemoved() async throws {
        try await Self.withStudio { studio in
            let before = try studio.file("retailers/cafe-kahvila.xml")
            #expect(!before.contains("<info>"))
            let fields = try await studio.form("/_studio/edit/retailer/cafe-kahvila")
            #expect(fields.contains { $0.0 == "t:info@fi" && $0.1.isEmpty })
            #expect(try await studio.post("/_studio/save/retailer/cafe-kahvila", Self.replacing(fields, "t:info@fi", with: "Parkki & pyörät")).status == 303)
            #expect(try studio.file("retailers/cafe-kahvila.xml") == before.replacingOccurrences(
                of: "  <web>", with: "  <info>Parkki &amp; pyörät</info>\n  <web>"))
            let again = try await studio.form("/_studio/edit/retailer/cafe-kahvila")
            #expect(try await studio.post("/_studio/save/retailer/cafe-kahvila", Self.replacing(again, "t:info@fi", with: "")).status == 303)
            #expect(try studio.file("retailers/cafe-kahvila.xml") == before)
        }
    }

    @Test func aFileChangedUnderAnOpenFormIsMergedOrBothValuesAreShown() async throws {
        try await Self.withStudio { studio in
            let opened = try await studio.form("/_studio/edit/product/espresso")
            // A text editor changes another field meanwhile: merged.
            let original = try studio.file("products/espresso.xml")
            try studio.write("products/espresso.xml", original.replacingOccurrences(of: "Tummapaahteinen espressojauhe", with: "Tumma espressojauhe"))
            let merged = try await studio.post("/_studio/save/product/espresso", Self.replacing(opened, "t:summary@en", with: "Dark espresso"))
            #expect(merged.status == 303 && merged.headers["location"] == "/_studio/edit/product/espresso?saved=1&merged=1")
            let both = try studio.file("products/espresso.xml")
            #expect(both.contains("<summary>Tumma espressojauhe</summary>") && both.contains("<summary xml:lang=\"en\">Dark espresso</summary>"))

            // Another browser changed the same field: both values shown, nothing written.
            let second = try await studio.post("/_studio/save/product/espresso", Self.replacing(opened, "t:summary@en", with: "Roasted dark"))
            #expect(second.status == 409)
            #expect(second.body.contains("Roasted dark") && second.body.contains("Dark espresso") && second.body.contains("name=\"c:summary@en\""))
            #expect(try studio.file("products/espresso.xml") == both)
            // Choosing the one on disk, or one's own, and saving again.
            let choice = Self.fields(of: second.body) + [("c:summary@en", "mine")]
            let resolved = try await studio.post("/_studio/save/product/espresso", choice)
            #expect(resolved.status == 303)
            #expect(try studio.file("products/espresso.xml").contains("<summary xml:lang=\"en\">Roasted dark</summary>"))
        }
    }

    /// A form changed and not saved (a tab closed, a browser crashed): kept by the studio as the
    /// page sends it, offered when the form opens again, and restored against the file as it was
    /// then, so that a save merges what changed on disk since. A save ends it, as does a
    /// discard; a form sent as it opened keeps nothing.
    @Test func aFormNotSavedIsKeptAndOfferedBack() async throws {
        try await Self.withStudio { studio in
            let page = "/_studio/edit/product/espresso"
            let opened = try await studio.form(page)
            #expect(try await studio.post("/_studio/draft/product/espresso", opened).status == 204)
            #expect(!(try await studio.get(page).body.contains("draft=1")))
            // Without the session's token or from another origin: refused, nothing kept.
            let typed = Self.replacing(opened, "t:summary@en", with: "Dark, kept")
            #expect(try await studio.post("/_studio/draft/product/espresso", typed, token: "wrong").status == 403)
            #expect(try await studio.post("/_studio/draft/product/espresso", typed, origin: "http://example.com").status == 403)
            #expect(try await studio.post("/_studio/draft/product/nothing-here", typed).status == 404)
            #expect(!(try await studio.get(page).body.contains("draft=1")))

            let original = try studio.file("products/espresso.xml")
            #expect(try await studio.post("/_studio/draft/product/espresso", typed).status == 204)
            let offer = try await studio.get(page)
            #expect(offer.body.contains("href=\"/_studio/edit/product/espresso?draft=1\""))
            #expect(!offer.body.contains("Dark, kept"))
            #expect(try studio.file("products/espresso.xml") == original)
            // Another field changed on disk since: the restored form shows it, and the text typed.
            try studio.write("products/espresso.xml", original.replacingOccurrences(of: "Tummapaahteinen espressojauhe", with: "Tumma espressojauhe"))
            let restored = try await studio.get(page + "?draft=1")
            let fields = Self.fields(of: restored.body)
            #expect(fields.contains { $0 == ("t:summary@en", "Dark, kept") })
            #expect(fields.contains { $0 == ("t:summary@fi", "Tumma espressojauhe") })
            #expect(fields.contains { $0 == ("o:summary@en", "Dark-roast ground espresso") })
            // Saved: both changes in the file, the draft gone.
            let saved = try await studio.post("/_studio/save/product/espresso", fields)
            #expect(saved.status == 303)
            let both = try studio.file("products/espresso.xml")
            #expect(both.contains("<summary>Tumma espressojauhe</summary>") && both.contains("<summary xml:lang=\"en\">Dark, kept</summary>"))
            #expect(!(try await studio.get(page).body.contains("draft=1")))

            // Discarded: gone, the file untouched.
            let again = try await studio.form(page)
            #expect(try await studio.post("/_studio/draft/product/espresso", Self.replacing(again, "t:summary@sv", with: "Mörkt, kept")).status == 204)
            #expect(try await studio.get(page).body.contains("draft=1"))
            #expect(try await studio.post("/_studio/discard-draft/product/espresso", []).status == 303)
            #expect(!(try await studio.get(page).body.contains("draft=1")))
            #expect(try studio.file("products/espresso.xml") == both)
            // A draft whose text the file came to hold (saved from another tab) is not offered.
            #expect(try await studio.post("/_studio/draft/product/espresso", Self.replacing(again, "t:summary@sv", with: "Mörk")).status == 204)
            try studio.write("products/espresso.xml", both.replacingOccurrences(of: "Mörkrostat malet espressokaffe", with: "Mörk"))
            #expect(!(try await studio.get(page).body.contains("draft=1")))
        }
    }

    // MARK: Photos

    /// A photo dropped on a picture field: judged as validation judges a picture, named from the
    /// entity (never the camera's name), shown at once by its stand-in, its renditions' bytes
    /// measured; then, unused, offered for removal and removed.
    @Test func aPhotoIsTakenInNamedFromItsEntity() async throws {
        try await Self.withStudio { studio in
            let photo = Array(try Data(contentsOf: studio.content.appendingPathComponent("images/products/espresso-1.png")))
            let taken = try await studio.upload("product/espresso", field: "images", name: "IMG_4032.PNG", photo)
            #expect(taken.status == 200, "\(taken.body)")
            let answer = try JSONSerialization.jsonObject(with: Data(taken.body.utf8)) as? [String: Any] ?? [:]
            #expect(answer["path"] as? String == "images/products/espresso-3.png")
            #expect(answer["format"] as? String == "PNG")
            #expect(try Data(contentsOf: studio.content.appendingPathComponent("images/products/espresso-3.png")) == Data(photo))
            let standIn = try await studio.get(try #require(answer["standIn"] as? String))
            #expect(standIn.status == 200 && standIn.headers["content-type"] == "image/png")
            let measured = try await studio.get(try #require(answer["bytesHref"] as? String))
            let bytes = try JSONSerialization.jsonObject(with: Data(measured.body.utf8)) as? [String: String] ?? [:]
            #expect(measured.status == 200 && Int(bytes["bytes"] ?? "") ?? 0 > 1000, "\(measured.body)")
            // An icon is named as the shipped icons are, next to the one there.
            let icon = try await studio.upload("product/espresso", field: "icon", name: "icon.png", Array(try Data(contentsOf: studio.content.appendingPathComponent("images/products/espresso-icon.png"))))
            #expect((try JSONSerialization.jsonObject(with: Data(icon.body.utf8)) as? [String: Any])?["path"] as? String == "images/products/espresso-icon-2.png",
                    "\(icon.body)")

            // Nothing uses them: once the check has seen them, offered for removal, and removed.
            try await studio.settled { $0.contains("<code>images/products/espresso-icon-2.png</code>") && $0.contains("<code>images/products/espresso-3.png</code>") }
            #expect(try await studio.get("/_studio/edit/product/espresso").body.contains("<code>images/products/espresso-3.png</code>"))
            let used = try await studio.post("/_studio/remove-picture", [("path", "images/products/espresso-1.png")])
            #expect(used.status == 409)
            let removed = try await studio.post("/_studio/remove-picture", [("path", "images/products/espresso-3.png"), ("back", "/_studio/edit/product/espresso")])
            #expect(removed.status == 303 && removed.headers["location"]?.hasPrefix("/_studio/edit/product/espresso?removed=") == true)
            #expect(!FileManager.default.fileExists(atPath: studio.content.appendingPathComponent("images/products/espresso-3.png").path))
            #expect(FileManager.default.fileExists(atPath: studio.content.appendingPathComponent("images/products/espresso-1.png").path))
        }
    }

    /// Uploads an attacker makes: each refused with a plain reason, nothing written under
    /// `images/` (nor anywhere in the content folder).
    @Test func hostileUploadsWriteNothing() async throws {
        try await Self.withStudio { studio in
            let before = try studio.pictures()
            let photo = Array(try Data(contentsOf: studio.content.appendingPathComponent("images/products/espresso-1.png")))
            // A PNG declaring 50,000 × 50,000 pixels in a few bytes.
            func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
                let body = Array(type.utf8) + data
                let crc = CRC32.of(body[...])
                return [UInt8](withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init)) + body + [UInt8](withUnsafeBytes(of: crc.bigEndian, Array.init))
            }
            let side = [UInt8](withUnsafeBytes(of: UInt32(50_000).bigEndian, Array.init))
            let bomb = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", side + side + [8, 2, 0, 0, 0])
                + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
            let cases: [(String, Answer, Int)] = [
                ("a pixel bomb", try await studio.upload("product/espresso", field: "images", name: "bomb.png", bomb), 422),
                ("a file that is no picture", try await studio.upload("product/espresso", field: "images", name: "x.jpg", Array("<html>hi</html>".utf8), type: "image/jpeg"), 422),
                ("a type that is no picture's", try await studio.upload("product/espresso", field: "images", name: "x.html", photo, type: "text/html"), 415),
                ("a name with a folder", try await studio.upload("product/espresso", field: "images", name: "../x.jpg", photo), 400),
                ("a field that holds no picture", try await studio.upload("product/espresso", field: "summary", name: "x.png", photo), 404),
                ("an entity that is not there", try await studio.upload("product/nothing-here", field: "images", name: "x.png", photo), 404),
                ("no token", try await studio.upload("product/espresso", field: "images", name: "x.png", photo, token: "wrong"), 403),
                ("another site's page", try await studio.upload("product/espresso", field: "images", name: "x.png", photo, headers: ["Origin": "http://example.com"]), 403),
                // 65 MiB declared: refused before a byte of it is read.
                ("65 MiB", try await studio.request("POST", "/_studio/upload/product/espresso?field=images&name=big.jpg", headers: [
                    "Origin": studio.origin, "Content-Type": "image/jpeg", "X-Studio-Token": Self.token, "Content-Length": String(65 << 20)]), 413),
            ]
            for (name, answer, status) in cases {
                #expect(answer.status == status, "\(name): \(answer.status) \(answer.body)")
            }
            #expect(cases[0].1.body.contains("50000×50000 pixels") && cases[0].1.body.contains("image-dimensions"), "\(cases[0].1.body)")
            #expect(try studio.pictures() == before)
            #expect(!FileManager.default.fileExists(atPath: studio.content.deletingLastPathComponent().appendingPathComponent("x.jpg").path))
        }
    }

    // MARK: Translations

    /// The coverage table: what is missing or outdated in each language, each opening its field;
    /// the form shows what the app shows in a missing translation's place, and marks an outdated
    /// one; the XLIFF of what is to translate, and the translator's file brought back.
    @Test func theTranslationsTableOpensEachFieldAndTakesATranslatorsFile() async throws {
        let release = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-release-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: release) }
        try await Self.withStudio(prepare: { content in
            let builder = BundleBuilder(contentFolder: content.path, output: release.path, releaseVersion: "2026.11.0", today: Day("2026-11-22"))
            _ = try builder.write(try builder.validate())
            // Since that release: espresso's Swedish summary removed, and coffee beans' Finnish
            // summary changed (its translations now outdated).
            let espresso = content.appendingPathComponent("products/espresso.xml"), beans = content.appendingPathComponent("products/coffee-beans.xml")
            try String(contentsOf: espresso, encoding: .utf8).replacingOccurrences(of: "  <summary xml:lang=\"sv\">Mörkrostat malet espressokaffe</summary>\n", with: "")
                .write(to: espresso, atomically: true, encoding: .utf8)
            let text = try String(contentsOf: beans, encoding: .utf8)
            let summary = try #require(text.firstMatch(of: #/<summary>([^<]*)</summary>/#)?.1)
            try text.replacingOccurrences(of: "<summary>\(summary)</summary>", with: "<summary>Kokonaiset paahdetut pavut</summary>").write(to: beans, atomically: true, encoding: .utf8)
            return release.path
        }) { studio in
            let table = try await studio.get("/_studio/translations")
            #expect(table.status == 200)
            #expect(table.body.contains("href=\"/_studio/edit/product/espresso#field-summary%40sv\">1 missing</a>") || table.body.contains("#field-summary%40sv\">puuttuu 1</a>"),
                    "\(table.body)")
            #expect(table.body.contains("/_studio/edit/product/coffee-beans#field-summary%40sv"))
            #expect(!table.body.contains("href=\"/_studio/edit/recipe/cafe-latte\""), "only what is to translate")
            #expect(try await studio.get("/_studio/translations?all=1").body.contains("href=\"/_studio/edit/recipe/cafe-latte\""))
            let form = try await studio.get("/_studio/edit/product/espresso")
            #expect(form.body.contains("<p class=\"fallback\">") && form.body.contains("<span lang=\"fi\">Tummapaahteinen espressojauhe</span>"))
            #expect(try await studio.get("/_studio/edit/product/coffee-beans").body.contains("<span class=\"outdated\">"))

            // The translator's file: the units to translate, the missing one without a target.
            let todo = try await studio.get("/_studio/translations/sv.xlf?only=todo")
            #expect(todo.status == 200 && todo.headers["content-type"]?.hasPrefix("application/x-xliff+xml") == true)
            let everything = try await studio.get("/_studio/translations/sv.xlf")
            #expect(todo.body.components(separatedBy: "<trans-unit ").count < everything.body.components(separatedBy: "<trans-unit ").count)
            #expect(try await studio.get("/_studio/translations/de.xlf").status == 404)
            // Translated (the missing unit given its target) and brought back.
            let filled = todo.body.replacingOccurrences(of: "<source>Tummapaahteinen espressojauhe</source>",
                                                        with: "<source>Tummapaahteinen espressojauhe</source><target>Mörkrostat espresso</target>")
            #expect(filled != todo.body)
            let headers = ["Origin": studio.origin, "Content-Type": "application/x-xliff+xml", "X-Studio-Token": Self.token]
            #expect(try await studio.request("POST", "/_studio/translations/import", headers: headers.merging(["X-Studio-Token": "wrong"]) { $1 },
                                             bytes: Array(filled.utf8)).status == 403)
            let wrong = filled.replacingOccurrences(of: "<source>Tummapaahteinen espressojauhe</source>", with: "<source>Something else</source>")
            let refused = try await studio.request("POST", "/_studio/translations/import", headers: headers, bytes: Array(wrong.utf8))
            #expect(refused.status == 422)
            #expect(!(try studio.file("products/espresso.xml")).contains("Mörkrostat espresso"))
            let imported = try await studio.request("POST", "/_studio/translations/import", headers: headers, bytes: Array(filled.utf8))
            #expect(imported.status == 200, "\(imported.body)")
            #expect(try studio.file("products/espresso.xml").contains("<summary xml:lang=\"sv\">Mörkrostat espresso</summary>"))
        }
    }

    // MARK: Git

    /// Runs git in `folder`; its output. Fails the test when git fails.
    @discardableResult
    static func git(_ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(StudioGit.program(), "git is not installed (Debian: apt-get install git)"))
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw GitFailure("git \(arguments.joined(separator: " ")): \(text)") }
        return text
    }

    /// Save to git, push, pull another clone's change, history, a branch, and a pull that meets
    /// the editor's change in the same field: each from the studio, against a bare repository as
    /// the remote, all on this machine.
    @Test func gitFromTheStudio() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let remote = root.appendingPathComponent("remote.git"), work = root.appendingPathComponent("work"), other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Self.git(["init", "--quiet", "--bare", "--initial-branch=main", remote.path], in: root)
        try Self.git(["clone", "--quiet", remote.path, work.path], in: root)
        for folder in [work] {
            try Self.git(["config", "user.name", "Eeva Editor"], in: folder)
            try Self.git(["config", "user.email", "eeva@example.com"], in: folder)
        }
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content"), to: work.appendingPathComponent("content"))
        try Self.git(["add", "--all"], in: work)
        try Self.git(["commit", "--quiet", "-m", "The content"], in: work)
        try Self.git(["push", "--quiet", "origin", "main"], in: work)
        try Self.git(["clone", "--quiet", remote.path, other.path], in: root)
        try Self.git(["config", "user.name", "Olli Other"], in: other)
        try Self.git(["config", "user.email", "olli@example.com"], in: other)

        try await Self.withStudio(content: work.appendingPathComponent("content")) { studio in
            let clean = try await studio.get("/_studio/git")
            #expect(clean.status == 200 && clean.body.contains("main"))
            #expect(!clean.body.contains("<ul class=\"changes\">"))
            // A form saved: the change in digno diff's words, by entity.
            let fields = try await studio.form("/_studio/edit/product/espresso")
            #expect(try await studio.post("/_studio/save/product/espresso", Self.replacing(fields, "t:summary@en", with: "Dark and strong")).status == 303)
            let changed = try await studio.get("/_studio/git")
            #expect(changed.body.contains("changed product espresso"), "\(changed.body.split(separator: "<main")[1].prefix(1500))")
            #expect(changed.body.contains("en: summary: Dark[--roast-] [-ground-]{+and+} [-espresso-]{+strong+}"))
            // Saved to git, by the author git knows; a commit with no message refused.
            #expect(try await studio.post("/_studio/git/commit", [("message", " ")]).status == 409)
            let committed = try await studio.post("/_studio/git/commit", [("message", "Espresso's English summary")])
            #expect(committed.status == 303 && committed.headers["location"]?.hasPrefix("/_studio/git?done=commit") == true)
            #expect(try Self.git(["log", "-1", "--format=%an <%ae> %s"], in: work) == "Eeva Editor <eeva@example.com> Espresso's English summary\n")
            #expect(try await studio.post("/_studio/git/push", []).status == 303)
            #expect(try Self.git(["--git-dir", remote.path, "log", "-1", "--format=%s", "main"], in: root) == "Espresso's English summary\n")
            // Its history on its form.
            let history = try await studio.get("/_studio/edit/product/espresso").body
            #expect(history.contains("Eeva Editor: Espresso&#39;s English summary") || history.contains("Eeva Editor: Espresso's English summary"), "\(history)")

            // Another clone changes another product and pushes; the studio pulls it in.
            try Self.git(["pull", "--quiet"], in: other)
            let beans = other.appendingPathComponent("content/products/coffee-beans.xml")
            try String(contentsOf: beans, encoding: .utf8).replacingOccurrences(of: "Roasted coffee beans", with: "Whole beans, roasted")
                .write(to: beans, atomically: true, encoding: .utf8)
            try Self.git(["commit", "--quiet", "-am", "Coffee beans"], in: other)
            try Self.git(["push", "--quiet"], in: other)
            #expect(try await studio.post("/_studio/git/pull", []).status == 303)
            #expect(try studio.file("products/coffee-beans.xml").contains("Whole beans, roasted"))

            // Both change one text, and the other clone another text of the file: the pull merges
            // field by field, the other's text taken, the one both changed left to choose in the form.
            let espresso = other.appendingPathComponent("content/products/espresso.xml")
            try Self.git(["pull", "--quiet"], in: other)
            try String(contentsOf: espresso, encoding: .utf8).replacingOccurrences(of: "Dark and strong", with: "Strong and dark")
                .replacingOccurrences(of: "Mörkrostat malet espressokaffe", with: "Mörkt och starkt").write(to: espresso, atomically: true, encoding: .utf8)
            try Self.git(["commit", "--quiet", "-am", "Espresso, theirs"], in: other)
            try Self.git(["push", "--quiet"], in: other)
            let again = try await studio.form("/_studio/edit/product/espresso")
            #expect(try await studio.post("/_studio/save/product/espresso", Self.replacing(again, "t:summary@en", with: "Dark, strong, ours")).status == 303)
            #expect(try await studio.post("/_studio/git/commit", [("message", "Espresso, ours")]).status == 303)
            let met = try await studio.post("/_studio/git/pull", [])
            #expect(met.status == 303 && met.headers["location"] == "/_studio/git?done=choose&what=1", "\(met.headers) \(met.body)")
            #expect(!(try studio.file("products/espresso.xml")).contains("<<<<<<<"))
            #expect(try await studio.post("/_studio/git/commit", [("message", "too soon")]).status == 409)
            let choose = try await studio.get("/_studio/edit/product/espresso")
            #expect(choose.body.contains("name=\"c:summary@en\"") && choose.body.contains("Strong and dark") && choose.body.contains("Dark, strong, ours"))
            let chosen = try await studio.post("/_studio/save/product/espresso", Self.fields(of: choose.body) + [("c:summary@en", "mine")])
            #expect(chosen.status == 303 && chosen.headers["location"]?.hasPrefix("/_studio/git?done=merge") == true, "\(chosen.headers) \(chosen.body)")
            let merged = try studio.file("products/espresso.xml")
            #expect(merged.contains("<summary xml:lang=\"en\">Dark, strong, ours</summary>") && merged.contains("<summary xml:lang=\"sv\">Mörkt och starkt</summary>"))
            #expect(try Self.git(["log", "-1", "--format=%p|%an"], in: work).split(separator: "|").first?.split(separator: " ").count == 2, "a merge commit")
            #expect(try Self.git(["status", "--porcelain", "--", "content"], in: work).isEmpty)
            #expect(try await studio.post("/_studio/git/push", []).status == 303)

            // A branch of one's own: made, switched to, and said on every page.
            #expect(try await studio.post("/_studio/git/branch", [("name", "-x")]).status == 409)
            #expect(try await studio.post("/_studio/git/branch", [("name", "review/espresso")]).status == 303)
            #expect(try await studio.get("/_studio/").body.contains("review/espresso"))
        }
    }

    @Test func aFileThatDoesNotParseIsShownAndNeverWrittenOver() async throws {
        try await Self.withStudio { studio in
            let conflicted = try studio.file("products/espresso.xml").replacingOccurrences(
                of: "  <summary>Tummapaahteinen espressojauhe</summary>\n",
                with: "<<<<<<< HEAD\n  <summary>Tumma</summary>\n=======\n  <summary>Vahva</summary>\n>>>>>>> theirs\n")
            let opened = try await studio.form("/_studio/edit/product/espresso")
            try studio.write("products/espresso.xml", conflicted)
            let page = try await studio.get("/_studio/edit/product/espresso")
            #expect(page.status == 200 && page.body.contains("class=\"refusal\"") && page.body.contains("&lt;&lt;&lt;&lt;&lt;&lt;&lt; HEAD"))
            #expect(!page.body.contains("id=\"entity-form\""))
            let saved = try await studio.post("/_studio/save/product/espresso", Self.replacing(opened, "t:summary@en", with: "x"))
            #expect(saved.status == 422)
            #expect(try studio.file("products/espresso.xml") == conflicted)
        }
    }

    // MARK: Entities made, copied, renamed and deleted

    /// Every XML file of the folder but those named, as text.
    static func others(_ folder: URL, except: Set<String>) throws -> [String: String] {
        try snapshot(folder).filter { path, _ in !except.contains { path.hasSuffix("/" + $0) } }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    static func validate(_ folder: URL) throws -> ValidationReport {
        var validator = ContentValidator(contentFolder: folder.path, today: Day("2026-11-22"))
        validator.makesRenditions = false
        return try validator.validate()
    }

    @Test func aNewEntityIsMadeInTheShippedLayout() async throws {
        try await Self.withStudio { studio in
            let page = try await studio.get("/_studio/new/product")
            #expect(page.status == 200 && page.body.contains("action=\"/_studio/create/product\""))
            let pictures = [("icon", "images/products/espresso-icon.png"), ("picture", "images/products/espresso-1.png")]
            let made = try await studio.post("/_studio/create/product", [("name", "Uusi & vahva"), ("id", "uusi-kahvi")] + pictures)
            #expect(made.status == 303 && made.headers["location"] == "/_studio/edit/product/uusi-kahvi?saved=1")
            #expect(try studio.file("products/uusi-kahvi.xml") == """
                <?xml version="1.0" encoding="UTF-8"?>
                <product id="uusi-kahvi" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="../schema/content.xsd">
                  <name>Uusi &amp; vahva</name>
                  <icon src="images/products/espresso-icon.png"/>
                  <summary></summary>
                  <body>
                    <p></p>
                  </body>
                  <images>
                    <image src="images/products/espresso-1.png" alt=""/>
                  </images>
                </product>

                """)
            // Its form opens, and says what to write.
            let form = try await studio.get("/_studio/edit/product/uusi-kahvi")
            #expect(form.status == 200 && form.body.contains("name=\"t:summary@fi\""))
            // Made twice, or with an id that is not one: refused, nothing written.
            #expect(try await studio.post("/_studio/create/product", [("name", "Toinen"), ("id", "uusi-kahvi")] + pictures).status == 422)
            for id in ["Uusi", "../x", "a--b", ""] {
                #expect(try await studio.post("/_studio/create/product", [("name", "x"), ("id", id)] + pictures).status == 422, "\(id)")
            }
            // A picture that is not one under images/: refused.
            #expect(try await studio.post("/_studio/create/product", [("name", "x"), ("id", "x"), ("icon", "../../etc/passwd"), ("picture", "images/products/espresso-1.png")]).status == 422)
            #expect(try studio.file("products/uusi-kahvi.xml").contains("Uusi &amp; vahva"))
        }
    }

    /// A new promotion goes at the end of the home's; the home's form reorders and removes them,
    /// each moved as written.
    @Test func theHomesPromotionsAreMadeReorderedAndRemoved() async throws {
        try await Self.withStudio { studio in
            let before = try studio.file("home.xml")
            let made = try await studio.post("/_studio/create/promotion", [("name", "Joulu"), ("id", "joulu"), ("picture", "images/products/espresso-1.png"),
                                                                          ("first-day", "2026-12-01"), ("last-day", "2026-12-24")])
            #expect(made.status == 303 && made.headers["location"] == "/_studio/edit/promotion/joulu?saved=1", "\(made.body)")
            let added = ["    <promotion id=\"joulu\" first-day=\"2026-12-01\" last-day=\"2026-12-24\">", "      <title>Joulu</title>", "      <text></text>",
                         "      <image src=\"images/products/espresso-1.png\" alt=\"\"/>", "    </promotion>", "  </promotions>"].joined(separator: "\n")
            #expect(try studio.file("home.xml") == before.replacingOccurrences(of: "  </promotions>", with: added))
            // A day that is not one: refused.
            #expect(try await studio.post("/_studio/create/promotion", [("name", "X"), ("id", "x"), ("picture", "images/products/espresso-1.png"),
                                                                       ("first-day", "2026-02-30"), ("last-day", "2026-12-24")]).status == 422)
            // The new one moved first: both elements as written, in the new order.
            let fields = try await studio.form("/_studio/edit/home")
            let rows = fields.filter { $0.0.hasPrefix("l:promotions") && !$0.0.hasSuffix(":present") }
            #expect(rows.map(\.1) == ["", "uutuus-coffee-beans", "", "joulu"])
            let others = fields.filter { !$0.0.hasPrefix("l:promotions") || $0.0.hasSuffix(":present") }
            let moved = try await studio.post("/_studio/save/home", others + Array(rows[2...]) + Array(rows[..<2]))
            #expect(moved.status == 303)
            let text = try studio.file("home.xml")
            let joulu = try #require(text.range(of: "<promotion id=\"joulu\"")), uutuus = try #require(text.range(of: "<promotion id=\"uutuus-coffee-beans\""))
            #expect(joulu.lowerBound < uutuus.lowerBound)
            #expect(text.count == (before.count + added.count - "  </promotions>".count))
            // Removed: the file as it was.
            let removed = try await studio.post("/_studio/save/home", Self.fields(of: try await studio.get("/_studio/edit/home").body).filter { !$0.0.hasPrefix("l:promotions") || $0.0.hasSuffix(":present") } + Array(rows[..<2]))
            #expect(removed.status == 303)
            #expect(try studio.file("home.xml") == before)
        }
    }

    @Test func aCopyHasItsOwnIdAndName() async throws {
        try await Self.withStudio { studio in
            let original = try studio.file("recipes/cafe-latte.xml")
            let copied = try await studio.post("/_studio/duplicate/recipe/cafe-latte", [("id", "cafe-latte-iso"), ("name", "Iso Café Latte")])
            #expect(copied.status == 303 && copied.headers["location"] == "/_studio/edit/recipe/cafe-latte-iso?saved=1")
            #expect(try studio.file("recipes/cafe-latte-iso.xml") == original.replacingOccurrences(of: "<recipe id=\"cafe-latte\"", with: "<recipe id=\"cafe-latte-iso\"")
                .replacingOccurrences(of: "<name>Café Latte</name>", with: "<name>Iso Café Latte</name>"))
            #expect(try studio.file("recipes/cafe-latte.xml") == original)
        }
    }

    @Test func anIdChangedFollowsEveryReferenceAndTheFilesName() async throws {
        try await Self.withStudio { studio in
            let before = try Self.snapshot(studio.content)
            #expect(try Self.validate(studio.content).errorCount == 0)
            let renamed = try await studio.post("/_studio/rename/product/espresso", [("id", "espresso-forte")])
            #expect(renamed.status == 303 && renamed.headers["location"]?.hasPrefix("/_studio/edit/product/espresso-forte?saved=1&others=") == true, "\(renamed.body)")
            #expect(!FileManager.default.fileExists(atPath: studio.content.appendingPathComponent("products/espresso.xml").path))
            #expect(try studio.file("products/espresso-forte.xml").contains("<product id=\"espresso-forte\""))
            // Every file that named it names the new id, and only that changed in it.
            var changed = 0
            for (path, bytes) in try Self.snapshot(studio.content) where !path.hasSuffix("espresso-forte.xml") {
                let old = try #require(before[path])
                let text = String(decoding: bytes, as: UTF8.self), oldText = String(decoding: old, as: UTF8.self)
                if text != oldText {
                    changed += 1
                    #expect(text == oldText.replacingOccurrences(of: "product=\"espresso\"", with: "product=\"espresso-forte\""), "\(path)")
                }
            }
            #expect(changed >= 10)
            #expect(try Self.validate(studio.content).errorCount == 0)
            // To an id another has: refused, nothing written.
            #expect(try await studio.post("/_studio/rename/product/espresso-forte", [("id", "ground-coffee")]).status == 422)
            // A retailer, which nothing names: its file and id.
            let retailer = try studio.file("retailers/cafe-kahvila.xml")
            #expect(try await studio.post("/_studio/rename/retailer/cafe-kahvila", [("id", "kahvila")]).status == 303)
            #expect(try studio.file("retailers/kahvila.xml") == retailer.replacingOccurrences(of: "<retailer id=\"cafe-kahvila\"", with: "<retailer id=\"kahvila\""))
        }
    }

    @Test func anEntityInUseIsDeletedOnlyWithItsReferences() async throws {
        try await Self.withStudio { studio in
            let before = try Self.snapshot(studio.content)
            let refused = try await studio.post("/_studio/delete/product/ground-coffee", [])
            #expect(refused.status == 409)
            #expect(refused.body.contains("/_studio/edit/recipe/cafe-au-lait") && refused.body.contains("name=\"remove-references\""))
            #expect(try Self.snapshot(studio.content) == before)
            let deleted = try await studio.post("/_studio/delete/product/ground-coffee", [("remove-references", "1")])
            #expect(deleted.status == 303 && deleted.headers["location"]?.hasPrefix("/_studio/?deleted=") == true)
            #expect(!FileManager.default.fileExists(atPath: studio.content.appendingPathComponent("products/ground-coffee.xml").path))
            let after = try Self.snapshot(studio.content)
            #expect(!after.values.contains { String(decoding: $0, as: UTF8.self).contains("\"ground-coffee\"") })
            // A line that named it keeps its words.
            #expect(try studio.file("recipes/cafe-au-lait.xml").contains("<ingredient>1 annos vahvaa Café Digno Ground Coffee -kahvijuomaa</ingredient>"))
            // What is left to fix is the rules' to say (a recipe with no product left, its
            // pictures now unused), never a file that does not read.
            let report = try Self.validate(studio.content)
            let codes = Set(report.diagnostics.filter { $0.severity == .error }.map(\.code.rawValue))
            #expect(codes.isSubset(of: ["recipe-without-product", "retailer-sells-nothing"]), "\(codes)")
            #expect(report.catalog != nil)
        }
    }

    // MARK: Checking as typed

    @Test func aFormIsCheckedAsTypedWithTheRulesAcrossFiles() async throws {
        try await Self.withStudio { studio in
            let fields = try await studio.form("/_studio/edit/product/espresso")
            let empty = try await studio.post("/_studio/check/product/espresso", Self.replacing(fields, "t:summary@fi", with: ""))
            #expect(empty.status == 200 && empty.headers["content-type"] == "application/json")
            #expect(empty.body.contains("\"summary@fi\":[{\"code\":\"empty-field\""))
            // A name another product has: the rule across files, at the name.
            let duplicate = try await studio.post("/_studio/check/product/espresso", Self.replacing(fields, "t:name@fi", with: "Coffee Beans"))
            #expect(duplicate.body.contains("\"name@fi\":[{\"code\":\"duplicate-name\""), "\(duplicate.body)")
            // Nothing was written by checking.
            #expect(try studio.file("products/espresso.xml") == String(contentsOf: Self.repository.appendingPathComponent("content/products/espresso.xml"), encoding: .utf8))
            let clean = try await studio.post("/_studio/check/product/espresso", fields)
            #expect(clean.body.contains("\"errors\":0"))
        }
    }

    // MARK: Hostile requests

    @Test func everyWriteNeedsTheStudiosOriginTokenAndAForm() async throws {
        try await Self.withStudio { studio in
            let before = try Self.snapshot(studio.content)
            let fields = Self.replacing(try await studio.form("/_studio/edit/product/espresso"), "t:summary@en", with: "hacked")
            for path in ["/_studio/save/product/espresso", "/_studio/check/product/espresso", "/_studio/undo/product/espresso"] {
                #expect(try await studio.post(path, fields, token: "wrong").status == 403)
                #expect(try await studio.post(path, fields, origin: "http://evil.example").status == 403)
                #expect(try await studio.post(path, fields, origin: "null").status == 403)
                let noOrigin = try await studio.request("POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "token=\(Self.token)")
                #expect(noOrigin.status == 403)
                let notAForm = try await studio.request("POST", path, headers: ["Origin": studio.origin, "Content-Type": "text/plain"], body: "token=\(Self.token)")
                #expect(notAForm.status == 415)
            }
            // A foreign Host (DNS rebinding) is refused before the studio sees it.
            let rebound = try await studio.request("GET", "/_studio/", headers: ["Host": "evil.example:\(studio.port)"])
            #expect(rebound.status == 403)
            // A body over the form's cap is refused before it is read.
            let huge = try await studio.request("POST", "/_studio/save/product/espresso",
                                                headers: ["Origin": studio.origin, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "\(StudioResponder.formLimit + 1)"])
            #expect(huge.status == 413)
            // No path leaves the content folder.
            for path in ["/_studio/edit/product/..", "/_studio/edit/product/..%2Fcatalog", "/_studio/edit/product/a/b", "/_studio/edit/catalog",
                         "/_studio/edit/product/Espresso", "/_studio/save/product/..%2F..%2Fetc"] {
                let answer = path.contains("/save/") ? try await studio.post(path, fields) : try await studio.get(path)
                #expect([400, 404].contains(answer.status), "\(path): \(answer.status)")
            }
            #expect(try Self.snapshot(studio.content) == before)
        }
    }

    @Test func aLinkInTheContentFolderIsNeitherReadNorWritten() async throws {
        try await Self.withStudio { studio in
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-outside-\(UUID().uuidString).xml")
            defer { try? FileManager.default.removeItem(at: outside) }
            let text = try studio.file("products/espresso.xml").replacingOccurrences(of: "id=\"espresso\"", with: "id=\"linked\"")
            try text.write(to: outside, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(at: studio.content.appendingPathComponent("products/linked.xml"), withDestinationURL: outside)
            let page = try await studio.get("/_studio/edit/product/linked")
            #expect(page.body.contains("is a link or not a file"))
            let saved = try await studio.post("/_studio/save/product/linked", [("t:summary@en", "x"), ("o:summary@en", "Dark-roast ground espresso")])
            #expect(saved.status == 422)
            #expect(try String(contentsOf: outside, encoding: .utf8) == text)
        }
    }
}
