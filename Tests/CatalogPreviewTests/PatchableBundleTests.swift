import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogSite
import Foundation
import GRDB
import Testing

/// The preview's bundle patched in place (`PatchableBundle`) holds what a clean build of the
/// same content holds: after each of a random sequence of edits to a copy of content/ (texts
/// and translations changed, entities renamed, added and removed, references and pictures
/// changed, a file broken and fixed), every screen in every language, a search's hits, and every
/// table's rows but the search indexes' own are a clean build's, and FTS5 finds its indexes
/// sound.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PatchableBundleTests {
    static let today = Day(year: 2026, month: 12, day: 1)!

    /// A copy of content/ to edit, and an empty folder for the bundles.
    static func folders() throws -> (content: URL, output: URL) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("digno-patch-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        return (try PreviewServerTests.contentCopy(), output)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyScreenIsACleanBuildsAfterEachEdit(seed: UInt64) throws {
        let (folder, output) = try Self.folders()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        var editor = ContentEditor(folder: folder.path, random: SplitMix64(seed: seed))
        let cache = LoadCache()
        let patchable = PatchableBundle(folder: output.path)
        defer { patchable.close() }
        var patched = 0, rebuilt = 0
        for step in 0..<24 {
            let edit = editor.edit()
            var builder = BundleBuilder(contentFolder: folder.path, output: output.appendingPathComponent("unused.sqlite").path, today: Self.today)
            builder.loadCache = cache
            let report = try builder.validate()
            // The preview shows the last valid content meanwhile; the next valid one is patched from it.
            guard report.isValid else { continue }
            let outcome = try patchable.patch(to: report)
            switch outcome {
            case .patched: patched += 1
            case .rebuilt(let reason?): Issue.record("step \(step) (\(edit)) was written whole: \(reason)"); rebuilt += 1
            default: break
            }
            let clean = output.appendingPathComponent("clean-\(step).sqlite").path
            let cleanBuilder = BundleBuilder(contentFolder: folder.path, output: clean, today: Self.today)
            _ = try cleanBuilder.write(try cleanBuilder.validate())
            try Self.expectSame(patched: patchable.path, clean: clean, after: "step \(step) (seed \(seed)): \(edit)")
        }
        // The rest broke a file, fixed it, or changed nothing a bundle holds.
        #expect(patched >= 8, "a third of the edits at least are patches (\(patched) of 24)")
        #expect(rebuilt == 0)
    }

    /// The same content again is no patch; other languages in catalog.xml, or a damaged file,
    /// write the bundle whole again, and say why; the bundle is then a clean build's.
    @Test func whatCannotBePatchedIsWrittenWhole() throws {
        let (folder, output) = try Self.folders()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: output)
        }
        let patchable = PatchableBundle(folder: output.path)
        defer { patchable.close() }
        func validated() throws -> ValidationReport {
            try BundleBuilder(contentFolder: folder.path, output: output.appendingPathComponent("unused.sqlite").path, today: Self.today).validate()
        }
        func expectClean(_ name: String, after edit: String) throws {
            let clean = output.appendingPathComponent(name).path
            let builder = BundleBuilder(contentFolder: folder.path, output: clean, today: Self.today)
            _ = try builder.write(try builder.validate())
            try Self.expectSame(patched: patchable.path, clean: clean, after: edit)
        }
        #expect(try patchable.patch(to: validated()) == .rebuilt(reason: nil))
        #expect(try patchable.patch(to: validated()) == .unchanged)

        // English falls back to Swedish now: every language's tables are laid out again.
        let catalog = folder.appendingPathComponent("catalog.xml")
        let declared = try String(contentsOf: catalog, encoding: .utf8)
        let otherFallback = declared.replacingOccurrences(of: #"<language code="en" fallback="fi"/>"#, with: #"<language code="en" fallback="sv"/>"#)
        #expect(otherFallback != declared)
        try otherFallback.write(to: catalog, atomically: true, encoding: .utf8)
        let report = try validated()
        #expect(report.isValid, "\(report.diagnostics.prefix(3))")
        #expect(try patchable.patch(to: report) == .rebuilt(reason: "the languages in catalog.xml changed"))
        try expectClean("clean-languages.sqlite", after: "English falling back to Swedish")

        // The file damaged under the patch: SQLite says so, the patch is rolled back, and the
        // bundle is written whole.
        // Every page but the first (the schema's) overwritten; no patch has read a page since the
        // bundle was written whole, so none is in SQLite's cache.
        let size = try #require(FileManager.default.attributesOfItem(atPath: patchable.path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: patchable.path))
        try handle.seek(toOffset: UInt64(BundleSchema.pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size - BundleSchema.pageSize))
        try handle.close()
        let product = folder.appendingPathComponent("products/espresso.xml")
        let text = try String(contentsOf: product, encoding: .utf8)
        try text.replacingOccurrences(of: "<summary>", with: "<summary>Uusi: ").write(to: product, atomically: true, encoding: .utf8)
        let outcome = try patchable.patch(to: validated())
        guard case .rebuilt(let reason?) = outcome else {
            Issue.record("a damaged bundle was patched: \(outcome)")
            return
        }
        #expect(reason.hasPrefix("the patch failed"), "\(reason)")
        try expectClean("clean-damaged.sqlite", after: "a damaged file")
    }

    /// Every screen in every language, a search's hits for words of the content and the first
    /// letters of names, and every table's rows (the search indexes' through their hits and
    /// FTS5's integrity check).
    static func expectSame(patched: String, clean: String, after edit: String) throws {
        let patchedBundle = try CatalogBundle(patchedAt: patched)
        let cleanBundle = try CatalogBundle(path: clean)
        #expect(patchedBundle.languages == cleanBundle.languages, "\(edit)")
        for language in cleanBundle.languages {
            let (left, right) = (patchedBundle.reading(in: [language]), cleanBundle.reading(in: [language]))
            let screens = try StaticSite(bundle: left, today: today).screens()
            let cleanScreens = try StaticSite(bundle: right, today: today).screens()
            #expect(screens == cleanScreens, "\(language)'s screens after \(edit)")
            for query in ["ca", "caf", "kahvi", "coffee", "espresso", "maito", "milk", "mjölk", "ö", "pää", "Café Digno", "a"] {
                #expect(try left.search(query) == right.search(query), "\(language)'s search for '\(query)' after \(edit)")
            }
        }
        let patchedRows = try tableRows(patched), cleanRows = try tableRows(clean)
        #expect(patchedRows.keys.sorted() == cleanRows.keys.sorted())
        for (table, rows) in cleanRows {
            #expect(patchedRows[table] == rows, "the rows of \(table) after \(edit)")
        }
        let queue = try DatabaseQueue(path: patched)
        try queue.write { db in
            for index in ["search", "search_translated", "search_letters"] {
                try db.execute(sql: "INSERT INTO \(index) (\(index)) VALUES ('integrity-check')")
            }
        }
        try queue.close()
    }

    /// Every table's rows, sorted, as text, but for the search indexes' own tables.
    static func tableRows(_ path: String) throws -> [String: [String]] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [String]] = [:]
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
            for name in names where !["_data", "_idx", "_docsize", "_config"].contains(where: { name.hasSuffix($0) && name.hasPrefix("search") }) {
                tables[name] = try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)").map(\.description).sorted()
            }
            return tables
        }
    }
}

