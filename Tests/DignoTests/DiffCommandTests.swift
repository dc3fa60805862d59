import CatalogModel
import Foundation
import GRDB
import Testing

/// `digno diff`: two bundles, or a bundle and a content folder; its three formats and its exit
/// statuses (as diff's).
@Suite struct DiffCommandTests {
    let folder: URL
    var content: URL { folder.appendingPathComponent("content") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
    }

    func edit(_ file: String, _ old: String, _ new: String) throws {
        let url = content.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(old), "\(file) has \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// Three edits: a summary, a link in a product's text, and what a retailer sells; and a
    /// recipe removed.
    func editContent() throws {
        try edit("products/espresso.xml", "<summary>Tummapaahteinen espressojauhe</summary>", "<summary>Tummapaahteinen, hienoksi jauhettu espressojauhe</summary>")
        try edit("products/espresso.xml", #"<link recipe="cafe-latte">Café Latte</link>"#, #"<link recipe="cafe-mocha">Café Mocha</link>"#)
        try edit("retailers/rinsessa.xml", #"  <sells product="ground-coffee"/>"#, "  <sells product=\"ground-coffee\"/>\n  <sells product=\"espresso\"/>")
        try FileManager.default.removeItem(at: content.appendingPathComponent("recipes/tiramisu-jaalatte.xml"))
    }

    @Test func theSameContentIsStatusZero() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let pictures = try #require(try Self.pictureBytes(ShowCommandTests.bundle))
        #expect(outcome.output == "2026.11.0 (2026-11-22) → 2026.11.0 (2026-11-22): no changes\n"
            + "size: the pictures \(pictures) → \(pictures) bytes (+0); a content folder's bundle is known once it is built\n")
    }

    /// The pictures' bytes of a bundle, read as sqlite3 would: its `images`, and from schema 4
    /// its `renditions`.
    static func pictureBytes(_ bundle: String) throws -> Int? {
        let queue = try DatabaseQueue(path: bundle, configuration: { var configuration = Configuration(); configuration.readonly = true; return configuration }())
        defer { try? queue.close() }
        return try queue.read { db in
            let renditions = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'renditions'") == 1
            return try Int.fetchOne(db, sql: "SELECT sum(byte_count) FROM images").map { images in
                try images + (renditions ? Int.fetchOne(db, sql: "SELECT sum(byte_count) FROM renditions") ?? 0 : 0)
            }
        }
    }

    /// What a release adds is told in bytes: the bundles' when both sides are bundles, and
    /// their pictures'; a content folder's pictures as their renditions will be.
    @Test func whatAReleaseAddsIsToldInBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = DignoRunner.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/small.sqlite").path
        let outcome = try DignoRunner.run(["diff", small, ShowCommandTests.bundle])
        #expect(outcome.status == 1)
        let size = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0 }
        let (oldBundle, newBundle) = (size(small), size(ShowCommandTests.bundle))
        let (oldPictures, newPictures) = (try Self.pictureBytes(small) ?? 0, try Self.pictureBytes(ShowCommandTests.bundle) ?? 0)
        #expect(outcome.output.hasSuffix("\nsize: the bundle \(oldBundle) → \(newBundle) bytes (+\(newBundle - oldBundle)), "
            + "its pictures \(oldPictures) → \(newPictures) bytes (+\(newPictures - oldPictures))\n"), "\(outcome.output)")
        let backwards = try DignoRunner.run(["diff", ShowCommandTests.bundle, small, "--format", "markdown"])
        #expect(backwards.output.hasSuffix("\n\nsize: the bundle \(newBundle) → \(oldBundle) bytes (−\(newBundle - oldBundle)), "
            + "its pictures \(newPictures) → \(oldPictures) bytes (−\(newPictures - oldPictures))\n"), "\(backwards.output)")
    }

    @Test func changesAreShownDownToTheFieldWithStatusOne() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try editContent()
        let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(12)) == [
            "2026.11.0 (2026-11-22) → 2026.11.0 (2026-11-22): 1 removed, 2 changed",
            "products: 1 changed",
            "  changed  product espresso \"Espresso\"",
            "             summary: Tummapaahteinen{+, hienoksi jauhettu+} espressojauhe",
            "             body: … reseptit [Espresso](recipe:espresso), [Cappuccino](recipe:cappuccino) ja [Café [-Latte-]{+Mocha+}](recipe:cafe-[-latte-]{+mocha+}).",
            "             links: +recipe:cafe-mocha  -recipe:cafe-latte",
            "recipes: 1 removed",
            "  removed  recipe tiramisu-jaalatte \"Tiramisu-jäälatte\"",
            "retailers: 1 changed",
            "  changed  retailer rinsessa \"Rinsessa\"",
            "             sells: +espresso",
            "pictures: 0 added, 3 removed",
        ])

        let markdown = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path, "--format", "markdown"])
        #expect(markdown.status == 1)
        #expect(markdown.output.hasPrefix("# What changed: 2026.11.0 → 2026.11.0\n\n**1 removed, 2 changed.**\n\n## Products\n\n- **Changed:** Espresso (espresso)\n"))
        #expect(markdown.output.contains("  - Summary: Tummapaahteinen<ins>, hienoksi jauhettu</ins> espressojauhe\n"))
        #expect(markdown.output.contains("- **Removed:** Tiramisu\\-jäälatte (tiramisu\\-jaalatte)\n"))
        #expect(markdown.output.contains("  - Links: added recipe:cafe\\-mocha; removed recipe:cafe\\-latte\n"))
    }

    /// Pictures are named by their file on a content folder's side, and by where they are used
    /// on a bundle's, which keeps no file names; never by a bare SHA-256.
    @Test func picturesAreNamedByTheirFileOrTheirUse() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: content.appendingPathComponent("recipes/tiramisu-jaalatte.xml"))
        // A picture of its own for espresso's second picture: the same one's colours inverted
        // (by libvips' own command: the bundle keeps renditions, so only new pixels are new).
        let vips = try installedTool("vips", debian: "libvips-tools")
        _ = try CameraPhotos.run(vips, ["invert", content.appendingPathComponent("images/products/espresso-2.png").path,
                                        content.appendingPathComponent("images/products/espresso-2b.png").path])
        try edit("products/espresso.xml", #"src="images/products/espresso-2.png""#, #"src="images/products/espresso-2b.png""#)
        let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        let pictures = try #require(lines.firstIndex { $0.hasPrefix("pictures: ") })
        #expect(lines[pictures] == "pictures: 1 added, 4 removed", "\(outcome.output)")
        #expect(lines[pictures + 1] == "  + images/products/espresso-2b.png")
        let removed = lines[(pictures + 2)...].prefix { $0.hasPrefix("  - ") }
        #expect(removed.count == 4)
        #expect(removed.allSatisfy { $0.wholeMatch(of: #/  - [0-9a-f]{12} \((recipe tiramisu-jaalatte's (icon|picture \d)|product espresso's picture 2)\)/#) != nil },
                "\(removed)")
        #expect(outcome.output.contains(#"pictures: +images/products/espresso-2b.png "#), "the field names the file too: \(outcome.output)")
    }

    @Test func twoBundlesGiveWhatTheirContentGives() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try editContent()
        let newBundle = folder.appendingPathComponent("new.sqlite").path
        #expect(try DignoRunner.run(["build", content.path, "--output", newBundle, "--quiet"]).status == 0)
        // Bundle against bundle: rows compared first, only the differing entities read whole.
        let bundles = try DignoRunner.run(["diff", ShowCommandTests.bundle, newBundle, "--format", "json"])
        let mixed = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path, "--format", "json"])
        #expect(bundles.status == 1 && mixed.status == 1)
        #expect(bundles.output == mixed.output)
        let json = try JSONSerialization.jsonObject(with: Data(bundles.output.utf8)) as? [String: Any]
        #expect(json?["format"] as? Int == 1)
        #expect((json?["entities"] as? [[String: Any]])?.count == 3)
        #expect(try DignoRunner.run(["diff", newBundle, newBundle]).status == 0)
    }

    /// One ingredient line inserted is one line added, in the default language and in each
    /// translation, the lines after it unchanged; lines are numbered from 1; the home is said once.
    @Test func anInsertedLineIsOneLineAdded() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try edit("recipes/cappuccino.xml", "    <ingredient>n. 1,5 dl täysmaitoa</ingredient>\n",
                 "    <ingredient>1 tl sokeria</ingredient>\n    <ingredient xml:lang=\"sv\">1 tsk socker</ingredient>\n"
                     + "    <ingredient xml:lang=\"en\">1 tsp sugar</ingredient>\n    <ingredient>n. 1,5 dl täysmaitoa</ingredient>\n")
        try edit("home.xml", "<body>", "<body><p>Tervetuloa.</p>")
        let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("             ingredients: +2: 1 tl sokeria"), "\(outcome.output)")
        #expect(lines.contains("             en: ingredients: +2: 1 tsp sugar"), "\(outcome.output)")
        #expect(lines.contains("             sv: ingredients: +2: 1 tsk socker"), "\(outcome.output)")
        #expect(lines.contains("  changed  home \"Etusivu\""), "\(outcome.output)")
    }

    /// A recipe's icon and a tab's icon changed: each is its entity's change, whether the new
    /// side is a content folder or a bundle built from it (which names a picture by the use the
    /// comparison read, the changed entity's), and the pictures no longer used are removed.
    @Test func everyIconChangeIsShown() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try edit("recipes/cafe-au-lait.xml", "images/recipes/cafe-au-lait-icon.png", "images/recipes/cafe-latte-icon.png")
        try edit("catalog.xml", "images/tabs/recipes.png", "images/tabs/home.png")
        let newBundle = folder.appendingPathComponent("new.sqlite").path
        #expect(try DignoRunner.run(["build", content.path, "--output", newBundle, "--quiet"]).status == 0)
        for new in [content.path, newBundle] {
            let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, new])
            #expect(outcome.status == 1, "\(outcome.errors)")
            let lines = outcome.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "2026.11.0 (2026-11-22) → 2026.11.0 (2026-11-22): 2 changed", "\(outcome.output)")
            let recipe = try #require(lines.firstIndex(of: "  changed  recipe cafe-au-lait \"Café au Lait\""), "\(outcome.output)")
            #expect(lines[recipe + 1].hasPrefix("             icon: ") && lines[recipe + 1].hasSuffix(new == content.path
                ? " → images/recipes/cafe-latte-icon.png" : "(recipe cafe-au-lait's icon)"), "\(outcome.output)")
            let section = try #require(lines.firstIndex(of: "  changed  section recipes \"Kahvireseptit\""), "\(outcome.output)")
            #expect(lines[section + 1].hasPrefix("             icon: "), "\(outcome.output)")
            #expect(lines.contains("pictures: 0 added, 2 removed"), "\(outcome.output)")
        }
    }

    @Test func translationsAreComparedPerLanguage() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try edit("products/espresso.xml", "<summary xml:lang=\"sv\">Mörkrostat malet espressokaffe</summary>",
                 "<summary xml:lang=\"sv\">Mörkrostat, finmalet espressokaffe</summary>")
        try edit("recipes/cappuccino.xml", "<ingredient xml:lang=\"en\">about 150 ml whole milk</ingredient>",
                 "<ingredient xml:lang=\"en\">150 ml whole milk</ingredient>")
        try edit("recipes/cappuccino.xml", "      <alt xml:lang=\"sv\">Cappuccino i en cappuccinokopp</alt>\n", "")
        let outcome = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(outcome.status == 1, "\(outcome.errors)")
        #expect(outcome.output == """
            2026.11.0 (2026-11-22) → 2026.11.0 (2026-11-22): 2 changed
            products: 1 changed
              changed  product espresso "Espresso"
                         sv: summary: Mörkrostat{+,+} [-malet-]{+finmalet+} espressokaffe
            recipes: 1 changed
              changed  recipe cappuccino "Cappuccino"
                         en: ingredients: +2: 150 ml whole milk  -2: about 150 ml whole milk
                         sv: alt of image[1]: Cappuccino i en cappuccinokopp → (none)

            """ + outcome.output.split(separator: "\n").last.map { $0 + "\n" }!)
        #expect(outcome.output.hasSuffix("; a content folder's bundle is known once it is built\n"))
        // The same between the two bundles, where only the entities whose rows differ are read
        // (and the bundles' own sizes are known).
        let newBundle = folder.appendingPathComponent("new.sqlite").path
        #expect(try DignoRunner.run(["build", content.path, "--output", newBundle, "--quiet"]).status == 0)
        let bundles = try DignoRunner.run(["diff", ShowCommandTests.bundle, newBundle]).output
        #expect(bundles.split(separator: "\n").dropLast() == outcome.output.split(separator: "\n").dropLast())
        #expect(bundles.split(separator: "\n").last?.hasPrefix("size: the bundle ") == true)

        // As a Swedish reader sees it: the Swedish texts as the fields themselves, the English
        // line gone (the Swedish reader reads the Finnish one), a text in Finnish said to be.
        let swedish = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path, "--language", "sv-FI"])
        #expect(swedish.output.hasPrefix("""
            2026.11.0 (2026-11-22) → 2026.11.0 (2026-11-22): 2 changed
            products: 1 changed
              changed  product espresso "Espresso"
                         summary: Mörkrostat{+,+} [-malet-]{+finmalet+} espressokaffe
            recipes: 1 changed
              changed  recipe cappuccino "Cappuccino"
            """), "\(swedish.output)")
        #expect(swedish.output.contains("alt of image[1]") == false && swedish.output.contains("pictures: "))
        let json = try #require(CatalogChanges.decoded(from: Data(try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path, "--format", "json"]).output.utf8)))
        #expect(json.languages == ["fi", "sv", "en"] && json.inLanguages?.keys.sorted() == ["en", "sv"])
    }

    @Test func bundlesOfTwoSchemasAreComparedInTheDefaultLanguageAndSaySo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = folder.appendingPathComponent("dist/catalog.sqlite").path
        #expect(try DignoRunner.run(["build", content.path, "--output", built, "--quiet"]).status == 0)
        let schema2 = folder.appendingPathComponent("dist/catalog.schema-2.sqlite").path
        // The same release in schema 2 and 3: no changes, not every translation added.
        for (old, new) in [(schema2, built), (schema2, content.path), (built, schema2)] {
            let same = try DignoRunner.run(["diff", old, new])
            #expect(same.status == 0, "\(old) \(new): \(same.output)")
            #expect(same.errors == "note: '\(schema2)' is of bundle schema 2, which holds the default language alone: both are compared in it\n")
        }
        // A Swedish edit is not seen from schema 2; a Finnish one is.
        try edit("products/espresso.xml", "<summary xml:lang=\"sv\">Mörkrostat malet espressokaffe</summary>",
                 "<summary xml:lang=\"sv\">Mörkrostat, finmalet espressokaffe</summary>")
        #expect(try DignoRunner.run(["diff", schema2, content.path]).status == 0)
        try edit("products/espresso.xml", "<summary>Tummapaahteinen espressojauhe</summary>", "<summary>Tummapaahteinen jauhe</summary>")
        let changed = try DignoRunner.run(["diff", schema2, content.path])
        #expect(changed.status == 1 && changed.output.contains("summary: Tummapaahteinen [-espressojauhe-]{+jauhe+}"))
        #expect(!changed.output.contains("sv: "))
        // Two bundles of schema 3: no note.
        #expect(try DignoRunner.run(["diff", built, built]).errors == "")
    }

    @Test func errorsAreStatusTwo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try DignoRunner.run(["diff", ShowCommandTests.bundle, folder.appendingPathComponent("nothing").path])
        #expect(missing.status == 2)
        #expect(missing.errors.hasSuffix("nothing' cannot be compared: No such file or directory\n"), "\(missing.errors)")
        let notABundle = folder.appendingPathComponent("text.sqlite")
        try Data("not a bundle".utf8).write(to: notABundle)
        let refused = try DignoRunner.run(["diff", notABundle.path, ShowCommandTests.bundle])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("cannot be compared"))
        try edit("products/espresso.xml", "<summary>", "<summery>")
        let invalid = try DignoRunner.run(["diff", ShowCommandTests.bundle, content.path])
        #expect(invalid.status == 2)
        #expect(invalid.errors.hasPrefix("error: the content in '\(content.path)' has "), "\(invalid.errors)")
        #expect(invalid.errors.contains("run digno validate"))
    }
}
