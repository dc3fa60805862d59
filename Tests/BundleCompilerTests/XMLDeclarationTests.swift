@testable import BundleCompiler
import Foundation
import Testing

/// Content files are UTF-8. A declaration naming another encoding is refused at the name,
/// because every other XML tool would read the file in the encoding it names.
@Suite struct XMLDeclarationTests {
    @Test(arguments: [
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a/>", "UTF-8", 30),
        ("<?xml version='1.0' encoding='iso-8859-1' standalone='yes'?><a/>", "iso-8859-1", 30),
        ("<?xml version=\"1.0\"\n  encoding = \"windows-1252\"?>\n<a/>", "windows-1252", 34),
        ("\u{FEFF}<?xml version=\"1.0\" encoding=\"Latin1\"?><a/>", "Latin1", 33),
    ])
    func theDeclaredNameIsFound(document: String, name: String, offset: Int) {
        #expect(XMLDeclaration.encoding(in: Array(document.utf8)) == .init(name: name, offset: offset))
    }

    @Test(arguments: [
        "<a/>",
        "<?xml version=\"1.0\"?><a encoding=\"latin1\"/>",
        "<?xml version=\"1.0\" standalone=\"yes\"?>\n<a>encoding=\"latin1\"</a>",
        "<?xml-stylesheet href=\"x\" encoding=\"latin1\"?><a/>",
        "<!-- <?xml version=\"1.0\" encoding=\"latin1\"?> --><a/>",
        "<?xml version=\"1.0\" encoding=\"\"?><a/>",
        "<?xml version=\"1.0\" encoding=\"UTF-8 \"?><a/>",
        "<?xml version=\"1.0\" encoding=\"8bit\"?><a/>",
        "<?xml version=\"1.0\" encoding=\"latin1?><a/>",
        "<?xml",
        "",
    ])
    func withoutAWellFormedNameThereIsNone(document: String) {
        #expect(XMLDeclaration.encoding(in: Array(document.utf8)) == nil)
    }

    @Test func utf8IsNamedWithoutRegardToCase() {
        #expect(XMLDeclaration.isUTF8("UTF-8"))
        #expect(XMLDeclaration.isUTF8("utf-8"))
        #expect(XMLDeclaration.isUTF8("Utf-8"))
        #expect(!XMLDeclaration.isUTF8("UTF8"))
        #expect(!XMLDeclaration.isUTF8("US-ASCII"))
        #expect(!XMLDeclaration.isUTF8("UTF-16"))
    }

    /// What a loader reports: the declaration, not the bytes, whether the bytes are UTF-8 (the
    /// file would read as mojibake elsewhere) or Latin-1 (it reads as garbage here).
    @Test(arguments: [("utf8-bytes", 1, 31), ("latin1-bytes", 2, 19)])
    func aFileDeclaredInAnotherEncodingIsRefused(bytes kind: String, line: Int, column: Int) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        #expect(valid.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
        let bytes: Data
        if kind == "utf8-bytes" {
            bytes = Data(valid.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").utf8)
        } else {
            let changed = valid.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "\n        encoding=\"ISO-8859-1\"")
                .replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Espressö</name>")
            bytes = try #require(changed.data(using: .isoLatin1))
        }
        let content = try Fixtures.makeContent { content in
            try bytes.write(to: content.appendingPathComponent("products/espresso.xml"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics.map(\.code.rawValue) == ["encoding-not-utf8"])
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.file == "products/espresso.xml")
        #expect(diagnostic.line == line)
        #expect(diagnostic.column == column)
        #expect(diagnostic.message == "the XML declaration names the encoding 'ISO-8859-1'; content files are UTF-8: save the file as UTF-8 and write encoding=\"UTF-8\"")
    }

    @Test(arguments: ["utf-8", "no-declaration", "version-only"])
    func utf8OrNoEncodingIsAccepted(declaration: String) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let first = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let replacement = switch declaration {
        case "utf-8": "<?xml version='1.0' encoding='utf-8'?>\n"
        case "no-declaration": ""
        default: "<?xml version=\"1.0\"?>\n"
        }
        let content = try Fixtures.makeContent { content in
            try Data(valid.replacingOccurrences(of: first, with: replacement).utf8).write(to: content.appendingPathComponent("products/espresso.xml"))
        }
        defer { Fixtures.remove(content) }
        #expect(try Fixtures.validate(content).diagnostics == [])
    }
}
