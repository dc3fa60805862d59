@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing
import TestSupport

/// Content files are untrusted: nothing a document names is ever read, entities are never
/// expanded (the work of refusing nested entities does not grow with what they would expand
/// to), and every attack is refused with its own diagnostic.
@Suite struct HostileInputTests {
    /// A file outside the content folder whose text must never appear in any output.
    static func secretFile() throws -> (url: URL, marker: String) {
        let marker = "SECRET-\(UUID().uuidString)"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("digno-secret-\(UUID().uuidString).txt")
        try Data(marker.utf8).write(to: url)
        return (url, marker)
    }

    /// Validates content whose espresso product file is `bytes`; returns the report and the
    /// rendered text in all formats.
    func validate(productBytes bytes: Data) throws -> (report: ValidationReport, output: String) {
        let content = try Fixtures.makeContent { content in
            try bytes.write(to: content.appendingPathComponent("products/espresso.xml"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        let output = ReportFormat.allCases.map { $0.render(report, contentFolder: "content") }.joined()
        return (report, output)
    }

    func codes(_ report: ValidationReport) -> [String] {
        report.diagnostics.map(\.code.rawValue)
    }

    @Test func externalEntityNamingAFileIsRefusedWithoutReadingIt() throws {
        let secret = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secret.url) }
        for target in [secret.url.absoluteString, secret.url.path, "file:///etc/passwd"] {
            let document = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE product [<!ENTITY leak SYSTEM "\(target)">]>
                <product id="espresso"><name>&leak;</name></product>
                """
            let result = try validate(productBytes: Data(document.utf8))
            #expect(codes(result.report) == ["doctype-forbidden"])
            #expect(!result.output.contains(secret.marker))
            #expect(!result.output.contains("root:"))
        }
    }

    @Test func parameterEntityIsRefused() throws {
        let secret = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secret.url) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE product [<!ENTITY % file SYSTEM "\(secret.url.absoluteString)"> <!ENTITY % eval "<!ENTITY leak '%file;'>"> %eval;]>
            <product id="espresso"><name>&leak;</name></product>
            """
        let result = try validate(productBytes: Data(document.utf8))
        #expect(codes(result.report) == ["doctype-forbidden"])
        #expect(!result.output.contains(secret.marker))
    }

    @Test func billionLaughsIsRefusedUnexpanded() throws {
        /// Entities nested `levels` deep, each ten of the one below: 3 × 10^levels letters.
        func laughs(_ levels: Int) -> [UInt8] {
            var declarations = "<!ENTITY lol0 \"lol\">"
            for level in 1...levels {
                declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
            }
            return Array("<?xml version=\"1.0\"?>\n<!DOCTYPE product [\(declarations)]>\n<product id=\"espresso\"><name>&lol\(levels);</name></product>\n".utf8)
        }
        let result = try validate(productBytes: Data(laughs(12)))
        #expect(codes(result.report) == ["doctype-forbidden"])
        // Twelve levels (3 × 10^12 letters, expanded) take about the work of three (3,000): the
        // work grows with the file, four times larger, not with what it would expand to.
        let loader = try FileLoader(root: "/nonexistent", libxml: LibXML.shared.get(),
                                    overlays: ["products/three.xml": laughs(3), "products/twelve.xml": laughs(12)])
        let growth = Work.growth(small: { _ = loader.load(ContentFile(path: "products/three.xml", kind: .product, id: "three")) },
                                 large: { _ = loader.load(ContentFile(path: "products/twelve.xml", kind: .product, id: "twelve")) })
        #expect(growth < 8, "\(growth) times the work for twelve levels as for three")
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 300
        let document = "<?xml version=\"1.0\"?>\n<product id=\"espresso\"><body><p>" + String(repeating: "<em>", count: depth) + "x"
            + String(repeating: "</em>", count: depth) + "</p></body></product>\n"
        let result = try validate(productBytes: Data(document.utf8))
        #expect(codes(result.report) == ["xml-too-deep"])
        #expect(result.report.diagnostics.first?.message == "elements are nested more than 40 deep; the content format never needs that many levels")
    }

    /// A file that is valid but for its depth: before, the one-pass reader applied no depth
    /// limit, so 45 levels passed and 7,000 overflowed the stack.
    @Test(arguments: [45, 7_000])
    func deepNestingInAnOtherwiseValidFileIsRefused(emphases: Int) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let nested = "<h2>" + String(repeating: "<em>", count: emphases) + "x" + String(repeating: "</em>", count: emphases) + "</h2>"
        let document = valid.replacingOccurrences(of: "<h2>Vinkkejä</h2>", with: nested)
        #expect(document != valid)
        let result = try validate(productBytes: Data(document.utf8))
        #expect(codes(result.report) == ["xml-too-deep"])
        #expect(result.report.diagnostics.first?.line == 8)
    }

    /// An image path holding an invisible character, written as a reference (`&#10;`) or as it
    /// is, is refused by its code at the attribute, even where a file of that name exists:
    /// before, it passed.
    @Test(arguments: [
        ("&#10;", "\n", "the invisible control character U+000A", "U+000A"),
        ("&#9;", "\t", "the invisible control character U+0009", "U+0009"),
        ("&#13;", "\r", "the invisible control character U+000D", "U+000D"),
        ("\u{85}", "\u{85}", "the invisible control character U+0085", "U+0085"),
        ("&#x2028;", "\u{2028}", "a line separator (U+2028)", "U+2028"),
        ("&#x200B;", "\u{200B}", "the invisible character U+200B (ZERO WIDTH SPACE)", "U+200B"),
    ])
    func anImagePathWithAnInvisibleCharacterIsRefused(written: String, character: String, words: String, code: String) throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "src=\"images/picture.png\"", with: "src=\"images/pic\(written)ture.png\"")
                .write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(at: content.appendingPathComponent("images/picture.png"),
                                             to: content.appendingPathComponent("images/pic\(character)ture.png"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.code) \($0.message)" } == [
            "15:12 control-character src holds \(words): 'images/pic[\(code)]ture.png'; write the path without it",
        ])
    }

    @Test func gzipCompressedFileIsRefused() throws {
        // A gzip member holding "<product/>" (RFC 1952 header, stored deflate block, CRC, size).
        let payload = Array("<product/>".utf8)
        var gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF, 0x01]
        gzip += [UInt8(payload.count), 0, ~UInt8(payload.count), 0xFF] + payload + [0, 0, 0, 0, UInt8(payload.count), 0, 0, 0]
        let result = try validate(productBytes: Data(gzip))
        #expect(codes(result.report) == ["file-compressed"])
    }

    @Test func oversizedFileIsRefusedWithoutParsing() throws {
        let padding = String(repeating: "<!-- padding -->\n", count: FileLoader.maxFileSize / 17 + 1)
        let document = "<?xml version=\"1.0\"?>\n<product id=\"espresso\">" + padding + "</product>\n"
        let result = try validate(productBytes: Data(document.utf8))
        #expect(codes(result.report) == ["file-too-large"])
        #expect(result.report.diagnostics.first?.message.hasSuffix("the limit is 4194304 bytes (4 MiB): split or shorten it") == true)
    }

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        var bytes = Array("<?xml version=\"1.0\"?>\n<product id=\"espresso\">\n  <name>Caf".utf8)
        bytes += [0xE9]  // "é" in Latin-1
        bytes += Array("</name>\n</product>\n".utf8)
        let result = try validate(productBytes: Data(bytes))
        #expect(codes(result.report) == ["invalid-utf8"])
        #expect(result.report.diagnostics.first?.line == 3)
        #expect(result.report.diagnostics.first?.column == 12)
    }

    /// libxml2 stops at a NUL byte; after the root element, anything behind one would pass
    /// unseen. A UTF-16 file, full of NULs, gets the same message, which says what to do.
    @Test(arguments: [("trailing", 18, 1), ("inside", 3, 9), ("utf16", 1, 2)])
    func aNulByteIsRefusedWhereItIs(placement: String, line: Int, column: Int) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let bytes: [UInt8]
        switch placement {
        case "trailing": bytes = Array(valid.utf8) + [0] + Array("<product id=\"other\"/>".utf8)
        case "inside": bytes = Array(valid.replacingOccurrences(of: "<name>", with: "<name>\u{0}").utf8)
        default: bytes = Array(valid.data(using: .utf16LittleEndian)!)
        }
        let result = try validate(productBytes: Data(bytes))
        #expect(codes(result.report) == ["xml-malformed"])
        #expect(result.report.diagnostics.first?.message.contains("NUL byte") == true)
        #expect(result.report.diagnostics.first?.line == line)
        #expect(result.report.diagnostics.first?.column == column)
    }

    @Test func aSchemaNamedByTheDocumentIsNeverFetched() throws {
        let secret = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: secret.url) }
        let original = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let document = original.replacingOccurrences(
            of: "xsi:noNamespaceSchemaLocation=\"../schema/content.xsd\"",
            with: "xsi:noNamespaceSchemaLocation=\"\(secret.url.absoluteString)\"")
        #expect(document != original)
        let result = try validate(productBytes: Data(document.utf8))
        // Only that the editors' schema is named elsewhere: the file itself is checked against
        // the compiler's own, and the file named is never read.
        #expect(result.report.diagnostics.map(\.code) == [.schemaReferenceMissing])
        #expect(!result.output.contains(secret.marker))
    }

    @Test func theParserStaysSafeWhenReusedAcrossFiles() throws {
        let libxml = try LibXML.shared.get()
        let content = try Fixtures.makeContent { content in
            try Data("<?xml version=\"1.0\"?>\n<!DOCTYPE product [<!ENTITY a \"b\">]>\n<product id=\"evil\"/>\n".utf8)
                .write(to: content.appendingPathComponent("products/evil.xml"))
        }
        defer { Fixtures.remove(content) }
        let loader = try FileLoader(root: content.path, libxml: libxml)
        let evil = ContentFile(path: "products/evil.xml", kind: .product, id: "evil")
        let good = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        for _ in 0..<3 {
            #expect(loader.load(evil).diagnostics.map(\.code.rawValue) == ["doctype-forbidden"])
            let loaded = loader.load(good)
            #expect(loaded.diagnostics == [])
            #expect(loaded.entity != nil)
        }
    }

    /// A file name or value that holds a right-to-left override reaches the terminal with the
    /// override written as its code: quoted as it is, it reversed the rest of the line.
    @Test func invisibleCharactersFromContentAreShownByTheirCodes() throws {
        let content = try Fixtures.makeContent { content in
            try Data("x".utf8).write(to: content.appendingPathComponent("products/gnp.\u{202E}xml"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(!report.diagnostics.isEmpty)
        let text = ReportFormat.text.render(report, contentFolder: "content")
        #expect(text.contains("products/gnp.[U+202E]xml"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
        #expect(report.diagnostics.allSatisfy { !$0.message.unicodeScalars.contains("\u{202E}") })
        // The JSON report keeps the file's real name, for tools to open it.
        #expect(ReportFormat.json.render(report, contentFolder: "content").unicodeScalars.contains("\u{202E}"))
    }
}