/// Random edits of a content folder as an editor makes them: most keep it valid.
struct ContentEditor {
    let folder: String
    var random: SplitMix64
    /// The products this editor added, by id.
    private var added: [String] = []
    /// A file broken at the last edit, with its bytes before.
    private var broken: (path: String, text: String)?
    private var counter = 0

    init(folder: String, random: SplitMix64) {
        self.folder = folder
        self.random = random
    }

    private func files(_ kind: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + kind)) ?? []).filter { $0.hasSuffix(".xml") }.sorted()
            .map { kind + "/" + $0 }
    }

    private func read(_ path: String) -> String {
        (try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)) ?? ""
    }

    private func write(_ path: String, _ text: String) {
        try? text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
    }

    private mutating func words() -> String {
        let vocabulary = ["kahvi", "maito", "Espresso", "paahdettu", "pehmeä", "äidin", "Öljy", "cafe", "Åbo", "vahva", "suodatin", "latte"]
        counter += 1
        return (0..<Int.random(in: 1...4, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
            + " \(counter)"
    }

    /// Replaces the first match of `pattern` in the file at `path` with `replacement`.
    private func replace(_ path: String, _ pattern: String, _ replacement: String) {
        let text = read(path)
        guard let range = text.range(of: pattern, options: .regularExpression) else { return }
        write(path, text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression, range: range))
    }

    /// Makes one edit; says which.
    mutating func edit() -> String {
        if let broken {
            write(broken.path, broken.text)
            self.broken = nil
            return "fixed \(broken.path)"
        }
        let entityFiles = files("products") + files("recipes") + files("retailers")
        let path = entityFiles.randomElement(using: &random)!
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1:
            let text = words()
            replace(path, path.hasPrefix("retailers") ? "<hours>[^<]*</hours>" : "<summary>[^<]*</summary>",
                    path.hasPrefix("retailers") ? "<hours>\(text)</hours>" : "<summary>\(text)</summary>")
            return "a new default text in \(path)"
        case 2:
            let text = words()
            if path.hasPrefix("retailers") {
                replace(path, #"<hours xml:lang="sv">[^<]*</hours>"#, #"<hours xml:lang="sv">\#(text)</hours>"#)
                return "new Swedish hours in \(path)"
            }
            replace(path, #"<summary xml:lang="sv">[^<]*</summary>"#, #"<summary xml:lang="sv">\#(text)</summary>"#)
            return "a new Swedish summary in \(path)"
        case 3, 4:
            let name = words().capitalized
            replace(path, #"<name( translate="no")?>[^<]*</name>"#, "<name>\(name)</name>")
            return "\(path) renamed \(name)"
        case 5:
            let name = words().capitalized
            // A retailer's name is written in one language.
            guard !path.hasPrefix("retailers") else { return "nothing" }
            if read(path).contains(#"<name xml:lang="en">"#) {
                replace(path, #"<name xml:lang="en">[^<]*</name>"#, #"<name xml:lang="en">\#(name)</name>"#)
            } else {
                replace(path, "(<name>[^<]*</name>)", "$1\n  <name xml:lang=\"en\">\(name)</name>")
            }
            return "\(path)'s English name is \(name)"
        case 6:
            counter += 1
            let id = "uusi-\(counter)"
            let source = files("products").randomElement(using: &random)!
            var text = read(source)
            if let root = text.range(of: "<product[^>]*>", options: .regularExpression) {
                text = text.replacingOccurrences(of: #"id="[a-z0-9-]+""#, with: #"id="\#(id)""#, options: .regularExpression, range: root)
            }
            write("products/\(id).xml", text)
            replace("products/\(id).xml", #"<name( translate="no")?>[^<]*</name>"#, "<name translate=\"no\">\(words().capitalized)</name>")
            let recipe = files("recipes").randomElement(using: &random)!
            replace(recipe, "</ingredients>", "  <ingredient product=\"\(id)\">\(words())</ingredient>\n  </ingredients>")
            added.append(id)
            return "product \(id) added, used by \(recipe)"
        case 7:
            guard let id = added.popLast() else { return "nothing" }
            try? FileManager.default.removeItem(atPath: folder + "/products/\(id).xml")
            for recipe in files("recipes") {
                let text = read(recipe)
                let kept = text.replacingOccurrences(of: #"\n *<ingredient product="\#(id)">[^<]*</ingredient>"#, with: "", options: .regularExpression)
                if kept != text { write(recipe, kept) }
            }
            return "product \(id) removed"
        case 8:
            guard path.hasPrefix("recipes") else { return "nothing" }
            let products = files("products").map { String($0.dropFirst("products/".count).dropLast(4)) }
            let product = products.randomElement(using: &random)!
            replace(path, #"<ingredient product="[a-z0-9-]+">"#, #"<ingredient product="\#(product)">"#)
            return "\(path)'s first product is \(product)"
        case 9:
            // Another picture of the same size in a product's first place, or other bytes under a picture's name.
            let pictures = ["images/products/coffee-beans-1.png", "images/products/espresso-1.png", "images/products/ground-coffee-2.png"]
            if Bool.random(using: &random) {
                let picture = pictures.randomElement(using: &random)!
                replace(files("products").randomElement(using: &random)!, #"<image src="[^"]*""#, #"<image src="\#(picture)""#)
                return "a product shows \(picture)"
            }
            let (from, to) = (pictures.randomElement(using: &random)!, pictures.randomElement(using: &random)!)
            try? FileManager.default.removeItem(atPath: folder + "/" + to)
            try? FileManager.default.copyItem(atPath: folder + "/" + from, toPath: folder + "/" + to)
            return "\(to) holds \(from)'s picture"
        case 10:
            broken = (path, read(path))
            write(path, String(read(path).prefix(120)))
            return "\(path) broken"
        default:
            if read(path).contains(#" position="1""#) {
                replace(path, #" position="1""#, "")
                return "\(path) placed by name"
            }
            replace(path, #" id="[a-z0-9-]+""#, "$0 position=\"1\"")
            return "\(path) placed first"
        }
    }
}
