import Foundation
import Testing

/// `digno translations export`: the texts to translate into one language as XLIFF, with a
/// stable id per text, the state of each, its limit, and rich text's form as inline codes.
@Suite struct TranslationsCommandTests {
    let folder: URL
    var content: URL { folder.appendingPathComponent("content") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-translations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
    }

    func edit(_ file: String, _ old: String, _ new: String) throws {
        let url = content.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(old), "\(file) has \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// Exports into `language`; the standard output and the file.
    func export(_ extra: [String] = [], language: String = "sv", status: Int32 = 0) throws -> (output: String, file: String) {
        let path = folder.appendingPathComponent("out-\(UUID().uuidString).xlf").path
        let outcome = try DignoRunner.run(["translations", "export", content.path, "--language", language, "--output", path] + extra)
        #expect(outcome.status == status, "\(outcome.errors)")
        return (outcome.output + outcome.errors, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    /// The ids of the units in an XLIFF file.
    func ids(_ xliff: String) -> [String] {
        xliff.matches(of: /<(?:trans-unit|unit) id="([^"]+)"/).map { String($0.output.1) }
    }

    @Test func everyTextIsAUnitWithItsTranslationLimitAndNote() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, file) = try export()
        #expect(output.hasPrefix("wrote ") && output.contains("into sv (0 to translate, 0 to review, "), "\(output)")
        #expect(file.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">"#))
        #expect(file.contains(#"<file original="content" source-language="fi" target-language="sv" datatype="xml">"#))
        #expect(file.contains("""
                    <trans-unit id="product.espresso.summary" resname="product.espresso.summary" maxwidth="100" size-unit="char" approved="yes" xml:space="preserve">
                      <source>Tummapaahteinen espressojauhe</source>
                      <target state="translated">Mörkrostat malet espressokaffe</target>
                      <note from="digno">product “Espresso”, summary; at most 100 characters</note>
                    </trans-unit>
            """))
        // A name marked translate="no" is no unit; a rich text is one, its form as codes.
        #expect(!ids(file).contains("product.espresso.name"))
        #expect(file.contains(#"<source><g id="1" ctype="x-p">Café Digno Espresso on ylellinen espressokahvi"#))
        #expect(file.contains(#"<g id="2" ctype="x-h2">Vinkkejä valmistukseen</g>"#))
        // Ingredient lines are named by the product they name, alt texts by their picture.
        #expect(ids(file).contains("recipe.cappuccino.ingredient.espresso"))
        #expect(ids(file).contains("recipe.cappuccino.picture.images_recipes_cappuccino-1.png"))
        // The same content gives the same bytes.
        #expect(try export().file == file)
        // XLIFF 2.0, on request.
        let two = try export(["--xliff", "2.0"]).file
        #expect(two.contains(#"version="2.0" srcLang="fi" trgLang="sv""#) && ids(two) == ids(file))
        #expect(two.contains(#"<unit id="product.espresso.summary" name="product.espresso.summary" slr:sizeRestriction="100">"#))
    }

    @Test func missingAndOutdatedTranslationsAreTheWorkToDo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("release.sqlite").path
        #expect(try DignoRunner.run(["build", content.path, "--output", bundle, "--quiet"]).status == 0)
        try edit("products/espresso.xml", "<summary>Tummapaahteinen espressojauhe</summary>", "<summary>Tummapaahteinen, hienoksi jauhettu espressojauhe</summary>")
        try edit("recipes/cappuccino.xml", "  <summary xml:lang=\"sv\">Italienskt kaffe med mjölk</summary>\n", "")
        let (output, file) = try export(["--since", bundle, "--only", "missing,outdated"])
        #expect(output.contains("2 units into sv (1 to translate, 1 to review, 0 translated)"), "\(output)")
        #expect(ids(file) == ["product.espresso.summary", "recipe.cappuccino.summary"])
        #expect(file.contains(#"<target state="needs-review-translation">Mörkrostat malet espressokaffe</target>"#))
        #expect(file.contains(#"<alt-trans alttranstype="previous-version" origin="digno:2026.11.0"><source>Tummapaahteinen espressojauhe</source>"#))
        #expect(file.contains("it was: “Tummapaahteinen espressojauhe”"))
        #expect(!file.contains("Italienskt kaffe med mjölk"))
        #expect(try export(["--only", "outdated"]).file.contains("<trans-unit") == false, "nothing is outdated without --since")
    }

    @Test func anIngredientLineInsertedBeforeOthersChangesNoOtherId() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Set(ids(try export().file))
        try edit("recipes/cappuccino.xml", "  <ingredients>\n", "  <ingredients>\n    <ingredient>Ripaus kaakaota</ingredient>\n")
        let after = Set(ids(try export().file))
        #expect(after.subtracting(before).count == 1 && before.isSubset(of: after))
    }

    @Test func aLanguageTheCatalogueDoesNotTranslateIntoIsAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try export(language: "de", status: 2).output.contains("'de' is not one the catalogue translates into (sv, en)"))
        try edit("products/espresso.xml", "<summary>", "<summery>")
        #expect(try export(status: 1).output.contains("nothing was written"))
    }
}
