@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// Clean files are read in one SAX2 pass with streaming schema validation
/// (`FileLoader.streamedEntity`); anything else goes to libxml2's tree (`loadWithTree`), which
/// reports it. The pass must accept exactly the files the tree accepts, and read them into
/// exactly the same entity.
@Suite struct StreamedParsingTests {
    let loader: FileLoader

    init() throws {
        loader = try FileLoader(root: "", libxml: LibXML.shared.get())
    }

    /// The content file at `path` relative to a content folder, if it is one.
    static func contentFile(_ path: String) -> ContentFile? {
        let parts = path.split(separator: "/").map(String.init)
        guard let name = parts.last, name.hasSuffix(".xml") else { return nil }
        let id = String(name.dropLast(4))
        if parts.count == 1 {
            return ContentFileKind.allCases.first { $0.singleFileName == name }.map { ContentFile(path: path, kind: $0, id: "") }
        }
        guard parts.count == 2, let kind = ContentFileKind.allCases.first(where: { $0.folder == parts[0] }) else { return nil }
        return ContentFile(path: path, kind: kind, id: id)
    }

    /// Every content file under `folder`, with its bytes.
    static func files(under folder: URL) throws -> [(file: ContentFile, bytes: [UInt8])] {
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
        return try paths.compactMap { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            guard !isFolder.boolValue, let file = contentFile(path) else { return nil }
            return (file, try [UInt8](Data(contentsOf: folder.appendingPathComponent(path))))
        }
    }

    /// An entity written out whole, as bytes: two entities whose texts differ only in Unicode
    /// spelling are `==`, but not this.
    static func utf8(_ entity: ParsedEntity?) -> [UInt8] {
        Array(String(reflecting: entity).utf8)
    }

    /// Whether the tree reads `bytes` with nothing to report.
    func treeEntity(_ bytes: [UInt8], _ file: ContentFile) -> (entity: ParsedEntity?, clean: Bool) {
        let loaded = loader.loadWithTree(bytes, into: LoadedFile(file: file))
        let idMatches = file.id.isEmpty || loaded.declaredID == file.id
        return (loaded.entity, loaded.entity != nil && loaded.diagnostics.isEmpty && idMatches)
    }

    @Test func theStreamedPassAcceptsAndReadsExactlyWhatTheTreeDoes() throws {
        var folders = [URL(fileURLWithPath: BundleBuildTests.shippedContent), Fixtures.valid]
        folders += Fixtures.invalidCases.map { Fixtures.invalid.appendingPathComponent($0).appendingPathComponent("content") }
        var accepted = 0
        var refused = 0
        for folder in folders {
            for (file, bytes) in try Self.files(under: folder) {
                let tree = treeEntity(bytes, file)
                let streamed = loader.streamedEntity(bytes, file)
                if tree.clean {
                    #expect(streamed == tree.entity, "\(folder.path)/\(file.path)")
                    // And byte for byte: `==` on strings takes composed and decomposed text
                    // for the same.
                    #expect(Self.utf8(streamed) == Self.utf8(tree.entity), "\(folder.path)/\(file.path)")
                    accepted += 1
                } else {
                    #expect(streamed == nil, "\(folder.path)/\(file.path)")
                    refused += 1
                }
            }
        }
        // The comparison covers both outcomes, many times over.
        #expect(accepted > 40)
        #expect(refused > 15)
    }

