@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// Checking again with the files parsed before (`LoadCache`, as `digno preview` and `digno lsp`
/// do) gives the same report as checking from nothing, over random sequences of edits, adds,
/// removals and renames of content files, and parses only the files that changed.
@Suite struct LoadCacheTests {
    /// The edits a sequence is made of, each on the folder as it stands.
    enum Edit: CaseIterable {
        case breakXML, fixFiles, duplicateName, unknownReference, addProduct, removeRecipe, renameProduct, changeText, overlayEdit,
             swapPicture, cutPicture, overlayBreak, overlayName, overlayClose

        /// An edit of an editor's unsaved texts alone, nothing on disk: the language server's
        /// keystroke, checked with the folder vouched unchanged.
        var isOverlay: Bool { [.overlayEdit, .overlayBreak, .overlayName, .overlayClose].contains(self) }
    }

    /// With stamps taken at once (no racy window), so that files unchanged since are not read
    /// at all, which a file system with nanosecond times (ext4 here) makes safe.
    @Test func aCheckWithTheCacheEqualsOneWithout() throws {
        let content = try Fixtures.makeContent()
        defer { Fixtures.remove(content) }
        let cache = LoadCache(racyWindow: 0)
        var random = SplitMix64(seed: 44)
        var overlays: [String: [UInt8]] = [:]
        let pictures = ["images/icon.png", "images/logo.png", "images/picture.png"]
        let originals = try Dictionary(uniqueKeysWithValues: (xmlFiles(content) + pictures).map { ($0, try Data(contentsOf: content.appendingPathComponent($0))) })
        var reparsed = 0
        var overlaidBefore = Set<String>()
        var found = Set<DiagnosticCode>()
        for step in 0..<60 {
            let edit = Edit.allCases[Int(random.next() % UInt64(Edit.allCases.count))]
            let files = try xmlFiles(content)
            let file = files[Int(random.next() % UInt64(files.count))]
            let url = content.appendingPathComponent(file)
            var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            // What the edit changed on disk, as the kernel tells the preview (`changedOnDisk`).
            var touched: Set<String> = []
            switch edit {
            case .breakXML: text = text.replacingOccurrences(of: "</name>", with: "</nam>")
            case .fixFiles:
                for (path, data) in originals { try data.write(to: content.appendingPathComponent(path)) }
                touched = Set(originals.keys)
                overlays = [:]
                text = (try? String(contentsOf: url, encoding: .utf8)) ?? text
            case .duplicateName: text = text.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Ground Coffee</name>")
            case .unknownReference: text = text.replacingOccurrences(of: "product=\"espresso\"", with: "product=\"espreso\"")
            case .addProduct:
                let id = "p\(step)"
                try Data("""
                    <product id="\(id)"><name>Tuote \(step)</name><icon src="images/icon.png"/><summary>Kuvaus</summary>
                    <body><p>Teksti.</p></body><images><image src="images/picture.png" alt="Kuva"/></images></product>
                    """.utf8).write(to: content.appendingPathComponent("products/\(id).xml"))
                touched = ["products/\(id).xml"]
            case .removeRecipe:
                if let recipe = files.first(where: { $0.hasPrefix("recipes/") && files.filter { $0.hasPrefix("recipes/") }.count > 1 }) {
                    try FileManager.default.removeItem(at: content.appendingPathComponent(recipe))
                    touched = [recipe]
                }
            case .renameProduct:
                if let product = files.first(where: { $0.hasPrefix("products/p") }) {
                    try FileManager.default.moveItem(at: content.appendingPathComponent(product),
                                                     to: content.appendingPathComponent("products/renamed-\(step).xml"))
                    touched = [product, "products/renamed-\(step).xml"]
                }
            case .changeText: text = text.replacingOccurrences(of: "<summary>", with: "<summary>Uusi ")
            case .swapPicture:
                // The icon becomes the picture, which is not square: its header is read again.
                try originals["images/picture.png"]!.write(to: content.appendingPathComponent("images/icon.png"))
                touched = ["images/icon.png"]
            case .cutPicture:
                // The logo cut short: damaged, found when its bytes are read again.
                try originals["images/logo.png"]!.prefix(60).write(to: content.appendingPathComponent("images/logo.png"))
                touched = ["images/logo.png"]
            case .overlayEdit:
                // An editor's unsaved text, in place of the file.
                overlays[file] = Array(text.replacingOccurrences(of: "<summary>", with: "<summary>Luonnos ").utf8)
            case .overlayBreak:
                // Half typed: the file's entity is gone from the catalogue, and back at the next.
                overlays[file] = Array(text.replacingOccurrences(of: "</name>", with: "</na").utf8)
            case .overlayName:
                overlays[file] = Array(text.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Ground Coffee</name>").utf8)
            case .overlayClose:
                // The editor closes a file unsaved: the file on disk counts again.
                if let open = overlays.keys.sorted().first { overlays.removeValue(forKey: open) }
            }
            if [.breakXML, .duplicateName, .unknownReference, .changeText].contains(edit), FileManager.default.fileExists(atPath: url.path) {
                try text.write(to: url, atomically: true, encoding: .utf8)
                touched = [file]
            }
            overlays = overlays.filter { FileManager.default.fileExists(atPath: content.appendingPathComponent($0.key).path) }

            var cached = ContentValidator(contentFolder: content.path, today: Fixtures.today)
            cached.cache = cache
            cached.overlays = overlays
            // An editor's unsaved text changes nothing on disk since the last check, which the
            // language server is told by the editor's watching: the last listing is taken and no
            // file but the overlays is read or stamped.
            cached.folderUnchanged = edit.isOverlay
            // The preview is told by the kernel what changed on disk: every other step says so,
            // and the step between stamps every file as before.
            if step % 2 == 1 { cached.changedOnDisk = touched }
            let (hitsBefore, before, _) = cache.counts
            let withCache = try cached.validate()
            reparsed += cache.counts.misses - before
            var fresh = ContentValidator(contentFolder: content.path, today: Fixtures.today)
            fresh.overlays = overlays
            let withoutCache = try fresh.validate()
            #expect(withCache.diagnostics == withoutCache.diagnostics, "step \(step), \(edit)")
            #expect(withCache.coverage == withoutCache.coverage && withCache.fileCount == withoutCache.fileCount, "step \(step), \(edit)")
            #expect(withCache.catalog == withoutCache.catalog, "step \(step), \(edit)")
            found.formUnion(withoutCache.diagnostics.map(\.code))
            let looked = cache.counts.hits + cache.counts.misses - hitsBefore - before
            if edit.isOverlay {
                // Only the editor's texts, now or at the last check, are loaded again: the
                // others are taken with the last check's catalogue, not even looked up.
                #expect(looked <= overlays.count + overlaidBefore.count, "step \(step): \(looked) files looked at")
            } else if step % 2 == 1, [.breakXML, .duplicateName, .unknownReference, .changeText, .swapPicture, .cutPicture].contains(edit) {
                // Told what changed: only those files, with the editor's texts, are looked at.
                #expect(looked <= touched.count + overlays.count + overlaidBefore.count, "step \(step): \(looked) files looked at")
            }
            overlaidBefore = Set(overlays.keys)
            #expect(withCache.fileDigests.map(\.path) == withoutCache.fileDigests.map(\.path)
                    && withCache.fileDigests.map(\.sha256) == withoutCache.fileDigests.map(\.sha256), "step \(step), \(edit)")
        }
        // The edits made the problems a cache must not hide or keep too long, pictures' too.
        #expect(found.isSuperset(of: [.xmlMalformed, .unknownProduct, .iconNotSquare, .imageDamaged]), "\(found)")
        // The first check parsed every file; the others only those an edit changed, and read
        // only those whose stamp changed (or an editor's text).
        let (hits, misses, unread) = cache.counts
        #expect(hits > 4 * misses, "\(hits) files from the cache, \(misses) parsed")
        // (Restoring every file, a common edit here, gives each a new stamp: read, found the same.)
        #expect(unread > hits / 10, "\(unread) of \(hits) files from the cache not read at all")
        #expect(reparsed == misses)
    }

