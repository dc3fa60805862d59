@testable import BundleCompiler
import Crypto
import Foundation
import Testing

/// The schema's copy in a content folder (`ContentSchema`): its version, the reference in a
/// root start tag, and the edit that adds one.
@Suite struct ContentSchemaTests {
    /// Each version of content.xsd and the SHA-256 of its bytes. A change to the schema fails
    /// here until its `version` is raised and the new version's digest added: content folders
    /// holding the old copy are then told it is older (`schema-outdated`).
    static let digests = [
        1: "1544dde2bdf34e78d49e1c226dc6fedf0c0d8b8b50836cbd3105b51b4a7f60a9",
        // Words an editor reads without a glossary (no "stable id", no "time zone"), an example for every type.
        2: "c48c95e51db9c99704d812403143f19b87e141da880e905ce3cfa85389ef0135",
        // Pictures are JPEG, PNG, HEIC or WebP, as the compiler takes them (not "PNG or JPEG").
        3: "d2cfcf7ae1af16c20c0c63c7c8ac1bd5efd42af849af8edc6d50b2605a8ced8f",
    ]

    @Test func theSchemasVersionIsRaisedWithEachChange() {
        let digest = SHA256.hash(data: ContentSchema.files[0].bytes).map { String(format: "%02x", $0) }.joined()
        #expect(ContentSchema.version == Self.digests.keys.max())
        #expect(Self.digests[ContentSchema.version] == digest,
                "content.xsd changed: raise its version to \(ContentSchema.version + 1) and add \"\(digest)\" to ContentSchemaTests.digests")
    }

    @Test func aReferenceIsRelativeToTheFile() {
        #expect(ContentSchema.reference(from: "catalog.xml") == "schema/content.xsd")
        #expect(ContentSchema.reference(from: "products/espresso.xml") == "../schema/content.xsd")
    }

    @Test(arguments: [
        // Added after the last attribute, whatever stands around the tag.
        ("<?xml version=\"1.0\"?>\n<product id=\"a\">\n</product>\n",
         "<?xml version=\"1.0\"?>\n<product id=\"a\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"../schema/content.xsd\">\n</product>\n"),
        ("\u{FEFF}<!-- a > b --><?pi x?>\n<product\n  id='a'\n  position=\"2\" >x</product>",
         "\u{FEFF}<!-- a > b --><?pi x?>\n<product\n  id='a'\n  position=\"2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"../schema/content.xsd\" >x</product>"),
        ("<product/>", "<product xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"../schema/content.xsd\"/>"),
        // A location elsewhere is corrected in place; a prefix of the file's own is kept.
        ("<product id=\"a\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:noNamespaceSchemaLocation=\"x.xsd\">",
         "<product id=\"a\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:noNamespaceSchemaLocation=\"../schema/content.xsd\">"),
        ("<product xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">",
         "<product xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:noNamespaceSchemaLocation=\"../schema/content.xsd\">"),
    ])
    func theReferenceIsAddedChangingNoOtherByte(_ before: String, _ after: String) throws {
        let changed = try #require(ContentSchema.namingSchema(Array(before.utf8), path: "products/a.xml"))
        #expect(String(decoding: changed, as: UTF8.self) == after)
        let tag = try #require(RootStartTag(changed))
        #expect(ContentSchema.reference(in: tag, path: "products/a.xml") == .named)
        #expect(ContentSchema.namingSchema(changed, path: "products/a.xml") == nil)
    }

    @Test(arguments: [
        "", "   ", "<!DOCTYPE product><product>", "<!-- never closed <product id=\"a\">", "<product id=\"a", "<product id=a>",
        "<?xml version=\"1.0\"", "text<product>", "<product xmlns:xsi=\"urn:other\">",
    ])
    func aFileWithNoReadableRootStartTagIsLeftAlone(_ text: String) {
        #expect(ContentSchema.namingSchema(Array(text.utf8), path: "products/a.xml") == nil)
    }

    @Test func theVersionIsReadFromASchemasRootElement() {
        #expect(ContentSchema.version(of: Array("<!-- c --><xs:schema xmlns:xs=\"x\" version=\"12\">".utf8)) == 12)
        #expect(ContentSchema.version(of: Array("<xs:schema>".utf8)) == nil)
        #expect(ContentSchema.version(of: Array("<product version=\"3\">".utf8)) == nil)
    }
}