    /// References, CDATA, comments and processing instructions, which SAX2 hands over
    /// differently from the tree: an `&` in an attribute value arrives as `&#38;`.
    @Test func referencesAndMarkupReadTheSameAsInTheTree() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <product id="espresso">
              <name>Kahvi &amp; kakku &#233;&lt;3 &#x263A;</name>
              <icon src="images/icon.png"/>
              <summary><!-- note -->Tumma<?pi data?>paahto <![CDATA[<ei merkintää> & ]]>jauhe</summary>
              <body>
                <p>A &amp; B <em>&quot;C&quot;</em><!-- x --> <link recipe="cafe-latte">D &#38; E</link>&apos;</p>
              </body>
              <images>
                <image src="images/picture.png" alt="Kahvi &amp; kakku &#38; &#233;&lt;3 &quot;&apos; &amp;#38;"/>
              </images>
            </product>
            """
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        let bytes = Array(document.utf8)
        let tree = treeEntity(bytes, file)
        #expect(tree.clean)
        let streamed = try #require(loader.streamedEntity(bytes, file))
        #expect(streamed == tree.entity)
        guard case .product(let product) = streamed else {
            Issue.record("not a product: \(streamed)")
            return
        }
        #expect(product.name == "Kahvi & kakku é<3 ☺")
        #expect(product.summary == "Tummapaahto <ei merkintää> & jauhe")
        #expect(product.images.first?.alt == "Kahvi & kakku & é<3 \"' &#38;")
        #expect(product.body.blocks == [.paragraph([
            .text("A & B "), .emphasis([.text("\"C\"")]), .text(" "), .link(.recipe("cafe-latte"), [.text("D & E")]), .text("'"),
        ])])
    }

    /// A file with something to report is never read by the streamed pass, so its
    /// diagnostics, with their positions, come from the tree.
    @Test(arguments: [
        ("<product id=\"espresso\"", "<product id=\"other\"", "the id differs from the file name"),
        ("<product id=\"espresso\"", "<product id=\"espresso\" xmlns=\"urn:x\"", "a namespace"),
        ("<product id=\"espresso\"", "<!DOCTYPE product><product id=\"espresso\"", "a DOCTYPE"),
        ("<link recipe=\"cafe-latte\">", "<link>", "a link with no target"),
        ("<link recipe=\"cafe-latte\">", "<link recipe=\"cafe-latte\" product=\"espresso\">", "a link with two targets"),
        ("<name>Espresso</name>", "<name>Espresso</nam>", "not well-formed"),
        ("<name>Espresso</name>", "<name>Espresso</name><name>Toinen</name>", "not valid against the schema"),
    ])
    func filesWithSomethingToReportGoToTheTree(original: String, replacement: String, what: String) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        #expect(loader.streamedEntity(Array(valid.utf8), file) != nil)
        let changed = valid.replacingOccurrences(of: original, with: replacement)
        #expect(changed != valid)
        #expect(loader.streamedEntity(Array(changed.utf8), file) == nil, "\(what)")
        #expect(!treeEntity(Array(changed.utf8), file).clean, "\(what)")
    }

    /// Byte-level variants of a valid file: what the streamed pass accepts, the tree accepts
    /// and reads the same. Only a NUL after the root element (which libxml2's tree parser
    /// ignores) sends a file the tree accepts to the tree. `FileLoader.load` refuses any NUL,
    /// and a declaration naming another encoding than UTF-8, before either parser sees the file
    /// (`HostileInputTests`, `XMLDeclarationTests`).
    @Test(arguments: ["bom", "crlf", "cr", "latin1-declared", "utf16", "no-declaration", "trailing-comment", "nul"])
    func variantsOfAFileReadTheSameBothWays(variant: String) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let bytes: [UInt8]
        switch variant {
        case "bom": bytes = [0xEF, 0xBB, 0xBF] + Array(valid.utf8)
        case "crlf": bytes = Array(valid.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case "cr": bytes = Array(valid.replacingOccurrences(of: "\n", with: "\r").utf8)
        case "latin1-declared": bytes = Array(valid.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").utf8)
        case "utf16": bytes = Array(valid.data(using: .utf16)!)
        case "no-declaration": bytes = Array(valid.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "").utf8)
        case "trailing-comment": bytes = Array((valid + "<!-- end -->\n").utf8)
        default: bytes = Array(valid.utf8) + [0]
        }
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        let tree = treeEntity(bytes, file)
        let streamed = loader.streamedEntity(bytes, file)
        if variant == "nul" {
            #expect(streamed == nil)
        } else if tree.clean {
            #expect(streamed == tree.entity)
        } else {
            #expect(streamed == nil)
        }
        #expect(tree.clean == !["utf16"].contains(variant), "the tree's verdict on \(variant)")
    }

    /// A typed value the builder cannot read is a problem at its element, never a silent
    /// gap: here a date the schema would refuse, read without the schema.
    @Test func anUnreadableTypedValueIsAProblemNotAGap() throws {
        let document = "<catalog><brand>B</brand><release version=\"2026.11.0\" date=\"soon\"/><sections/></catalog>"
        let file = ContentFile(path: "catalog.xml", kind: .catalog, id: "")
        let parsed = loader.parser.parse(Array(document.utf8))
        let root = try #require(parsed.root)
        var builder = EntityBuilder(file: file, root: root)
        #expect(builder.build() == nil)
        #expect(builder.problems.map(\.code) == [.schemaInvalid])
        #expect(builder.problems.first?.message.hasPrefix("date=\"soon\" cannot be read") == true)
        withExtendedLifetime(parsed.document) {}
    }

    /// The one pass stops at the depth where the tree parser stops (libxml2's push parser has
    /// no depth limit of its own), so around the limit both agree, and a file nested deeper
    /// than it goes to the tree, which reports it.
    @Test(arguments: [30, 36, 37, 38, 39, 40, 300])
    func nestingIsLimitedTheSameBothWays(emphases: Int) throws {
        let valid = try String(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml"), encoding: .utf8)
        let nested = "<h2>" + String(repeating: "<em>", count: emphases) + "Vinkkejä" + String(repeating: "</em>", count: emphases) + "</h2>"
        let changed = valid.replacingOccurrences(of: "<h2>Vinkkejä</h2>", with: nested)
        #expect(changed != valid)
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        let tree = treeEntity(Array(changed.utf8), file)
        let streamed = loader.streamedEntity(Array(changed.utf8), file)
        #expect(streamed == (tree.clean ? tree.entity : nil))
        #expect(loader.parser.streamed.tooDeep == !tree.clean)
        // <product>, <body> and <h2> hold the emphases: libxml2 refuses an element with more
        // than 40 open around it.
        #expect(tree.clean == (3 + emphases <= LibXML.maxDepth + 1))
    }

    /// Through the schema's SAX plug too, a DOCTYPE stops the parser before its internal
    /// subset is read: no entity is declared, so none can be expanded or loaded.
    @Test func aDoctypeStopsTheStreamedPass() throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE product [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <product id="espresso"><name>&b;</name></product>
            """
        let file = ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")
        #expect(loader.streamedEntity(Array(document.utf8), file) == nil)
        #expect(loader.parser.streamed.sawDoctype)
        #expect(loader.parser.streamed.root == nil)
    }

    /// A valid product in the recipes folder: the schema allows any content root, the folder
    /// does not.
    @Test func theWrongRootElementGoesToTheTree() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.valid.appendingPathComponent("products/espresso.xml")))
        let file = ContentFile(path: "recipes/espresso.xml", kind: .recipe, id: "espresso")
        #expect(loader.streamedEntity(bytes, file) == nil)
        #expect(!treeEntity(bytes, file).clean)
    }
}

/// Whitespace collapsing, which both ways of reading share: runs are one space, none at the
/// ends, and a run split across pieces of text is still one space.
@Suite struct WhitespaceCollapsingTests {
    @Test(arguments: [
        ("", ""), ("   ", ""), ("ab", "ab"), ("  a \t\n\r b  ", "a b"), ("Café  Digno\n", "Café Digno"), ("a\u{A0}b", "a\u{A0}b"),
    ])
    func collapsesOnePiece(text: String, expected: String) {
        #expect(collapsingWhitespace(text) == expected)
    }

    @Test func aRunAcrossPiecesIsOneSpace() {
        var collapser = WhitespaceCollapser()
        let pieces = ["  Suodatin", "kahvi  ", " \n", "kotiin", " "]
        let total = pieces.reduce(0) { $0 + $1.utf8.count }
        let text = String(unsafeUninitializedCapacity: total + 1) { output in
            var written = 0
            for piece in pieces {
                Array(piece.utf8).withUnsafeBufferPointer { collapser.collapse($0, into: output, written: &written) }
            }
            return written
        }
        #expect(text == "Suodatinkahvi kotiin")
        // The trailing space is held back, for an inline element that may follow.
        let due = collapser.flushPendingSpace()
        #expect(due)
    }
}
