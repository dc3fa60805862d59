import Foundation
import Testing

/// `digno translations import`: a translator's XLIFF file written back into the content files
/// as the `xml:lang` elements an editor would write, touching nothing else, or refused whole.
@Suite struct TranslationImportTests {
    let folder: URL
    var content: URL { folder.appendingPathComponent("content") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
    }

    /// Every XML file of the content and its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: content.path)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".xml") || path.hasPrefix(".") || path.contains("/.") {
                files[path] = try Data(contentsOf: content.appendingPathComponent(path))
            }
        }
        return files
    }

    func read(_ file: String) throws -> String {
        try String(contentsOf: content.appendingPathComponent(file), encoding: .utf8)
    }

    func edit(_ file: String, _ old: String, _ new: String) throws {
        let text = try read(file)
        #expect(text.contains(old), "\(file) has \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: content.appendingPathComponent(file), atomically: true, encoding: .utf8)
    }

    /// Exports into `language`; the file's text.
    func export(_ extra: [String] = [], language: String = "sv") throws -> String {
        let path = folder.appendingPathComponent("export.xlf").path
        let outcome = try DignoRunner.run(["translations", "export", content.path, "--language", language, "--output", path] + extra)
        #expect(outcome.status == 0, "\(outcome.errors)")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Imports `xliff` (written to a file beside the content); the outcome.
    func importing(_ xliff: String, _ extra: [String] = []) throws -> DignoRunner.Outcome {
        let path = folder.appendingPathComponent("returned.xlf")
        try Data(xliff.utf8).write(to: path)
        return try DignoRunner.run(["translations", "import", path.path, content.path] + extra)
    }

    /// Removes every translation into `language` from the content, as if never written.
    func strip(_ language: String) throws {
        for (path, _) in try snapshot() where path.hasSuffix(".xml") {
            let text = try read(path)
            let stripped = text.replacing(try Regex(#"\n[ \t]*<(\w+) xml:lang="\#(language)">.*?</\1>"#).dotMatchesNewlines(), with: "")
            if stripped != text { try stripped.write(to: content.appendingPathComponent(path), atomically: true, encoding: .utf8) }
        }
    }

    @Test func aRoundTripWithNothingChangedWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try snapshot()
        for extra in [[], ["--xliff", "2.0"]] {
            for language in ["sv", "en"] {
                let outcome = try importing(try export(extra, language: language))
                #expect(outcome.status == 0, "\(outcome.output) \(outcome.errors)")
                #expect(outcome.output == "imported 0 translations into \(language) (0 new, 0 changed) in 0 files; 130 unchanged\n")
            }
        }
        #expect(try snapshot() == before)
    }

    @Test func translationsComeBackWhereAnEditorWritesThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try export()
        try strip("sv")
        try edit("products/espresso.xml", "  <summary>Tummapaahteinen", "  <!-- kept -->\n  <summary>Tummapaahteinen")
        let outcome = try importing(exported)
        #expect(outcome.status == 0, "\(outcome.output) \(outcome.errors)")
        #expect(outcome.output.contains("products/espresso.xml: product “Espresso”: summary (new), body (new), alt of image[1] (new), alt of image[2] (new)\n"))
        #expect(outcome.output.hasSuffix("imported 130 translations into sv (130 new, 0 changed) in 24 files; 0 unchanged\n"))
        // Each after the Finnish and before the English, at its indentation; the comment kept.
        let espresso = try read("products/espresso.xml")
        #expect(espresso.contains("""
              <!-- kept -->
              <summary>Tummapaahteinen espressojauhe</summary>
              <summary xml:lang="sv">Mörkrostat malet espressokaffe</summary>
              <summary xml:lang="en">Dark-roast ground espresso</summary>
            """))
        #expect(espresso.contains("""
                <image src="images/products/espresso-1.png" alt="Café Digno Espresso -pakkaus">
                  <alt xml:lang="sv">Förpackning med Café Digno Espresso</alt>
                  <alt xml:lang="en">Pack of Café Digno Espresso</alt>
            """))
        let cappuccino = try read("recipes/cappuccino.xml")
        #expect(cappuccino.contains("""
                <ingredient product="espresso">1 annos Café Digno Espressoa</ingredient>
                <ingredient xml:lang="sv">1 shot Café Digno Espresso</ingredient>
                <ingredient xml:lang="en">1 shot of Café Digno Espresso</ingredient>
                <ingredient>n. 1,5 dl täysmaitoa</ingredient>
                <ingredient xml:lang="sv">ca 1,5 dl standardmjölk</ingredient>
            """))
        #expect(cappuccino.contains("""
              <method xml:lang="sv">
                <p>Värm mjölken och skumma den med espressomaskinens ångrör eller med en mjölkskummare. Brygg
                  espresson direkt i en förvärmd cappuccinokopp. Häll den uppskummade mjölken över espresson i
                  koppen.</p>
              </method>
            """))
        // The same translations as before: the export is the same bytes, the content valid.
        #expect(try export() == exported)
        #expect(try DignoRunner.run(["validate", content.path]).status == 0)
    }

    @Test func aPictureWithoutTranslatedAltTextsGetsThemInsideIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let english = try export(language: "en"), swedish = try export()
        try strip("sv")
        try strip("en")
        try edit("products/espresso.xml", #"<image src="images/products/espresso-1.png" alt="Café Digno Espresso -pakkaus">"# + "\n    </image>",
                 #"<image src="images/products/espresso-1.png" alt="Café Digno Espresso -pakkaus" />"#)
        #expect(try importing(english).status == 0)
        // Swedish after English is written before it: the catalogue declares sv first.
        #expect(try importing(swedish).status == 0)
        #expect(try read("products/espresso.xml").contains("""
              <summary>Tummapaahteinen espressojauhe</summary>
              <summary xml:lang="sv">Mörkrostat malet espressokaffe</summary>
              <summary xml:lang="en">Dark-roast ground espresso</summary>
            """))
        #expect(try read("products/espresso.xml").contains("""
                <image src="images/products/espresso-1.png" alt="Café Digno Espresso -pakkaus">
                  <alt xml:lang="sv">Förpackning med Café Digno Espresso</alt>
                  <alt xml:lang="en">Pack of Café Digno Espresso</alt>
                </image>
            """))
        #expect(try export() == swedish)
        #expect(try export(language: "en") == english)
    }

    @Test func aFileWithCRLFLineEndsKeepsThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try export()
        try strip("sv")
        let crlf = try read("recipes/cappuccino.xml").replacingOccurrences(of: "\n", with: "\r\n")
        try crlf.write(to: content.appendingPathComponent("recipes/cappuccino.xml"), atomically: true, encoding: .utf8)
        #expect(try importing(exported).status == 0)
        let imported = try read("recipes/cappuccino.xml")
        #expect(!imported.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare LF in \(imported)")
        #expect(imported.contains("  <summary xml:lang=\"sv\">Italienskt kaffe med mjölk</summary>\r\n"))
        #expect(try export() == exported)
    }

    @Test func aChangedTranslationReplacesOnlyItsWords() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var xliff = try export()
        xliff = xliff.replacingOccurrences(of: "<target state=\"translated\">Mörkrostat malet espressokaffe</target>",
                                           with: "<target state=\"translated\">Mörkrostat  malet\n espresso &amp; mer</target>")
        // A rich text's words moved inside its codes, an emphasis kept in its paragraph.
        let method = #"<g id="1" ctype="x-p">Värm mjölken och skumma"#
        let first = try #require(xliff.range(of: method))
        xliff.replaceSubrange(first, with: #"<g id="1" ctype="x-p">Värm först mjölken och skumma"#)
        let before = try read("products/espresso.xml")
        let outcome = try importing(xliff)
        #expect(outcome.status == 0, "\(outcome.output) \(outcome.errors)")
        #expect(outcome.output == """
            products/espresso.xml: product “Espresso”: summary
            recipes/cappuccino.xml: recipe “Cappuccino”: method
            imported 2 translations into sv (0 new, 2 changed) in 2 files; 128 unchanged

            """)
        #expect(try read("products/espresso.xml") == before.replacingOccurrences(of: "Mörkrostat malet espressokaffe", with: "Mörkrostat malet espresso &amp; mer"))
        #expect(try read("recipes/cappuccino.xml").contains("    <p>Värm först mjölken och skumma den med espressomaskinens ångrör eller med en mjölkskummare.\n"))
    }

    @Test func aTargetNotMarkedDoneIsLeftAsItIs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try snapshot()
        let xliff = try export().replacingOccurrences(of: "<target state=\"translated\">Mörkrostat malet espressokaffe</target>",
                                                      with: "<target state=\"needs-translation\">Något annat</target>")
        let outcome = try importing(xliff)
        #expect(outcome.status == 0)
        #expect(outcome.output.hasSuffix("129 unchanged; 1 not marked translated, left as they are\n"), "\(outcome.output)")
        // XLIFF 2.0's default state is initial: a target without a state is not done.
        let xliff20 = try export(["--xliff", "2.0"]).replacingOccurrences(of: #"<segment state="translated"><source>Tummapaahteinen espressojauhe</source><target>Mörkrostat malet espressokaffe</target>"#,
                                                                      with: #"<segment><source>Tummapaahteinen espressojauhe</source><target>Något annat</target>"#)
        #expect(try importing(xliff20).output.hasSuffix("1 not marked translated, left as they are\n"))
        #expect(try snapshot() == before)
    }

    @Test func anImportInTwoStepsEndsAsInOne() throws {
        // A killed import leaves each file as it was or as imported: the rerun finishes it.
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try export()
        try strip("sv")
        let half = exported.replacing(try Regex(#"<group id="recipe\..*?</group>\n"#).dotMatchesNewlines(), with: "")
        #expect(try importing(half).status == 0)
        let outcome = try importing(exported)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("recipes/") && !outcome.output.contains("products/"), "\(outcome.output)")
        #expect(try export() == exported)
    }

    @Test func aCommentInATranslationStays() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try edit("products/espresso.xml", #"<summary xml:lang="sv">Mörkrostat"#, #"<summary xml:lang="sv"><!-- granskad av Anna -->Mörkrostat"#)
        try edit("recipes/cappuccino.xml", "  <method xml:lang=\"sv\">\n", "  <method xml:lang=\"sv\">\n    <!-- granskad -->\n")
        var xliff = try export()
        xliff = xliff.replacingOccurrences(of: "Mörkrostat malet espressokaffe</target>", with: "Mörkrostat finmalet espressokaffe</target>")
        xliff.replaceSubrange(try #require(xliff.range(of: #"<g id="1" ctype="x-p">Värm mjölken och skumma"#)), with: #"<g id="1" ctype="x-p">Värm först mjölken och skumma"#)
        #expect(try importing(xliff).status == 0)
        #expect(try read("products/espresso.xml").contains(#"<summary xml:lang="sv"><!-- granskad av Anna -->Mörkrostat finmalet espressokaffe</summary>"#))
        #expect(try read("recipes/cappuccino.xml").contains("  <method xml:lang=\"sv\">\n    <!-- granskad -->\n    <p>Värm först mjölken"))
    }

    @Test func aContentFileThatIsALinkStaysOne() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = content.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: content.appendingPathComponent("products/espresso.xml"), to: shared.appendingPathComponent("espresso.xml"))
        try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("products/espresso.xml").path, withDestinationPath: "../shared/espresso.xml")
        let xliff = try export().replacingOccurrences(of: "Mörkrostat malet espressokaffe</target>", with: "Mörkrostat finmalet espressokaffe</target>")
        #expect(try importing(xliff).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: content.appendingPathComponent("products/espresso.xml").path) == "../shared/espresso.xml")
        #expect(try String(contentsOf: shared.appendingPathComponent("espresso.xml"), encoding: .utf8).contains("Mörkrostat finmalet espressokaffe"))
    }

    @Test func picturesWhoseNamesDifferInLettersAnIdCannotHoldHaveIdsOfTheirOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = content.appendingPathComponent("images/products")
        try FileManager.default.moveItem(at: images.appendingPathComponent("espresso-1.png"), to: images.appendingPathComponent("espresso-ä.png"))
        try FileManager.default.moveItem(at: images.appendingPathComponent("espresso-2.png"), to: images.appendingPathComponent("espresso-ö.png"))
        try edit("products/espresso.xml", "espresso-1.png", "espresso-ä.png")
        try edit("products/espresso.xml", "espresso-2.png", "espresso-ö.png")
        let xliff = try export()
        let pictures = xliff.matches(of: /<trans-unit id="(product\.espresso\.picture\.[^"]+)"/).map { String($0.output.1) }
        #expect(pictures.count == 2 && Set(pictures).count == 2, "\(pictures)")
        #expect(try importing(xliff).output.hasSuffix("130 unchanged\n"))
        let unit = try #require(xliff.range(of: #"<trans-unit id="\#(pictures[1])""#))
        let target = try #require(xliff.range(of: "</target>", range: unit.upperBound..<xliff.endIndex))
        let opening = try #require(xliff.range(of: #"<target state="translated">"#, range: unit.upperBound..<xliff.endIndex))
        let changed = xliff.replacingCharacters(in: opening.upperBound..<target.lowerBound, with: "Espresso i kopp")
        #expect(try importing(changed).status == 0)
        let espresso = try read("products/espresso.xml")
        #expect(espresso.contains("<alt xml:lang=\"sv\">Förpackning med Café Digno Espresso</alt>"))
        #expect(espresso.contains("<alt xml:lang=\"sv\">Espresso i kopp</alt>"))
    }

    @Test func anXLIFF20UnitWithASegmentLeftUntranslatedIsNotDone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try snapshot()
        let xliff = try export(["--xliff", "2.0"]).replacingOccurrences(
            of: #"<segment state="translated"><source>Tummapaahteinen espressojauhe</source><target>Mörkrostat malet espressokaffe</target></segment>"#,
            with: #"<segment state="translated"><source>Tummapaahteinen </source><target>Mörkrostat </target></segment><segment state="translated"><source>espressojauhe</source></segment>"#)
        let outcome = try importing(xliff)
        #expect(outcome.output.hasSuffix("129 unchanged; 1 not marked translated, left as they are\n"), "\(outcome.output)")
        #expect(try snapshot() == before)
    }

    // MARK: Refusals: each with its diagnostic, and nothing written

    /// Imports `xliff`, expecting a refusal with `code`; the report, every file unchanged.
    func refused(_ xliff: String, _ code: String, format: String = "text") throws -> String {
        let before = try snapshot()
        let outcome = try importing(xliff, ["--format", format])
        #expect(outcome.status == 1, "\(outcome.output) \(outcome.errors)")
        #expect(outcome.output.contains(code), "\(outcome.output)")
        #expect(outcome.errors.contains("the import was refused; nothing was written") || outcome.errors.contains("nothing was written"), "\(outcome.errors)")
        #expect(try snapshot() == before)
        return outcome.output
    }

    @Test func aTranslationOfAnOlderSourceIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let xliff = try export().replacingOccurrences(of: "Mörkrostat malet espressokaffe", with: "Mörkrostat malet espressokaffe!")
        try edit("products/espresso.xml", "<summary>Tummapaahteinen espressojauhe</summary>", "<summary>Tummapaahteinen hieno espressojauhe</summary>")
        let report = try refused(xliff, "[xliff-source-changed]")
        let line = xliff.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(#"id="product.espresso.summary""#) }.map { $0 + 1 } ?? 0
        #expect(report.hasPrefix("../returned.xlf:\(line): error: the source of 'product.espresso.summary' is not the content's text now (“Tummapaahteinen hieno espressojauhe”)"), "\(report)")
    }

    @Test func anUnknownIdOrOneGivenTwiceIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let xliff = try export()
        _ = try refused(xliff.replacingOccurrences(of: #"id="product.espresso.summary""#, with: #"id="product.espresso.tagline""#), "[xliff-unit-unknown]")
        let unit = try #require(xliff.firstMatch(of: try Regex(#"\n *<trans-unit id="product.espresso.summary".*?</trans-unit>"#).dotMatchesNewlines()))
        _ = try refused(xliff.replacingOccurrences(of: String(xliff[unit.range]), with: String(xliff[unit.range]) + String(xliff[unit.range])), "[xliff-unit-twice]")
    }

    @Test func aBrokenInlineCodeIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let xliff = try export()
        let target = #"<target state="translated"><g id="1" ctype="x-p">Värm mjölken"#
        #expect(xliff.contains(target))
        // A code the source does not have, one of another kind, a block dropped, words outside blocks.
        for broken in [#"<target state="translated"><g id="1" ctype="x-p"><x id="9"/>Värm mjölken"#,
                       #"<target state="translated"><g id="1" ctype="x-h2">Värm mjölken"#,
                       #"<target state="translated">Före <g id="1" ctype="x-p">Värm mjölken"#] {
            let report = try refused(xliff.replacingOccurrences(of: target, with: broken), "[xliff-code-broken]")
            #expect(report.contains("'recipe.cappuccino.method': the target "), "\(report)")
        }
        // A code in a text with no form.
        _ = try refused(xliff.replacingOccurrences(of: "<target state=\"translated\">Mörkrostat malet espressokaffe</target>",
                                                   with: "<target state=\"translated\"><g id=\"1\" ctype=\"bold\">Mörkrostat</g> malet espressokaffe</target>"), "[xliff-code-broken]")
        // The espresso body's lists and links: an item dropped from its list.
        let espresso = try #require(xliff.firstMatch(of: try Regex(#"<target state="translated"><g id="1" ctype="x-p">Café Digno Espresso är.*?</target>"#).dotMatchesNewlines()))
        let body = String(xliff[espresso.range])
        let dropped = body.replacing(try Regex(#"<g id="5" ctype="x-li">.*?</g>"#).dotMatchesNewlines(), with: "")
        #expect(dropped != body)
        _ = try refused(xliff.replacingOccurrences(of: body, with: dropped), "[xliff-code-broken]")
    }

    @Test func aLanguageTheCatalogueDoesNotTranslateIntoIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let xliff = try export()
        _ = try refused(xliff.replacingOccurrences(of: #"target-language="sv""#, with: #"target-language="de""#), "[xliff-language]")
        _ = try refused(xliff.replacingOccurrences(of: #"source-language="fi""#, with: #"source-language="en""#), "[xliff-language]")
    }

    @Test func aTranslationThatBreaksARuleIsRefusedAtItsUnit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "lång ", count: 30)
        let xliff = try export().replacingOccurrences(of: "<target state=\"translated\">Mörkrostat malet espressokaffe</target>",
                                                      with: "<target state=\"translated\">\(long)</target>")
        let report = try refused(xliff, "[summary-too-long]")
        #expect(report.contains("'product.espresso.summary' would break a rule in products/espresso.xml at line 6: "), "\(report)")
        // Shown at the unit whose translation breaks it, not at the entity's first.
        let alt = xliff.replacingOccurrences(of: "<target state=\"translated\">Förpackning med Café Digno Espresso</target>",
                                             with: "<target state=\"translated\">\(String(repeating: "kopp ", count: 70))</target>")
        let line = alt.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(#"id="product.espresso.picture.images_products_espresso-1.png""#) }.map { $0 + 1 } ?? 0
        let altReport = try refused(alt.replacingOccurrences(of: "\(long)</target>", with: "Mörkrostat espresso</target>"), "-too-long]")
        #expect(altReport.hasPrefix("../returned.xlf:\(line): error: 'product.espresso.picture.images_products_espresso-1.png' would break a rule in products/espresso.xml"), "\(altReport)")
        // In the validator's other formats too.
        let json = try refused(xliff, "summary-too-long", format: "json")
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["valid"] as? Bool == false)
    }

    @Test func aFileOfRefusalsStopsAtAHundred() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let units = String(repeating: #"<trans-unit id="a"><source>x</source></trans-unit>"#, count: 500)
        let xliff = #"<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="content" source-language="fi" target-language="sv" datatype="xml"><body>"#
            + units + "</body></file></xliff>"
        let report = try refused(xliff, "[xliff-unit-twice]")
        #expect(report.split(separator: "\n").count == 101, "\(report.split(separator: "\n").count) lines")
        #expect(report.contains("the units after this one (400) were not checked"))
    }

    @Test func aFileThatIsNotPlainXLIFFIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let xliff = try export()
        // A DOCTYPE (with an entity that would read a file), and text that is not XML.
        let doctype = xliff.replacingOccurrences(of: "<xliff ", with: "<!DOCTYPE xliff [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n<xliff ")
            .replacingOccurrences(of: "Mörkrostat malet espressokaffe</target>", with: "&secret;</target>")
        #expect(try refused(doctype, "[xliff-unreadable]").contains("DOCTYPE"))
        _ = try refused("<xliff version=\"1.2\"><file>", "[xliff-unreadable]")
        // Codes nested deeper than any content is: refused by the parser's depth limit.
        let deep = String(repeating: #"<g id="1" ctype="bold">"#, count: 60) + "x" + String(repeating: "</g>", count: 60)
        _ = try refused(xliff.replacingOccurrences(of: "Mörkrostat malet espressokaffe</target>", with: deep + "</target>"), "[xliff-unreadable]")
        _ = try refused(#"<?xml version="1.0"?><root/>"#, "[xliff-unreadable]")
    }
}