/// Every simple type of the schema, given a wrong value where a file uses it, is refused in
/// words with an example of a right one: never libxml2's own wording.
@Suite struct SimpleTypeMessageTests {
    /// For each type: the file, what to replace, with what, and what the message must say.
    static let cases: [(type: String, file: String, original: String, replacement: String, says: String)] = [
        ("Slug", "products/espresso.xml", "<product id=\"espresso\"", "<product id=\"Espresso Tumma\"", "such as cafe-latte"),
        ("SectionID", "catalog.xml", "<section id=\"home\">", "<section id=\"koti\">", "write one of: home, products, recipes, retailers, company"),
        ("ReleaseVersion", "catalog.xml", "version=\"2026.11.0\"", "version=\"2026.11.00\"", "such as 2026.11.0"),
        ("Day", "home.xml", "first-day=\"2026-11-01\"", "first-day=\"2026-11-31\"", "holds '2026-11-31', which is no day: November 2026 has 30 days; write a day that exists, such as 2026-11-30"),
        ("Day", "home.xml", "first-day=\"2026-11-01\"", "first-day=\"1.12.2026\"", "holds '1.12.2026', a day written the Finnish way; these files write it year first, YYYY-MM-DD: 2026-12-01"),
        ("WebAddress", "company.xml", "<web>https://www.delinggroup.com</web>", "<web>www delinggroup</web>", "such as https://www.delinggroup.com"),
        ("ContentPath", "products/espresso.xml", "<icon src=\"images/icon.png\"/>", "<icon src=\"\"/>", "is empty"),
        ("Position", "products/espresso.xml", "<product id=\"espresso\"", "<product id=\"espresso\" position=\"x\"", "such as 3"),
        ("Latitude", "retailers/deling-group.xml", "<sells product=\"espresso\"/>", "<location latitude=\"north\" longitude=\"24.9\"/><sells product=\"espresso\"/>", "such as 60.1676"),
        ("Longitude", "retailers/deling-group.xml", "<sells product=\"espresso\"/>", "<location latitude=\"60.1\" longitude=\"east\"/><sells product=\"espresso\"/>", "such as 24.9366"),
        ("LanguageCode", "catalog.xml", "<sections>", "<languages><language code=\"fi\"/><language code=\"sv_FI\" fallback=\"fi\"/></languages><sections>", "such as fi, sv, en or sv-FI"),
        ("ByteSize", "catalog.xml", "<sections>", "<budget bundle=\"50MB\"/><sections>", "such as 50 MB"),
        ("xml:lang", "products/espresso.xml", "<name>Espresso</name>", "<name>Espresso</name><name xml:lang=\"sv_FI\">Espresso</name>", "such as fi, sv, en or sv-FI (did you mean 'sv-FI'?)"),
        ("xml:lang", "products/espresso.xml", "<name>Espresso</name>", "<name>Espresso</name><name xml:lang=\"\">Espresso</name>", "is empty; write a language"),
    ]

    @Test func everyTypeOfTheSchemaIsCovered() throws {
        let xsd = String(decoding: ContentSchema.files[0].bytes, as: UTF8.self)
        let declared = Set(xsd.matches(of: /<xs:simpleType name="([A-Za-z]+)">/).map { String($0.1) })
        #expect(Set(Self.cases.map(\.type)).subtracting(["xml:lang"]) == declared)
    }

    @Test(arguments: 0..<cases.count)
    func aWrongValueIsRefusedInWordsWithAnExample(_ index: Int) throws {
        let (type, file, original, replacement, says) = Self.cases[index]
        let content = try Fixtures.makeContent { folder in
            let url = folder.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(original), "\(file) holds \(original)")
            try text.replacingOccurrences(of: original, with: replacement).write(to: url, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let messages = try Fixtures.validate(content).diagnostics.filter { $0.code == .schemaInvalid }.map(\.message)
        #expect(messages.count == 1, "\(type): \(messages)")
        for message in messages {
            #expect(!message.hasPrefix("does not match the schema") && !message.contains("atomic type") && !message.contains("facet"), "\(type): \(message)")
            #expect(message.contains(says), "\(type): \(message)")
        }
    }
}