    /// A stamp vouches for a file only when it is the same file, of the same size, with the
    /// same times, taken 2 s or more after its last change; a file changed with its
    /// modification time put back (as `touch -r` or an archive tool does) still has a new
    /// inode change time, and is read again.
    @Test func aStampVouchesOnlyForAFileUnchangedSinceAndNotJustWritten() throws {
        let content = try Fixtures.makeContent()
        defer { Fixtures.remove(content) }
        let file = content.appendingPathComponent("products/espresso.xml")
        let check = { (cache: LoadCache) throws -> ValidationReport in
            var validator = ContentValidator(contentFolder: content.path, today: Fixtures.today)
            validator.cache = cache
            return try validator.validate()
        }
        // Just written: the default window vouches for nothing, every file is read each time.
        let careful = LoadCache()
        _ = try check(careful)
        _ = try check(careful)
        #expect(careful.counts.unread == 0)
        #expect(careful.counts.hits > 0, "read and found the same bytes")

        let quick = LoadCache(racyWindow: 0)
        _ = try check(quick)
        _ = try check(quick)
        #expect(quick.counts.unread == quick.counts.hits && quick.counts.hits > 0)
        // Written again with the same bytes (a save with no change): read once, found the
        // same, and taken by its new stamp after that.
        try Data(contentsOf: file).write(to: file)
        let before = quick.counts
        _ = try check(quick)
        #expect(quick.counts.hits - before.hits - (quick.counts.unread - before.unread) == 1, "read once")
        let after = quick.counts
        _ = try check(quick)
        #expect(quick.counts.unread - after.unread == quick.counts.hits - after.hits, "then not read")
        // Same size, new bytes, the modification time put back.
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        let text = try String(contentsOf: file, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Espressx</name>")
        #expect(changed.utf8.count == text.utf8.count && changed != text)
        try Data(changed.utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        let report = try check(quick)
        #expect(report.catalog?.products.contains { $0.name == "Espressx" } == true, "read again: its inode changed")
    }

    func xmlFiles(_ content: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: content.path)
            .filter { $0.hasSuffix(".xml") && !$0.hasPrefix("images/") && !$0.contains("/.") }.sorted()
    }
}
