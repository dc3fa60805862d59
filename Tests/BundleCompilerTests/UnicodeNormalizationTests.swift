@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Crypto
import Foundation
import Testing

/// `NFC`: what it passes on the bytes alone, and what it makes of the rest.
@Suite struct NFCTests {
    static func isKnownNFC(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(NFC.isKnownNFC)
    }

    /// The fast path's claim, checked against the standard library's Unicode data: every
    /// character below U+0300 and from U+2002 to U+20CF has NFC_Quick_Check=Yes and combining
    /// class 0, so a text of them is NFC whatever their order; and no other character is passed
    /// on its bytes.
    @Test func theCharactersPassedOnTheirBytesAreNFCWhateverSurroundsThem() {
        let passed = Array(0..<0x300) + Array(NFC.knownRange)
        for code in passed {
            guard let scalar = Unicode.Scalar(code) else { continue }
            let text = String(scalar)
            #expect(Self.isKnownNFC(text), "U+\(String(code, radix: 16))")
            #expect(scalar.properties.canonicalCombiningClass == .notReordered, "U+\(String(code, radix: 16))")
            if #available(macOS 26, iOS 26, *) {
                var span = text.utf8Span
                let isNFC = span.checkForNFC(quickCheck: true)
                #expect(isNFC, "U+\(String(code, radix: 16))")
            }
        }
        let others = (0x300..<0x10000).filter { !NFC.knownRange.contains(UInt32($0)) }.compactMap { Unicode.Scalar(UInt32($0)) }
        #expect(!others.contains { Self.isKnownNFC(String($0)) })
        // U+0300 is the first character that is not NFC_QC=Yes.
        if #available(macOS 26, iOS 26, *) {
            var span = "\u{300}".utf8Span
            let isNFC = span.checkForNFC(quickCheck: true)
            #expect(!isNFC)
        }
    }

    /// The scan reads eight bytes at a time: a combining accent is found at every place in and
    /// across the words, and "ä" or an en dash is passed at every place.
    @Test func theScanFindsAnAccentAnywhere() {
        for length in 0...24 {
            for place in 0...length {
                let prefix = String(repeating: "a", count: place), suffix = String(repeating: "b", count: length - place)
                for (inserted, isKnown) in [("e\u{301}", false), ("\u{E4}", true), ("\u{2013}", true), ("\u{20AC}", true), ("\u{212B}", false)] {
                    #expect(Self.isKnownNFC(prefix + inserted + suffix) == isKnown, "\(inserted.unicodeScalars.map(\.value)) at \(place) of \(length)")
                }
            }
        }
    }

    @Test(arguments: [
        ("Cafe\u{301}", "Caf\u{E9}"),
        ("o\u{308}ljy\u{A0}\u{2013} pa\u{308}iva\u{308}", "\u{F6}ljy\u{A0}\u{2013} p\u{E4}iv\u{E4}"),
        ("\u{212B}ngstro\u{308}m", "\u{C5}ngstr\u{F6}m"),  // a singleton: Å as the ångström sign
        ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),  // Hangul jamo
        ("a\u{301}\u{323}", "\u{1EA1}\u{301}"),  // marks put in canonical order, then composed
        ("\u{301}alone", "\u{301}alone"),
    ])
    func decomposedTextIsComposed(text: String, expected: String) {
        #expect(Array(NFC.normalized(text).utf8) == Array(expected.utf8))
        #expect(Array(NFC.normalized(expected).utf8) == Array(expected.utf8))
        let decoded = Array(text.utf8).withUnsafeBufferPointer { NFC.string(decoding: $0) }
        #expect(Array(decoded.utf8) == Array(expected.utf8))
        #expect(NFC.normalized(utf8: Array(text.utf8)) == Array(expected.utf8))
    }

    @Test(arguments: ["", "Espresso", "Kahvilä – 1–2 dl, 5 €", "Καφές", "Кофе", "珈琲", "\u{1F600}"])
    func textInNFCIsLeftAsItIs(text: String) {
        #expect(Array(NFC.normalized(text).utf8) == Array(text.utf8))
        #expect(NFC.normalized(utf8: Array(text.utf8)) == Array(text.utf8))
    }

    /// A file that is not UTF-8 (an error of its own) is hashed without trapping.
    @Test func bytesThatAreNotUTF8AreReadWithoutTrapping() {
        for bytes: [UInt8] in [[0xCC], [0xE2, 0x80], [0xE2, 0x80, 0x41], [0x65, 0xCC, 0x81, 0xFF], [0xFF, 0xFE, 0xCC, 0x80]] {
            #expect(!NFC.normalized(utf8: bytes).isEmpty)
            #expect(FileLoader.digest(bytes).count == 64)
        }
    }

    /// The digest hashes each file in NFC: composed and decomposed text hash the same, and a
    /// file already in NFC hashes as its bytes, as before.
    @Test func aFileHashesTheSameComposedOrDecomposed() {
        let composed = "<name>Caf\u{E9} \u{2013} p\u{E4}iv\u{E4}</name>\r\n"
        let decomposed = "<name>Cafe\u{301} \u{2013} pa\u{308}iva\u{308}</name>\r\n"
        #expect(FileLoader.digest(Array(decomposed.utf8)) == FileLoader.digest(Array(composed.utf8)))
        #expect(FileLoader.digest(Array(composed.utf8)) == SHA256.hash(data: Array(composed.replacingOccurrences(of: "\r\n", with: "\n").utf8)).hexString)
    }
}

