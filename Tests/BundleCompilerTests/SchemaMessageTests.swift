@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// What the schema refuses is said in words: where, what is wrong and what to write, with the
/// words for a value from the schema's own documentation. These go through libxml2, so a
/// libxml2 that words its messages differently fails here rather than in front of an editor.
@Suite struct SchemaMessageTests {
    let loader: FileLoader

    init() throws {
        loader = try FileLoader(root: "", libxml: LibXML.shared.get())
    }

    static let product = """
        <product id="espresso">
          <name>Espresso</name>
          <icon src="images/icon.png"/>
          <summary>Tumma</summary>
          <body><p>Vahva.</p></body>
          <images><image src="images/picture.png" alt="Paketti"/></images>
        </product>
        """

    /// The diagnostics for the product with `original` replaced by `replacement`.
    func messages(replacing original: String, with replacement: String) -> [String] {
        let text = Self.product.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.product, "\(original) is not in the product")
        let loaded = loader.loadWithTree(Array(text.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        #expect(loaded.diagnostics.allSatisfy { $0.code == DiagnosticCode.schemaInvalid.rawValue })
        return loaded.diagnostics.map(\.message)
    }

    @Test func theProductAsWrittenIsValid() {
        let loaded = loader.loadWithTree(Array(Self.product.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        #expect(loaded.diagnostics == [])
        #expect(loaded.entity != nil)
    }

    @Test(arguments: [
        ("  <summary>Tumma</summary>\n", "",
         "<body> is not expected here; the next element must be <summary>: add it if it is missing, or correct the order"),
        ("<name>Espresso</name>", "<nimi>Espresso</nimi>",
         "the content format has no element <nimi>; the next element here must be <name>: remove it, or correct its name"),
        ("<p>Vahva.</p>", "<p><b>Vahva.</b></p>",
         "the content format has no element <b>; the next element here must be <em>, <strong> or <link>: remove it, or correct its name"),
        ("<p>Vahva.</p>", "<p>Vahva.</p><h4>Lisää</h4>", "the content format has no element <h4>: remove it, or correct its name"),
        ("<images><image src=\"images/picture.png\" alt=\"Paketti\"/></images>",
         "<images><image src=\"images/a.png\" alt=\"A\"/><image src=\"images/b.png\" alt=\"B\"/><image src=\"images/c.png\" alt=\"C\"/></images>",
         "<image> is not expected here: there is one too many of it, or it is out of place"),
        ("<body><p>Vahva.</p></body>", "<body></body>", "<body> lacks what must come next, <p>, <h2>, <h3>, <ul> or <ol>; add one"),
        ("<body><p>Vahva.</p></body>", "<body><p>Vahva.</p>Lisää.</body>",
         "<body> holds text of its own, where only elements may go; put the text inside the element it belongs to (in a body, a <p>), or remove it"),
        ("<product id=\"espresso\">", "<product id=\"espresso\" color=\"red\">", "<product> has no attribute color; remove it, or correct its name"),
        ("<product id=\"espresso\">", "<product>", "<product> needs the attribute id; add id=\"…\""),
        ("<product id=\"espresso\">", "<product id=\"espresso\" position=\"x\">",
         "the attribute position of <product> holds 'x', which is not accepted; write a whole number from 1 to 100000, the place in its list: 1 is first"),
        ("<product id=\"espresso\">", "<product id=\"espresso\" position=\"100001\">",
         "the attribute position of <product> holds 100001, which is more than the most allowed, 100000"),
        ("<product id=\"espresso\">", "<product id=\"Espresso\">",
         "the attribute id of <product> holds 'Espresso', which is not accepted; write a stable id: lower-case letters and digits in groups joined by single hyphens, at most 64 characters"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"\"/>", "the attribute src of <icon> is empty; write it"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"images/\(String(repeating: "a", count: 293)).png\"/>",
         "the attribute src of <icon> is 304 characters long; the limit is 255"),
    ])
    func aRefusalIsSaidInWords(original: String, replacement: String, expected: String) {
        #expect(messages(replacing: original, with: replacement) == [expected])
    }

    /// An id outside an enumeration is one error: libxml2's empty warning after it is left out.
    @Test func anEnumerationFailureIsOneErrorWithTheChoices() throws {
        let catalog = """
            <catalog><brand>Café Digno</brand><release version="2026.11.0" date="2026-11-22"/><sections>
            <section id="home"><title>Etusivu</title><icon src="images/icon.png"/></section>
            <section id="products"><title>Tuotteet</title><icon src="images/icon.png"/></section>
            <section id="recipes"><title>Reseptit</title><icon src="images/icon.png"/></section>
            <section id="retailers"><title>Myyjät</title><icon src="images/icon.png"/></section>
            <section id="firma"><title>Yritys</title><icon src="images/icon.png"/></section></sections></catalog>
            """
        let loaded = loader.loadWithTree(Array(catalog.utf8), into: LoadedFile(file: ContentFile(path: "catalog.xml", kind: .catalog, id: "")))
        #expect(loaded.diagnostics.map(\.message) == [
            "the attribute id of <section> holds 'firma', which is not accepted; write one of: home, products, recipes, retailers, company"
        ])
    }
}
