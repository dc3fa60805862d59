@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing
import TestSupport

/// Content files are read in time that grows with their size and no faster: every construct
/// that libxml2 2.9 once read in time growing with the square of its size, or that the
/// compiler did (a long XML declaration took 112 s at 3 MiB, a file of 300,000 problems
/// hours), takes about four times the work at 4 MiB, the largest size a file may have, as at
/// 1 MiB, or is refused before libxml2 sees it. Work, not time (`Work`): speed itself is
/// measured by the benchmarks.
@Suite(.serialized) struct LargeMarkupTests {
    /// A worst case: the valid `products/espresso.xml` with one construct grown to fill the
    /// file, and the exact report it gets.
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case declarationOfSpaces, declarationOfLetters, declarationNeverClosed
        case instructionFirst, instructionNeverClosed, commentBeforeRoot, commentNeverClosed, spaceBeforeRoot
        case longDoctype, doctypeNeverClosed
        case longValue, valueNeverClosed, longText, textInPieces, textBeyondASCII, cdataNeverClosed, longElementName, startTagNeverClosed
        case manyAttributes, manyNamespaces, manyComments
        case combiningMarks, combiningMarksAsReferences

        var testDescription: String { rawValue }

        /// The size of the grown construct: the file stays under 4 MiB.
        static let size = FileLoader.maxFileSize - 2048

        /// The file's text, from the valid product's `declaration` and `body` (what follows it),
        /// with the construct `size` long.
        func document(declaration: String, body: String, size: Int = Self.size) -> String {
            let letters = String(repeating: "a", count: size)
            let spaces = String(repeating: " ", count: size)
            /// `body` up to `marker`, exclusive.
            func bodyBefore(_ marker: String) -> String { body.components(separatedBy: marker)[0] }
            switch self {
            case .declarationOfSpaces: return "<?xml version=\"1.0\"" + spaces + "?>\n" + body
            case .declarationOfLetters: return "<?xml version=\"1.0\" " + letters + "?>\n" + body
            case .declarationNeverClosed: return "<?xml version=\"1.0\"" + spaces
            case .instructionFirst: return "<?note " + letters + "?>\n" + body
            case .instructionNeverClosed: return declaration + "<?note " + letters
            case .commentBeforeRoot: return declaration + "<!--" + letters + "-->\n" + body
            case .commentNeverClosed: return declaration + "<!--" + letters
            case .spaceBeforeRoot: return declaration + spaces + body
            case .longDoctype: return declaration + "<!DOCTYPE product" + spaces + ">\n" + body
            case .doctypeNeverClosed: return declaration + "<!DOCTYPE product" + spaces
            case .longValue: return declaration + body.replacingOccurrences(of: "alt=\"Espressopaketti\"", with: "alt=\"\(letters)\"")
            case .valueNeverClosed: return declaration + bodyBefore("alt=\"") + "alt=\"" + letters
            case .longText: return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>\(letters)</name>")
            case .textInPieces:
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>" + String(repeating: "&amp;", count: size / 5) + "</name>")
            case .textBeyondASCII:
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>" + String(repeating: "ä", count: size / 2) + "</name>")
            case .cdataNeverClosed: return declaration + bodyBefore("<name>") + "<name><![CDATA[" + letters
            case .longElementName:
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Espresso</name><\(letters)/>")
            case .startTagNeverClosed: return declaration + bodyBefore("<name>") + "<name" + spaces
            case .manyAttributes:
                // Names of one length: ` a000001="x"`.
                let attributes = (0..<(size / 12)).map { " a" + String(1_000_000 + $0).dropFirst() + "=\"x\"" }.joined()
                return declaration + body.replacingOccurrences(of: "<name>", with: "<name\(attributes)>")
            case .manyNamespaces:
                // One declaration on each of many elements: no tag has too many attributes.
                let emphases = String(repeating: "<em xmlns:a=\"u\">x</em>", count: size / 22)
                return declaration + body.replacingOccurrences(of: "<h2>Vinkkejä</h2>", with: "<p>\(emphases)</p>")
            case .manyComments:
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Espresso" + String(repeating: "<!---->", count: size / 7) + "</name>")
            case .combiningMarks:
                // Two marks of different classes (230 and 220) in turn, which normalization
                // must reorder: 80,000 pairs took 21.8 s to read before they were refused.
                let marks = String(repeating: "\u{301}\u{316}", count: size / 4)
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>a" + marks + "</name>")
            case .combiningMarksAsReferences:
                // The same marks as character references, which the file's bytes do not show.
                let marks = String(repeating: "&#x301;&#x316;", count: size / 14)
                return declaration + body.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>a" + marks + "</name>")
            }
        }

