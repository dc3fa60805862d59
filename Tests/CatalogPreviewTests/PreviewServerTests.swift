@testable import BundleCompiler
import CatalogContent
import CatalogModel
@testable import CatalogPreview
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The preview as it runs: a real server on a free port of 127.0.0.1 over a copy of the shipped
/// content, edited, broken and fixed on disk while it runs. (The browser tests in Tests/Browser
/// do the same through Chromium.)
@Suite(.serialized, .timeLimit(.minutes(10))) struct PreviewServerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A copy of content/ to edit.
    static func contentCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-preview-tests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("content"), to: folder)
        return folder
    }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The page's build number.
    static func generation(_ page: String) -> String? {
        page.components(separatedBy: "<meta name=\"digno-generation\" content=\"").dropFirst().first?.split(separator: "\"").first.map(String.init)
    }

    /// Waits for the page at `url` to satisfy `condition`, for as long as the rebuild takes (a
    /// busy machine has taken a minute): the suite's time limit is the guard against a hang.
    static func eventually(_ url: String, _ condition: (String) -> Bool) async throws -> String {
        while true {
            let page = try await get(url).body
            if condition(page) { return page }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func options(_ content: URL, port: UInt16 = 0, compare: String? = nil, watching: PreviewServer.Watching = .events) -> PreviewServer.Options {
        .init(contentFolder: content.path, port: port, day: { Day("2026-11-22") }, run: "test", watching: watching, compare: compare)
    }

    /// Runs `body` with a started server, and stops it whatever happens.
    static func withServer(
        _ content: URL, compare: String? = nil, watching: PreviewServer.Watching = .events, log: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (PreviewServer, String) async throws -> Void
    ) async throws {
        let server = try PreviewServer(options: options(content, compare: compare, watching: watching), log: log)
        let address = try await server.start()
        do {
            try await body(server, address)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Told by the kernel (inotify) and by looking at the folder (`--poll`), the same.
    @Test(arguments: [PreviewServer.Watching.events, .polling])
    func editBreakFixRemoveAndStop(watching: PreviewServer.Watching) async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        var scratch: URL?
        var served = ""
        try await Self.withServer(content, watching: watching) { server, address in
            served = address
            scratch = server.scratch
            #expect(address.hasPrefix("http://127.0.0.1:"))
            #expect(server.scratch.path.hasPrefix(FileManager.default.temporaryDirectory.path))
            let page = address + "products/espresso"

            let first = try await Self.get(page)
            #expect(first.status == 200)
            let firstGeneration = try #require(Self.generation(first.body))

            // An edit: the page changes, under a new build number.
            let file = content.appendingPathComponent("products/espresso.xml")
            let original = try String(contentsOf: file, encoding: .utf8)
            try original.replacingOccurrences(of: ">Espresso</name>", with: ">Espresso Muokattu</name>").write(to: file, atomically: true, encoding: .utf8)
            // The bundle is patched in place: a page read between the patch's commit and the
            // build's new number has the new text under the old number; the number follows.
            let edited = try await Self.eventually(page) { $0.contains("Espresso Muokattu") && Self.generation($0) != firstGeneration }
            #expect(edited.contains("<h1 class=\"title\">Espresso Muokattu</h1>"))
            #expect(Self.generation(edited) != firstGeneration)

            // Broken: the problem over the last version that built.
            try original.replacingOccurrences(of: "</name>", with: "</nam>").write(to: file, atomically: true, encoding: .utf8)
            let broken = try await Self.eventually(page) { $0.contains("digno-problems") }
            #expect(broken.contains(#"<span class="place">products/espresso.xml:3:38:</span> <span class="severity">virhe:</span>"#))
            #expect(broken.contains("[xml-malformed]"))
            // The panel's words in the page's language; the message as digno validate words it.
            #expect(broken.contains(#"<section id="digno-problems" class="digno-problems" role="alert" lang="fi""#))
            #expect(broken.contains("Sisällössä on virheitä: 1 virhe, 0 varoitusta "))
            let brokenSwedish = try await Self.get(address + "sv/products/espresso").body
            #expect(brokenSwedish.contains("Innehållet har fel: 1 fel, 0 varningar i "))
            #expect(brokenSwedish.contains(#"<span class="severity">fel:</span> <span class="message" lang="en">"#))
            #expect(broken.contains("Espresso Muokattu"), "the last version that built is still shown")

            // Fixed: the app comes back.
            try original.write(to: file, atomically: true, encoding: .utf8)
            let fixed = try await Self.eventually(page) { !$0.contains("digno-problems") }
            #expect(!fixed.contains("digno-problems"))
            #expect(fixed.contains("<h1 class=\"title\">Espresso</h1>"))

            // A file removed while it runs: the recipes that use the product are errors, shown
            // over the last version, in which the product is still there.
            try FileManager.default.removeItem(at: file)
            let removed = try await Self.eventually(address + "products") { $0.contains("digno-problems") }
            #expect(removed.contains(#"<span class="place">recipes/cafe-latte.xml:11:5:</span> <span class="severity">virhe:</span> <span class="message" lang="en">ingredient names product &#39;espresso&#39;, which does not exist; use the id of a file in products/</span> <span class="code">[unknown-product]</span>"#))
            #expect(removed.contains("href=\"/products/espresso\""))

            // The scratch folder holds the bundle shown, patched in place since it was first
            // written, and its WAL files.
            let files = try FileManager.default.contentsOfDirectory(atPath: server.scratch.path).filter { !$0.hasPrefix(".") }
            #expect(Set(files) == ["preview-1.sqlite", "preview-1.sqlite-wal", "preview-1.sqlite-shm"], "\(files)")
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(scratch).path))
        await #expect(throws: (any Error).self) { try await Self.get(served) }
    }

    @Test func withCompareThePagesShowWhatTheContentChanges() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        // The shipped content's bundle, as a release would be: built from the copy before editing.
        let bundle = content.deletingLastPathComponent().appendingPathComponent("compare-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let builder = BundleBuilder(contentFolder: content.path, output: bundle, today: Day("2026-11-22"))
        _ = try builder.write(try builder.validate())
        try await Self.withServer(content, compare: bundle) { _, address in
            let page = address + "recipes"
            let same = try await Self.get(page).body
            #expect(same.contains("<summary>Compared with \(bundle) (2026.11.0): no changes</summary>"), "\(same.suffix(600))")

            let file = content.appendingPathComponent("products/espresso.xml")
            let original = try String(contentsOf: file, encoding: .utf8)
            try original.replacingOccurrences(of: "<summary>Tummapaahteinen espressojauhe</summary>", with: "<summary>Tummapaahteinen, hieno espressojauhe</summary>")
                .write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: content.appendingPathComponent("recipes/tiramisu-jaalatte.xml"))
            let changed = try await Self.eventually(page) { $0.contains("1 removed, 1 changed") }
            #expect(changed.contains("<summary>Compared with \(bundle) (2026.11.0): 1 removed, 1 changed</summary>"))
            #expect(changed.contains(#"<li class="changed"><span class="change">changed</span> product <span class="id">espresso</span> “Espresso”"#))
            #expect(changed.contains("<li>summary: Tummapaahteinen{+, hieno+} espressojauhe</li>"))
            #expect(changed.contains(#"<li class="removed"><span class="change">removed</span> recipe <span class="id">tiramisu-jaalatte</span> “Tiramisu-jäälatte”"#))

            // The Finnish summary changed and its translations did not: outdated, in the warnings
            // panel and on the translation page, each linked to the screen in its language.
            #expect(changed.contains(#"<details id="digno-warnings" class="digno-warnings" lang="fi">"#))
            #expect(changed.contains("[translation-outdated]"))
            let translations = try await Self.get(address + "_preview/translations")
            #expect(translations.status == 200)
            #expect(translations.body.contains("Outdated translations are those whose Finnish text changed since 2026.11.0 while they did not."))
            for language in ["sv", "en"] {
                #expect(translations.body.contains(#"<a href="/\#(language)/products/espresso">/\#(language)/products/espresso</a> <span class="place">products/espresso.xml:"#),
                        "\(language)")
            }
            #expect(translations.body.components(separatedBy: "[translation-outdated]").count == 3)
        }
    }

    @Test func theTranslationPageListsWhatIsMissingWithLinksToItsScreens() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        let terminal = Terminal()
        try await Self.withServer(content, log: terminal.say) { _, address in
            let complete = try await Self.get(address + "_preview/translations").body
            #expect(complete.contains(#"<h2 id="language-sv"><span lang="sv">Svenska</span> (sv: 130 of 130 texts, 100 %)</h2>"#))
            #expect(complete.contains("<p>Every text is translated.</p>"))
            #expect(complete.contains("Start the preview with <code>--compare</code>"))
            #expect(!(try await Self.get(address + "recipes").body.contains("digno-warnings")), "no warnings, no panel")

            let file = content.appendingPathComponent("recipes/cafe-latte.xml")
            let original = try String(contentsOf: file, encoding: .utf8)
            try original.replacingOccurrences(of: "  <summary xml:lang=\"sv\">Italienskt kaffe med mjölk</summary>\n", with: "")
                .write(to: file, atomically: true, encoding: .utf8)
            let page = try await Self.eventually(address + "sv/recipes/cafe-latte") { $0.contains("digno-warnings") }
            #expect(page.contains("<summary>Byggdes, med varningar: 0 fel, 1 varning i "), "in the page's language, Swedish")
            #expect(page.contains(#"<p class="lead" lang="fi">Italialainen maitokahvi</p>"#))
            let missing = try await Self.get(address + "_preview/translations").body
            #expect(missing.contains("(sv: 129 of 130 texts, 99 %)") && missing.contains("(en: 130 of 130 texts, 100 %)"))
            #expect(missing.contains(#"<li class="warning"><a href="/sv/recipes/cafe-latte">/sv/recipes/cafe-latte</a> <span class="place">recipes/cafe-latte.xml:7:3:</span>"#))
            #expect(missing.contains("[translation-missing]"))
        }
        // The terminal heard of the warning too, as digno validate prints it, once.
        let said = terminal.lines.joined()
        #expect(said.contains("recipes/cafe-latte.xml:7:3: warning: "), "\(said)")
        #expect(said.contains("[translation-missing]") && said.contains("the pages show these in their warnings panel"))
        #expect(said.components(separatedBy: "[translation-missing]").count == 2, "\(said)")
    }

    /// A `git checkout` of another branch under a running preview: its files written within
    /// moments of each other are one patch, and the pages show the branch. (The checkout may be
    /// heard as two when git itself pauses for longer than the quiet spell on a busy machine;
    /// `FolderEventsTests` holds the spell itself.)
    @Test func aCheckoutOfAnotherBranchIsOnePatch() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", content.path, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw GitMissing(reason: "\(error)") }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw GitMissing(reason: "git \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
        }
        try git("init", "-q", "-b", "main")
        try git("add", "-A")
        try git("commit", "-q", "-m", "content")
        try git("checkout", "-q", "-b", "summer")
        for (file, from, to) in [("products/espresso.xml", "<summary>", "<summary>Kesä: "), ("recipes/cafe-latte.xml", "<summary>", "<summary>Kesä: "),
                                 ("retailers/cafe-kahvila.xml", "<hours>", "<hours>Kesällä ")] {
            let url = content.appendingPathComponent(file)
            try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
        }
        try git("commit", "-q", "-a", "-m", "summer")
        try git("checkout", "-q", "main")
        let terminal = Terminal()
        try await Self.withServer(content, log: terminal.say) { _, address in
            #expect(!(try await Self.get(address + "products/espresso").body.contains("Kesä: ")))
            let before = terminal.lines.count
            try git("checkout", "-q", "summer")
            let page = try await Self.eventually(address + "products/espresso") { $0.contains("Kesä: ") }
            #expect(page.contains("Kesä: "))
            #expect(try await Self.get(address + "recipes/cafe-latte").body.contains("Kesä: "))
            #expect(try await Self.get(address + "retailers").body.contains("Kesällä "))
            // A moment for a second build, were the checkout heard as two.
            try await Task.sleep(for: .milliseconds(300))
            let builds = terminal.lines.dropFirst(before).filter { $0.hasPrefix("built ") }
            #expect((1...2).contains(builds.count), "\(builds)")
            #expect(builds.first?.contains("3 entities patched") == true || builds.count == 2, "\(builds)")
        }
    }

    /// A photo saved while the preview runs is shown at once by its stand-in (here a picture
    /// with no thumbnail: words saying it is being prepared), then by its renditions, made on the
    /// preview's own thread and patched in; those are the renditions a build makes.
    @Test func aPhotoSavedShowsItsStandInThenItsRenditions() async throws {
        // The rendition cache is beside the content folder: a folder of its own, so that the
        // picture is new to it.
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("digno-preview-stand-in-\(UUID().uuidString)")
        let content = parent.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("content"), to: content)
        defer { try? FileManager.default.removeItem(at: parent) }
        let terminal = Terminal()
        let held = DispatchSemaphore(value: 0)
        var options = Self.options(content)
        options.beforeMakingRenditions = { held.wait() }
        let server = try PreviewServer(options: options, log: terminal.say)
        let address = try await server.start()
        do {
            let page = address + "products/espresso"
            let first = try await Self.get(page).body
            // A new picture of 600 × 450 in the place of the product's first.
            let picture = StandIn.placeholder((600, 450))
            #expect(picture.width == 64 && picture.height == 48)
            let photo = Data(picture.bytes)
            let standInID = picture.sha256
            try photo.write(to: content.appendingPathComponent("images/products/espresso-1.png"))
            let shown = try await Self.eventually(page) { Self.generation($0) != Self.generation(first) }
            #expect(shown.contains("/images/\(standInID)"))
            #expect(terminal.lines.contains { $0.contains("a photo shown by a placeholder until its renditions are made; open pages update") }, "\(terminal.lines)")
            // The placeholder is served as words, never kept by the browser.
            let (data, response) = try await URLSession.shared.data(from: URL(string: address + "images/\(standInID)")!)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/svg+xml")
            #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            #expect(String(decoding: data, as: UTF8.self).contains("Preparing the picture…"))
            #expect(String(decoding: data, as: UTF8.self).contains(#"width="640" height="480""#))

            // Let go: the renditions are made and patched in, with no further save.
            held.signal()
            let rendered = try await Self.eventually(page) { Self.generation($0) != Self.generation(shown) }
            #expect(!rendered.contains("/images/\(standInID)"))
            #expect(terminal.lines.contains { $0.hasPrefix("made the renditions of 1 photo in ") })
            // The picture's id is now its rendition's, as a clean build of the same folder makes it.
            let report = try BundleBuilder(contentFolder: content.path, output: parent.appendingPathComponent("out.sqlite").path).validate()
            let built = try #require(report.pictures["images/products/espresso-1.png"])
            #expect(built.standIn == nil)
            #expect(rendered.contains("/images/\(built.rendition.sha256)"))
            let image = try await URLSession.shared.data(from: URL(string: address + "images/\(built.rendition.sha256)")!)
            #expect([UInt8](image.0) == built.rendition.bytes)
        } catch {
            held.signal()
            await server.stop()
            throw error
        }
        await server.stop()
    }

    struct GitMissing: Error, CustomStringConvertible {
        var reason: String
        var description: String { "this test needs git (apt-get install git): \(reason)" }
    }

    @Test func stoppingTwiceOrBeforeStartingIsSafe() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        // Stopped before it started: start gives up, and the scratch folder is gone.
        let early = try PreviewServer(options: Self.options(content))
        await early.stop()
        await #expect {
            _ = try await early.start()
        } throws: { "\($0)" == "stopped before it started" }
        #expect(!FileManager.default.fileExists(atPath: early.scratch.path))

        // Stopped twice at once: both return once it has stopped.
        let server = try PreviewServer(options: Self.options(content))
        let address = try await server.start()
        async let first: Void = server.stop()
        async let second: Void = server.stop()
        _ = await (first, second)
        #expect(!FileManager.default.fileExists(atPath: server.scratch.path))
        await #expect(throws: (any Error).self) { try await Self.get(address) }
        await server.stop()
    }

    @Test func aPortInUseIsAClearError() async throws {
        let content = try Self.contentCopy()
        defer { try? FileManager.default.removeItem(at: content) }
        try await Self.withServer(content) { _, address in
            let port = try #require(address.split(separator: ":").last.flatMap { UInt16($0.dropLast()) }, "\(address)")
            let second = try PreviewServer(options: Self.options(content, port: port))
            await #expect {
                _ = try await second.start()
            } throws: { error in
                // The system's error kept: EADDRINUSE.
                "\(error)".contains("cannot listen on 127.0.0.1:\(port)") && (error as? PreviewServer.Failure)?.cause?.code == "errno:\(EADDRINUSE)"
            }
            second.discard()
            #expect(!FileManager.default.fileExists(atPath: second.scratch.path))
        }
    }
}

/// What the preview said on its terminal.
private final class Terminal: @unchecked Sendable {
    // @unchecked Sendable: `said` is read and written under `lock`.
    private let lock = NSLock()
    private var said: [String] = []

    var lines: [String] { lock.withLock { said } }

    @Sendable func say(_ line: String) {
        lock.withLock { said.append(line) }
    }
}
