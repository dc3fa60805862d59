@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// Values the schema checks with a pattern: what passes, what does not, and how a failure is
/// put to the editor.
@Suite struct SchemaValueTests {
    /// The company's `<web>` set to `address`, validated.
    static func validateWeb(_ address: String) throws -> ValidationReport {
        let content = try Fixtures.makeContent { folder in
            let file = folder.appendingPathComponent("company.xml")
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: "<web>https://www.delinggroup.com</web>", with: "<web>\(address)</web>")
                .write(to: file, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        return try Fixtures.validate(content)
    }

    @Test(arguments: [
        "https://www.delinggroup.com", "http://kahvi-äiti.fi/menu?koko=iso#hinnat", "https://www.kahvitukku.fi:8080/",
        "https://x.fi:65535", "https://x.fi/tuotteet/%C3%A4", "https://a.b.c.fi/", "https://x.fi?q", "https://x.fi#top",
    ])
    func aWebAddressPasses(address: String) throws {
        #expect(try Self.validateWeb(address).diagnostics == [])
    }

    /// Each of these passed the old pattern (anything without spaces around a dot) and would
    /// have reached the app as a link that does not open, or opens somewhere unexpected.
    @Test(arguments: [
        "https://user:salasana@www.delinggroup.com", "https://www.delinggroup.com:99999999", "https://x.fi:65536",
        "https://www.deling\u{200B}group.com", "https://x.fi/a\u{200B}b", "https://x.fi/a\u{A0}b", "https://localhost",
        "https://-x.fi", "https://x-.fi", "https://www..fi", "https://x.fi.", "ftp://x.fi", "www.delinggroup.com", "https://x.fi/a b",
    ])
    func aWebAddressIsRefused(address: String) throws {
        let report = try Self.validateWeb(address)
        #expect(report.diagnostics.map(\.code) == ["schema-invalid"], "\(address)")
    }

    /// A value that fails a pattern is explained in words (the first sentence of its type's
    /// documentation in the schema), not with the regular expression.
    @Test func aFailedPatternSaysWhatToWriteInWords() throws {
        let report = try Self.validateWeb("https://user:salasana@www.delinggroup.com")
        let message = try #require(report.diagnostics.first?.message)
        #expect(message == "<web> holds 'https://user:salasana@www.delinggroup.com', which is not accepted; "
            + "write an http or https address such as https://www.delinggroup.com: a host name (letters, digits and hyphens between dots), "
            + "if need be a port up to 65535, then any path; no spaces or invisible characters, no user name or password")
    }

