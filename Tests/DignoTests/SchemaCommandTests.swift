import Foundation
import Testing

/// `digno schema` and `digno init`, and what `digno validate` says of a content folder whose
/// editors' tools cannot find the schema.
@Suite struct SchemaCommandTests {
    static let location = #" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="[^"]*""#

    /// A copy of the valid fixture in a scratch folder, and the scratch folder.
    func copyOfValidFixture() throws -> (content: URL, scratch: URL) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-schema-\(UUID().uuidString)")
        let content = scratch.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        return (content, scratch)
    }

    func contentFiles(_ content: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: content.path).filter { $0.hasSuffix(".xml") }.sorted()
    }

    /// Removes every file's reference to the schema, and the schema folder when asked.
    func unname(_ content: URL, removingSchema: Bool) throws {
        for path in try contentFiles(content) {
            let url = content.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: Self.location, with: "", options: .regularExpression).write(to: url, atomically: true, encoding: .utf8)
        }
        if removingSchema { try FileManager.default.removeItem(at: content.appendingPathComponent("schema")) }
    }

    @Test func schemaWritesTheSchemaAndNamesItChangingNothingElse() throws {
        let (content, scratch) = try copyOfValidFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let original = try contentFiles(content).map { try Data(contentsOf: content.appendingPathComponent($0)) }
        try unname(content, removingSchema: true)

        let warned = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(warned.status == 0)
        #expect(warned.output.hasPrefix("""
            schema/content.xsd: warning: the content folder has no schema for editors' tools (schema/content.xsd) and no file names one, \
            so an XML editor gives no completion or checks as you type; run `digno schema --write` (it changes nothing else) [schema-missing]
            0 errors, 1 warning in 11 files

            """))

        let written = try DignoRunner.run(["schema", "--write", "content"], in: scratch)
        #expect(written.status == 0)
        #expect(written.output == """
            wrote schema/content.xsd (version 3 of the content's schema)
            wrote schema/xml.xsd
            named the schema in catalog.xml
            named the schema in home.xml
            named the schema in company.xml
            named the schema in products/espresso.xml
            named the schema in products/ground-coffee.xml
            named the schema in recipes/cafe-au-lait.xml
            named the schema in recipes/cafe-latte.xml
            named the schema in retailers/deling-group.xml
            8 files changed, 0 named the schema already

            """)
        // The fixture as committed: the same bytes, the schema named in each root start tag.
        #expect(try contentFiles(content).map { try Data(contentsOf: content.appendingPathComponent($0)) } == original)
        let schema = try Data(contentsOf: content.appendingPathComponent("schema/content.xsd"))
        let printed = try DignoRunner.run(["schema"])
        #expect(Data(printed.output.utf8) == schema)
        #expect(printed.output.contains(#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified" version="3">"#))

        let again = try DignoRunner.run(["schema", "--write", "content"], in: scratch)
        #expect(again.output == "nothing to do: the schema is in place and every file names it\n")
        let valid = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(valid.output == "0 errors, 0 warnings in 11 files\n")
    }

    @Test func validateWarnsOfEachFileAndSchemaFileOutOfStep() throws {
        let (content, scratch) = try copyOfValidFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A file copied in from elsewhere, with no reference; one naming another place; an old
        // schema; a damaged xml.xsd.
        let product = content.appendingPathComponent("products/espresso.xml")
        let text = try String(contentsOf: product, encoding: .utf8)
        try text.replacingOccurrences(of: Self.location, with: "", options: .regularExpression).write(to: product, atomically: true, encoding: .utf8)
        let home = content.appendingPathComponent("home.xml")
        try String(contentsOf: home, encoding: .utf8).replacingOccurrences(of: "=\"schema/content.xsd\"", with: "=\"xsd/content.xsd\"")
            .write(to: home, atomically: true, encoding: .utf8)
        let schema = content.appendingPathComponent("schema/content.xsd")
        try String(contentsOf: schema, encoding: .utf8).replacingOccurrences(of: "version=\"3\"", with: "version=\"0\"")
            .write(to: schema, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: content.appendingPathComponent("schema/xml.xsd"))

        let outcome = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(outcome.status == 0)
        #expect(outcome.output == """
            home.xml:2:1: warning: the root element names the schema at 'xsd/content.xsd', but it is at 'schema/content.xsd'; run `digno schema --write` (it changes nothing else) [schema-reference-missing]
            products/espresso.xml:2:1: warning: the root element names no schema (xsi:noNamespaceSchemaLocation="../schema/content.xsd"), so an XML editor gives no completion or checks as you type in this file; run `digno schema --write` (it changes nothing else) [schema-reference-missing]
            schema/content.xsd: warning: schema/content.xsd is version 0 of the content's schema; this digno's is version 3, so an editor checks against other rules than digno's; run `digno schema --write` (it changes nothing else) [schema-outdated]
            schema/xml.xsd: warning: schema/xml.xsd is missing, so an editor cannot find the content's schema; run `digno schema --write` (it changes nothing else) [schema-missing]
            0 errors, 4 warnings in 11 files

            """)
        #expect(try DignoRunner.run(["schema", "--write", "content"], in: scratch).status == 0)
        #expect(try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch).output == "0 errors, 0 warnings in 11 files\n")
    }

    @Test func manyFilesThatNameNoSchemaGetOneWarning() throws {
        let (content, scratch) = try copyOfValidFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for index in 0..<11 {
            try Data("""
                <product id="p\(index)"><name>Tuote \(index)</name><icon src="images/icon.png"/><summary>Kuvaus</summary>
                <body><p>Teksti.</p></body><images><image src="images/picture.png" alt="Kuva"/></images></product>
                """.utf8).write(to: content.appendingPathComponent("products/p\(index).xml"))
        }
        let outcome = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        let warnings = outcome.output.split(separator: "\n").filter { $0.hasSuffix("[schema-reference-missing]") }
        #expect(warnings == [
            "products/p0.xml:1:1: warning: 11 content files do not name the schema at schema/content.xsd (products/p0.xml, products/p1.xml, "
                + "products/p10.xml and 8 more), so an XML editor gives no completion or checks as you type in them; run `digno schema --write` (it changes nothing else) [schema-reference-missing]",
        ])
    }

    @Test func aNewerSchemaIsLeftForTheNewerDigno() throws {
        let (content, scratch) = try copyOfValidFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let schema = content.appendingPathComponent("schema/content.xsd")
        let newer = try String(contentsOf: schema, encoding: .utf8).replacingOccurrences(of: "version=\"3\"", with: "version=\"9\"")
        try newer.write(to: schema, atomically: true, encoding: .utf8)
        let outcome = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(outcome.output.hasPrefix("""
            schema/content.xsd: warning: schema/content.xsd is version 9 of the content's schema, newer than this digno's (version 3): \
            install the newer digno; this one may refuse what the newer schema allows [schema-outdated]

            """))
        let written = try DignoRunner.run(["schema", "--write", "content"], in: scratch)
        #expect(written.status == 0)
        #expect(written.output.contains("warning: left schema/content.xsd as it was: it is version 9 of the content's schema, newer than this digno's (3): install the newer digno\n"))
        #expect(try String(contentsOf: schema, encoding: .utf8) == newer)
    }

    @Test func aFileThatIsNotXMLYetIsLeftAsItWasAndReportedOnce() throws {
        let (content, scratch) = try copyOfValidFixture()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let broken = Data("<?xml version=\"1.0\"?>\n<!-- unfinished\n<product id=\"espresso\">\n".utf8)
        try broken.write(to: content.appendingPathComponent("products/espresso.xml"))
        let written = try DignoRunner.run(["schema", "--write", "content"], in: scratch)
        #expect(written.output.contains("warning: left products/espresso.xml as it was: its root element could not be found; fix the file (`digno validate` says how) and run this again\n"))
        #expect(try Data(contentsOf: content.appendingPathComponent("products/espresso.xml")) == broken)
        // Its own error, and no word of the schema on top of it.
        let validated = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(validated.status == 1)
        #expect(!validated.output.contains("schema-reference-missing"))
    }

    @Test func initMakesAFolderThatValidatesWithNothingToSay() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-init-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let made = try DignoRunner.run(["init", "brand"], in: scratch)
        #expect(made.status == 0, "\(made.errors)")
        #expect(made.output.contains("wrote products/esimerkkikahvi.xml\n"))
        #expect(made.output.contains("wrote schema/content.xsd\n"))
        let validated = try DignoRunner.run(["validate", "brand"], in: scratch)
        #expect(validated.status == 0)
        #expect(validated.output == "0 errors, 0 warnings in 9 files\nsv: 20 of 20 texts, 100 %\nen: 20 of 20 texts, 100 %\n")
        let built = try DignoRunner.run(["build", "brand", "--output", "dist"], in: scratch)
        #expect(built.status == 0, "\(built.output)\(built.errors)")

        // A folder that holds anything is refused, and nothing is written into it.
        let refused = try DignoRunner.run(["init", "brand"], in: scratch)
        #expect(refused.status == 2)
        #expect(refused.errors == "error: 'brand' exists and is not empty; give a new folder (nothing was written)\n")
    }
}
