@testable import BundleCompiler
import CatalogContent
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
        #expect(report.diagnostics.map(\.code.rawValue) == ["schema-invalid"], "\(address)")
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
        let documentation = try LibXML.shared.get().documentation
        #expect(documentation.undocumented == [])
        // Every declaration was seen: as many as the schema's text has (a reference to xml:lang,
        // declared in xml.xsd, is not one).
        let schema = try String(contentsOf: Self.schemaFile, encoding: .utf8)
        let declared = ["<xs:element ", "<xs:attribute name="].map { schema.components(separatedBy: $0).count - 1 }.reduce(0, +)
        #expect(documentation.declarationCount == declared)
        #expect(declared > 80)
    }

    /// Whatever element libxml2 asks for, inside whatever element may hold it, and whatever
    /// attribute it asks for, of whatever element may have it, there is one meaning: where two
    /// declarations of one name could both apply, they say the same.
    @Test func everyDeclarationHasOneMeaningWhereverItStands() throws {
        let documentation = try LibXML.shared.get().documentation
        var checked = 0
        for (declaration, _) in documentation.elements {
            for parent in documentation.elements(holding: declaration.scope) {
                checked += 1
                #expect(documentation.meaning(ofElement: declaration.name, in: parent) != nil, "<\(declaration.name)> in <\(parent)>")
            }
        }
        for (declaration, _) in documentation.attributes {
            for element in documentation.elements(holding: declaration.scope) {
                checked += 1
                #expect(documentation.meaning(ofAttribute: declaration.name, of: element) != nil, "\(declaration.name) of <\(element)>")
            }
        }
        #expect(checked > 80)
        // Each declaration where it stands, not another of the same name.
        #expect(documentation.meaning(ofElement: "summary", in: "recipe")
            == "The short description under the recipe's name, on its list row and detail screen, at most 100 characters")
        #expect(documentation.meaning(ofElement: "name", in: "retailer")?.hasPrefix("The retailer's name") == true)
        #expect(documentation.meaning(ofElement: "image", in: "images") == "A picture, with its file in src and its text for screen readers in alt")
        #expect(documentation.meaning(ofElement: "image", in: "home")?.hasPrefix("The promotional image") == true)
        #expect(documentation.meaning(ofElement: "em", in: "p") == "Emphasised words, shown in italics")
        #expect(documentation.meaning(ofElement: "em", in: "link") == "Emphasised words, shown in italics")
        #expect(documentation.meaning(ofAttribute: "src", of: "icon") == "The file's path from the content folder, such as images/espresso.png")
        #expect(documentation.meaning(ofAttribute: "alt", of: "image")?.hasPrefix("The text a screen reader reads") == true)
        #expect(documentation.meaning(ofAttribute: "product", of: "sells") == "The id of a product the retailer sells: its file name in products/ without .xml")
        #expect(documentation.meaning(ofElement: "nimi", in: "product") == nil)
        #expect(documentation.meaning(ofElement: "summary", in: "retailer") == nil)
    }

    /// A message quotes a declaration's first sentence: it ends at a full stop that starts a
    /// new sentence, not at an abbreviation.
    @Test(arguments: [
        ("The short description. Shown on the list row.", "The short description"),
        ("A file, e.g. images/logo.png, from the content folder. Any size.", "A file, e.g. images/logo.png, from the content folder"),
        ("Shelf no. 5 of the shop", "Shelf no. 5 of the shop"),
        ("One sentence only.", "One sentence only"),
        ("Ends with Ä. Äkkiä seuraava.", "Ends with Ä"),
    ])
    func aFirstSentenceEndsWhereTheNextBegins(text: String, sentence: String) {
        #expect(SchemaDocumentation.firstSentence(of: text) == sentence)
    }

    /// A limit the schema's documentation states is the limit the catalogue rules check.
    @Test func theLimitsTheSchemaStatesAreTheRulesLimits() throws {
        let documentation = try LibXML.shared.get().documentation
        typealias Declaration = SchemaDocumentation.Declaration
        let limits: [Declaration: Int] = [
            Declaration(scope: .element("catalog"), name: "brand"): FieldLimits.name,
            Declaration(scope: .element("section"), name: "title"): FieldLimits.title,
            Declaration(scope: .element("promotion"), name: "title"): FieldLimits.title,
            Declaration(scope: .element("promotion"), name: "text"): FieldLimits.promotionText,
            Declaration(scope: .element("company"), name: "name"): FieldLimits.name,
            Declaration(scope: .element("product"), name: "name"): FieldLimits.name,
            Declaration(scope: .element("product"), name: "summary"): FieldLimits.summary,
            Declaration(scope: .element("recipe"), name: "name"): FieldLimits.name,
            Declaration(scope: .element("recipe"), name: "summary"): FieldLimits.summary,
            Declaration(scope: .element("retailer"), name: "name"): FieldLimits.name,
            Declaration(scope: .element("retailer"), name: "address"): FieldLimits.address,
            Declaration(scope: .element("retailer"), name: "phone"): FieldLimits.phone,
            Declaration(scope: .element("retailer"), name: "hours"): FieldLimits.openingHours,
        ]
        let attributeLimits = [Declaration(scope: .type("Picture"), name: "alt"): FieldLimits.alt]
        func statedLimits(_ sentences: Set<String>?) -> Set<Int> {
            Set((sentences ?? []).compactMap { $0.firstMatch(of: /at most (\d+) characters/).flatMap { Int($0.1) } })
        }
        for (sentences, expected) in [(documentation.elements, limits), (documentation.attributes, attributeLimits)] {
            for (declaration, limit) in expected {
                #expect(statedLimits(sentences[declaration]) == [limit], "\(declaration)")
            }
            for (declaration, stated) in sentences where !statedLimits(stated).isEmpty {
                #expect(expected[declaration] != nil, "\(declaration) states a limit no rule is known to check: \(stated)")
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
        #expect(patterns.count == 6)
        for pattern in patterns {
            let meaning = libxml.documentation.patternMeanings[pattern.replacingOccurrences(of: "&amp;", with: "&")]
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
        #expect(types.count == 11)
        for type in types {
            #expect(libxml.documentation.typeMeanings[type].map { !$0.isEmpty && !$0.hasSuffix(".") } == true, "\(type)")
        }
    }
}