    /// Every element and attribute the schema declares says what it is: an XML editor shows
    /// those words as the editor types, and a message asking for a missing element or
    /// attribute adds their first sentence.
    @Test func everyElementAndAttributeOfTheSchemaIsDocumented() throws {
        let schema = try String(contentsOf: Self.schemaFile, encoding: .utf8)
        var declarations = 0
        for opening in ["<xs:element name=\"", "<xs:attribute name=\""] {
            for declaration in schema.components(separatedBy: opening).dropFirst() {
                declarations += 1
                let name = declaration.prefix { $0 != "\"" }
                let tag = try #require(declaration.range(of: ">"))
                let inside = declaration[tag.upperBound...].drop { $0.isWhitespace }
                #expect(!declaration[..<tag.lowerBound].hasSuffix("/") && inside.hasPrefix("<xs:annotation><xs:documentation>"),
                        "\(opening)\(name)\" has no documentation")
            }
        }
        #expect(declarations > 80)
        let libxml = try LibXML.shared.get()
        #expect(libxml.meaning(ofElement: "summary", in: "recipe")
            == "The short description under the recipe's name, on its list row and detail screen, at most 100 characters")
        #expect(libxml.meaning(ofElement: "image", in: "images") == "A picture on the detail screen, with its file in src and its text for screen readers in alt")
        #expect(libxml.meaning(ofElement: "image", in: "home")?.hasPrefix("The promotional image") == true)
        #expect(libxml.meaning(ofAttribute: "alt", of: "image")?.hasPrefix("The text a screen reader reads") == true)
        #expect(libxml.meaning(ofAttribute: "product", of: "sells") == "The id of a product the retailer sells: its file name in products/ without .xml")
        #expect(libxml.meaning(ofElement: "nimi", in: "product") == nil)
    }

    /// A limit the schema's documentation states is the limit the catalogue rules check.
    @Test func theLimitsTheSchemaStatesAreTheRulesLimits() throws {
        let libxml = try LibXML.shared.get()
        typealias Declaration = LibXML.Declaration
        let limits: [Declaration: Int] = [
            Declaration(owner: "catalog", name: "brand"): FieldLimits.name,
            Declaration(owner: "section", name: "title"): FieldLimits.title,
            Declaration(owner: "promotion", name: "title"): FieldLimits.title,
            Declaration(owner: "promotion", name: "text"): FieldLimits.promotionText,
            Declaration(owner: "company", name: "name"): FieldLimits.name,
            Declaration(owner: "product", name: "name"): FieldLimits.name,
            Declaration(owner: "product", name: "summary"): FieldLimits.summary,
            Declaration(owner: "recipe", name: "name"): FieldLimits.name,
            Declaration(owner: "recipe", name: "summary"): FieldLimits.summary,
            Declaration(owner: "retailer", name: "name"): FieldLimits.name,
            Declaration(owner: "retailer", name: "address"): FieldLimits.address,
            Declaration(owner: "retailer", name: "phone"): FieldLimits.phone,
            Declaration(owner: "retailer", name: "hours"): FieldLimits.openingHours,
        ]
        let attributeLimits = [Declaration(owner: nil, name: "alt"): FieldLimits.alt]
        func statedLimit(_ meaning: String) -> Int? {
            meaning.firstMatch(of: /at most (\d+) characters/).flatMap { Int($0.1) }
        }
        for (meanings, expected) in [(libxml.elementMeanings, limits), (libxml.attributeMeanings, attributeLimits)] {
            for (declaration, limit) in expected {
                #expect(meanings[declaration].flatMap(statedLimit) == limit, "\(declaration)")
            }
            for (declaration, meaning) in meanings where statedLimit(meaning) != nil {
                #expect(expected[declaration] != nil, "\(declaration) states a limit no rule is known to check: \(meaning)")
            }
        }
    }

    static let schemaFile = BundleBuildTests.repository.appendingPathComponent("Sources/BundleCompiler/Schema/content.xsd")

    /// The quoted values that follow each `opening` in the schema's text, such as every
    /// `<xs:pattern value="`.
    static func schemaValues(after opening: String) throws -> [String] {
        let schema = try String(contentsOf: schemaFile, encoding: .utf8)
        return schema.components(separatedBy: opening).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// Every pattern in the schema has words for it, so no editor ever sees a regular expression.
    @Test func everyPatternOfTheSchemaHasAMeaning() throws {
        let libxml = try LibXML.shared.get()
        let patterns = try Self.schemaValues(after: "<xs:pattern value=\"")
        #expect(patterns.count == 4)
        for pattern in patterns {
            let meaning = libxml.patternMeanings[pattern.replacingOccurrences(of: "&amp;", with: "&")]
            #expect(meaning.map { !$0.isEmpty && !$0.hasSuffix(".") } == true, "\(pattern)")
        }
        // A pattern the schema does not have is quoted as libxml2 wrote it.
        let unknown = "Element 'x': [facet 'pattern'] The value 'a' is not accepted by the pattern '[b]'."
        #expect(libxml.readableSchemaMessage(unknown, parent: nil) == "does not match the schema: " + unknown)
    }

    /// Every simple type has words for its values too, for a value libxml2 reports as "not a
    /// valid value of the atomic type".
    @Test func everySimpleTypeOfTheSchemaHasAMeaning() throws {
        let libxml = try LibXML.shared.get()
        let types = try Self.schemaValues(after: "<xs:simpleType name=\"")
        #expect(types.count == 9)
        for type in types {
            #expect(libxml.typeMeanings[type].map { !$0.isEmpty && !$0.hasSuffix(".") } == true, "\(type)")
        }
    }
}
