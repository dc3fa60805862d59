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