        /// The exact text report.
        var expected: String {
            let size = Self.size
            let file = "products/espresso.xml"
            let report = switch self {
            case .declarationOfSpaces, .instructionFirst, .commentBeforeRoot, .spaceBeforeRoot: ""
            case .declarationOfLetters:
                "\(file):1:21: error: not well-formed XML: parsing XML declaration: '?>' expected; fix the markup here [xml-malformed]\n"
            case .declarationNeverClosed:
                "\(file):1:\(size + 20): error: not well-formed XML: parsing XML declaration: '?>' expected; fix the markup here [xml-malformed]\n"
            case .instructionNeverClosed:
                "\(file):2:1: error: a processing instruction starts here with <? and is never closed; content files need none: remove it, or end it with ?> [xml-malformed]\n"
            case .commentNeverClosed:
                "\(file):2:1: error: a comment starts here with <!-- and is never closed; end it with --> [xml-malformed]\n"
            case .longDoctype, .doctypeNeverClosed:
                "\(file):2:1: error: DOCTYPE declarations are not allowed in content files; delete the <!DOCTYPE …> declaration [doctype-forbidden]\n"
            case .longValue: "\(file):15:5: error: alt is \(size) characters; the limit is 255 [alt-too-long]\n"
            case .valueNeverClosed:
                // After `    <image src="images/picture.png" alt="`, at the end of the file.
                "\(file):15:\(42 + size): error: not well-formed XML: AttValue: ' expected; fix the markup here [xml-malformed]\n"
            case .longText: "\(file):3:3: error: name is \(size) characters; the limit is 50 [name-too-long]\n"
            case .textInPieces: "\(file):3:3: error: name is \(size / 5) characters; the limit is 50 [name-too-long]\n"
            case .textBeyondASCII: "\(file):3:3: error: name is \(size / 2) characters; the limit is 50 [name-too-long]\n"
            case .cdataNeverClosed:
                "\(file):3:9: error: a CDATA section starts here with <![CDATA[ and is never closed; end it with ]]> [xml-malformed]\n"
            case .longElementName: "\(file):3:25: error: not well-formed XML: Name too long: NCName; fix the markup here [xml-malformed]\n"
            case .startTagNeverClosed:
                "\(file):3:\(size + 8): error: the tag <name> is not closed properly; look for a missing quote around an attribute's value, "
                    + "a missing space between attributes, or a missing > or /> [xml-malformed]\n"
            case .manyAttributes:
                "\(file):3:3: error: the tag <name> has more than 16 attributes; no element of the content format has more than 3: "
                    + "remove the ones it does not have [xml-too-many-attributes]\n"
            case .manyNamespaces:
                // The 17th declaration (the root's xmlns:xsi is the first): after `    <p>` and 15
                // emphases of 22 characters, `<em `.
                "\(file):8:\(5 + 3 + 15 * 22 + 4): error: the file declares more than 16 namespaces (xmlns=\"…\" or xmlns:name=\"…\"); "
                    + "content files need only xmlns:xsi, which names the schema: remove the others [xml-too-many-attributes]\n"
            case .combiningMarks:
                // The letter carrying them, after `  <name>`.
                "\(file):3:9: error: the character here carries \(size / 2) combining marks (accents and other marks drawn on it); "
                    + "Unicode's stream-safe text allows 30 and no language needs more: remove the extra marks [combining-marks]\n"
            case .combiningMarksAsReferences:
                "\(file):3:3: error: name holds a character carrying \(size / 14 * 2) combining marks (accents and other marks drawn on it); "
                    + "Unicode's stream-safe text allows 30 and no language needs more: remove the extra marks [combining-marks]\n"
            case .manyComments:
                // The 65th comment: after `  <name>Espresso` and 64 comments of 7 characters.
                "\(file):3:\(17 + 64 * 7): error: more than 64 comments and processing instructions stand in one element's text, "
                    + "with no tag between them; content files need none: remove them [xml-too-many-comments]\n"
            }
            return report + (report.isEmpty ? "0 errors" : "1 error") + ", 0 warnings in 11 files\n"
        }
    }

    @Test(arguments: Case.allCases)
    func aFileOf4MiBIsReadInTimeGrowingWithItsSize(_ worstCase: Case) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let lines = valid.split(separator: "\n", maxSplits: 1)
        try #require(lines.count == 2)
        func document(size: Int) -> Data {
            Data(worstCase.document(declaration: String(lines[0]) + "\n", body: String(lines[1]), size: size).utf8)
        }
        let large = document(size: Case.size), small = document(size: Case.size / 4)
        #expect(large.count <= FileLoader.maxFileSize && large.count > FileLoader.maxFileSize - 4096)
        #expect(try Self.validate(product: large) == worstCase.expected)
        // The work of reading the file, at a quarter of the size and at the whole: about 4
        // times as much when it grows with the size, 16 with its square (what it guards against
        // took 5 to 112 s at 4 MiB: SECURITY.md). The CPU time of this thread, not the clock's.
        let loader = try FileLoader(root: "/nonexistent", libxml: LibXML.shared.get(),
                                    overlays: ["products/espresso.xml": Array(small), "products/large.xml": Array(large)])
        let growth = Work.growth(small: { _ = loader.load(ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")) },
                                 large: { _ = loader.load(ContentFile(path: "products/large.xml", kind: .product, id: "large")) })
        #expect(growth < 8, "\(growth) times the work for 4 times the size")
    }

    /// Validates the valid fixture with `products/espresso.xml` replaced by `product`; returns
    /// the text report.
    static func validate(product: Data) throws -> String {
        let content = try Fixtures.makeContent { content in
            try product.write(to: content.appendingPathComponent("products/espresso.xml"))
        }
        defer { Fixtures.remove(content) }
        return try ReportFormat.text.render(Fixtures.validate(content), contentFolder: "content")
    }
}