/// The same content written composed (NFC) and decomposed (NFD), in its files and in its
/// image names, is one content: the same report, entities, bundle and manifest.
@Suite struct UnicodeSpellingTests {
    let loader: FileLoader

    init() throws {
        loader = try FileLoader(root: "", libxml: LibXML.shared.get())
    }

    static func decomposed(_ text: String) -> String { text.decomposedStringWithCanonicalMapping }

    /// Both readers, the one pass and the tree, read every value in NFC: text, attributes,
    /// rich text, and runs that a comment splits or a character reference ends.
    @Test func bothReadersReadDecomposedTextComposed() throws {
        func document(_ name: String, _ summary: String, _ paragraph: String, _ alt: String) -> [UInt8] {
            Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <product id="espresso">
                  <name>\(name)</name>
                  <icon src="images/icon.png"/>
                  <summary>\(summary)</summary>
                  <body>
                    <p>\(paragraph)</p>
                  </body>
                  <images>
                    <image src="images/picture.png" alt="\(alt)"/>
                  </images>
                </product>
                """.utf8)
        }
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        let composed = document("Caf\u{E9} Digno", "Kahvi\u{E9} ja \u{F6}ljy \u{C5}",
                                "Sopii \u{E9} <em>p\u{E4}iv\u{E4}\u{E4}n</em> <link recipe=\"cafe-latte\">Caf\u{E9} Latteen</link>.",
                                "Kahvipaketti \u{E4}")
        let decomposed = document("Cafe\u{301} Digno", "Kahvie<!-- x -->\u{301} ja o&#x308;ljy &#x212B;",
                                  "Sopii e<!-- y -->&#x301; <em>pa\u{308}iva\u{308}a\u{308}n</em> <link recipe=\"cafe-latte\">Cafe\u{301} Latteen</link>.",
                                  "Kahvipaketti a&#x308;")
        let expected = try #require(loader.streamedEntity(composed, file))
        guard case .product(let product) = expected else {
            Issue.record("not a product: \(expected)")
            return
        }
        #expect(Array(product.summary.utf8) == Array("Kahvi\u{E9} ja \u{F6}ljy \u{C5}".utf8))
        let tree = loader.loadWithTree(decomposed, into: LoadedFile(file: file))
        #expect(tree.diagnostics.isEmpty)
        let streamed = loader.streamedEntity(decomposed, file)
        #expect(StreamedParsingTests.utf8(streamed) == StreamedParsingTests.utf8(expected))
        #expect(StreamedParsingTests.utf8(tree.entity) == StreamedParsingTests.utf8(expected))
    }

    /// The shipped content, with an image name and an image folder that have accents and a web
    /// address whose host has one, as four folders: files and names composed, files
    /// decomposed, names decomposed, both decomposed.
    @Test func composedAndDecomposedContentBuildTheSameBundle() throws {
        let scratch = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let imageName = "images/recipes/caf\u{E9}-au-lait-1.png", folderName = "images/p\u{E4}iv\u{E4}"
        var outputs: [(report: String, catalog: [UInt8], bundle: Data, manifest: Data)] = []
        for (index, (filesDecomposed, namesDecomposed)) in [(false, false), (true, false), (false, true), (true, true)].enumerated() {
            let content = scratch.appendingPathComponent("content-\(index)")
            try FileManager.default.copyItem(atPath: BundleBuildTests.shippedContent, toPath: content.path)
            let spell = { (text: String) in namesDecomposed ? Self.decomposed(text) : text }
            try FileManager.default.moveItem(at: content.appendingPathComponent("images/recipes/cafe-au-lait-1.png"),
                                             to: content.appendingPathComponent(spell(imageName)))
            try FileManager.default.moveItem(at: content.appendingPathComponent("images/home"), to: content.appendingPathComponent(spell(folderName)))
            // The names on disk are spelled as meant: Linux keeps a name's bytes.
            #if os(Linux)
            let listed = try FileSystem.list(content.appendingPathComponent("images/recipes").path)
            #expect(listed.contains { $0.utf8.elementsEqual(spell("caf\u{E9}-au-lait-1.png").utf8) })
            #endif
            for path in try FileManager.default.subpathsOfDirectory(atPath: content.path) where path.hasSuffix(".xml") {
                let url = content.appendingPathComponent(path)
                let text = try String(contentsOf: url, encoding: .utf8)
                    .replacingOccurrences(of: "images/recipes/cafe-au-lait-1.png", with: imageName)
                    .replacingOccurrences(of: "images/home/", with: folderName + "/")
                    .replacingOccurrences(of: "https://www.cafekahvila.fi", with: "https://www.kahvil\u{E4}.fi")
                try Data((filesDecomposed ? Self.decomposed(text) : text).utf8).write(to: url)
            }
            let report = try Fixtures.validate(content)
            let isValid = report.isValid
            #expect(isValid, "folder \(index): \(ReportFormat.text(report))")
            let output = scratch.appendingPathComponent("out-\(index)/catalog.sqlite")
            try BundleBuildTests.build(content.path, to: output.path)
            outputs.append((
                ReportFormat.text(report), Array(String(reflecting: report.catalog).utf8), try Data(contentsOf: output),
                try Data(contentsOf: output.deletingLastPathComponent().appendingPathComponent("catalog.manifest.json"))))
        }
        let first = try #require(outputs.first)
        #expect(first.report.hasPrefix("0 errors, 0 warnings in "))
        for (index, output) in outputs.enumerated().dropFirst() {
            #expect(Array(output.report.utf8) == Array(first.report.utf8), "folder \(index)")
            #expect(output.catalog == first.catalog, "folder \(index)")
            #expect(output.bundle == first.bundle, "folder \(index)")
            #expect(output.manifest == first.manifest, "folder \(index)")
        }
    }

    /// Two products with the same body, one composed and one decomposed: the same text, so
    /// `duplicate-text` warns, at the same place as when both are composed.
    @Test func aDuplicateIsFoundAcrossSpellings() throws {
        func report(decomposed: Bool) throws -> String {
            let content = try Fixtures.makeContent { content in
                let espresso = try String(contentsOf: content.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
                let body = try #require(espresso.range(of: "<body>").flatMap { start in
                    espresso.range(of: "</body>").map { String(espresso[start.lowerBound..<$0.upperBound]) }
                })
                #expect(body.contains("Caf\u{E9} Latteen") && body.contains("Vinkkej\u{E4}"))
                let url = content.appendingPathComponent("products/ground-coffee.xml")
                let groundCoffee = try String(contentsOf: url, encoding: .utf8)
                    .replacingOccurrences(of: "<body>\n    <p>Suodatinkahvi kotiin.</p>\n  </body>", with: decomposed ? Self.decomposed(body) : body)
                try Data(groundCoffee.utf8).write(to: url)
            }
            defer { Fixtures.remove(content) }
            return ReportFormat.text(try Fixtures.validate(content))
        }
        let decomposed = try report(decomposed: true)
        #expect(decomposed.contains(
            "products/ground-coffee.xml:6:3: warning: body is the same text as in product 'espresso'; write this product's own text [duplicate-text]"))
        #expect(Array(decomposed.utf8) == Array(try report(decomposed: false).utf8))
    }

    /// Positions come from the file's bytes and count characters as a reader does: a problem
    /// after decomposed text on its line is at the same column as after composed text.
    @Test func positionsAfterDecomposedTextAreTheSame() throws {
        func report(_ name: String) throws -> String {
            let content = try Fixtures.makeContent { content in
                let url = content.appendingPathComponent("products/espresso.xml")
                let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
                    of: "<name>Espresso</name>\n  <icon src=\"images/icon.png\"/>",
                    with: "<name>\(name)</name> <icon src=\"images/\(name).png\"/>")
                try Data(text.utf8).write(to: url)
            }
            defer { Fixtures.remove(content) }
            return ReportFormat.text(try Fixtures.validate(content))
        }
        let composed = try report("P\u{E4}iv\u{E4}n kahvi")
        #expect(composed.contains("products/espresso.xml:3:29: error: image 'images/P\u{E4}iv\u{E4}n kahvi.png' does not exist"))
        #expect(Array(try report("Pa\u{308}iva\u{308}n kahvi").utf8) == Array(composed.utf8))
    }
}
