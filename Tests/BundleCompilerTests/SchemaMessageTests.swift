@testable import BundleCompiler
import CatalogContent
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
        #expect(loaded.diagnostics.allSatisfy { $0.code == .schemaInvalid })
        return loaded.diagnostics.map(\.message)
    }

    @Test func theProductAsWrittenIsValid() {
        let loaded = loader.loadWithTree(Array(Self.product.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        #expect(loaded.diagnostics == [])
        #expect(loaded.entity != nil)
    }

    @Test(arguments: [
        ("  <summary>Tumma</summary>\n", "",
         "<body> is not expected here; the next element must be <summary> (the short description under the product's name, on its list row and detail screen, at most 100 characters): add it if it is missing, or correct the order"),
        ("<name>Espresso</name>", "<nimi>Espresso</nimi>",
         "the content format has no element <nimi>; the next element here must be <name> (the product's name on its list row and detail screen, at most 50 characters): remove it, or correct its name"),
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
        ("<product id=\"espresso\">", "<product>", "<product> needs the attribute id (the product's id, the same as its file name without .xml); add id=\"…\""),
        (" alt=\"Paketti\"", "",
         "<image> needs the attribute alt (the text a screen reader reads in place of the picture, at most 255 characters); add alt=\"…\""),
        ("<images><image src=\"images/picture.png\" alt=\"Paketti\"/></images>", "<images></images>",
         "<images> lacks what must come next, <image> (a picture, with its file in src and its text for screen readers in alt); add it"),
        ("<icon src=\"images/icon.png\"/>", "<icon/>",
         "<icon> needs the attribute src (the file's path from the content folder, such as images/espresso.png); add src=\"…\""),
        ("<name>Espresso</name>", "", "<icon> is not expected here; the next element must be <name> (the product's name on its list row and detail screen, at most 50 characters): add it if it is missing, or correct the order"),
        ("<product id=\"espresso\">", "<product id=\"espresso\" position=\"x\">",
         "the attribute position of <product> holds 'x', which is not accepted; write a whole number from 1 to 100000, such as 3: the place in its list, where lower numbers come first"),
        ("<product id=\"espresso\">", "<product id=\"espresso\" position=\"100001\">",
         "the attribute position of <product> holds 100001, which is more than the most allowed, 100000"),
        // A quoted value's invisible characters are shown by their codes: a right-to-left
        // override quoted as it is reversed the rest of the terminal line.
        ("<product id=\"espresso\">", "<product id=\"espresso\" position=\"1\u{202E}2\u{200B}\u{A0}\">",
         "the attribute position of <product> holds '1[U+202E]2[U+200B][U+00A0]', which is not accepted; write a whole number from 1 to 100000, such as 3: the place in its list, where lower numbers come first"),
        ("<product id=\"espresso\">", "<product id=\"Espresso\">",
         "the attribute id of <product> holds 'Espresso', which is not accepted; write an id, which never changes once published: lower-case letters and digits in groups joined by single hyphens, at most 64 characters, such as cafe-latte "
            + "(did you mean 'espresso', the file's name?)"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"\"/>", "the attribute src of <icon> is empty; write it"),
        ("<summary>Tumma</summary>", "<summary>Tumma <b>ja vahva</b></summary>",
         "<summary> holds an element, where only plain text may go; remove the tags inside it and keep their text"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"images/icon.png\">kuvake</icon>",
         "<icon> takes nothing inside, not even a space or a line break; write it as one tag, <icon …/>"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"images/icon.png\"><p/></icon>",
         "<icon> holds an element, and takes nothing inside; write it as one tag, <icon …/>"),
        ("<name>Espresso</name>", "<name lang=\"fi\">Espresso</name>", "<name> has no attribute lang; remove it, or correct its name"),
        ("<product id=\"espresso\">", "<product xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"Tuote\" id=\"espresso\">",
         "<product> has the attribute xsi:type, which content files do not use; remove it"),
        ("<name>Espresso</name>", "<name xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:nil=\"true\">Espresso</name>",
         "<name> has the attribute xsi:nil, which content files do not use; remove it"),
        ("<icon src=\"images/icon.png\"/>", "<icon src=\"images/\(String(repeating: "a", count: 293)).png\"/>",
         "the attribute src of <icon> is 304 characters long; the limit is 255"),
    ])
    func aRefusalIsSaidInWords(original: String, replacement: String, expected: String) {
        #expect(messages(replacing: original, with: replacement) == [expected])
    }

    /// A name the format has in small letters, written with capitals, is told to be written
    /// in small letters, not taken for a name the format does not have.
    @Test func aNameInCapitalsIsToldToBeWrittenInSmallLetters() {
        #expect(messages(replacing: "<p>Vahva.</p>", with: "<P>Vahva.</P>") == [
            "the content format has no element <P>; element names are lower case: write <p> (and </p>)"
        ])
        #expect(messages(replacing: "<icon src=", with: "<icon SRC=") == [
            "<icon> has no attribute SRC; attribute names are lower case: write src",
            "<icon> needs the attribute src (the file's path from the content folder, such as images/espresso.png); add src=\"…\"",
        ])
    }

    /// A catalog.xml whose fifth section has the id given, on line 6.
    static func catalog(fifthSection id: String) -> String {
        """
        <catalog><brand>Café Digno</brand><release version="2026.11.0" date="2026-11-22"/><sections>
        <section id="home"><title>Etusivu</title><icon src="images/icon.png"/></section>
        <section id="products"><title>Tuotteet</title><icon src="images/icon.png"/></section>
        <section id="recipes"><title>Reseptit</title><icon src="images/icon.png"/></section>
        <section id="retailers"><title>Myyjät</title><icon src="images/icon.png"/></section>
        <section id="\(id)"><title>Yritys</title><icon src="images/icon.png"/></section></sections></catalog>
        """
    }

    /// A section listed twice names the line of the first.
    @Test func aKeyGivenTwiceNamesTheLineOfTheFirst() {
        let catalog = Self.catalog(fifthSection: "home")
        let loaded = loader.loadWithTree(Array(catalog.utf8), into: LoadedFile(file: ContentFile(path: "catalog.xml", kind: .catalog, id: "")))
        #expect(loaded.diagnostics.map { "\($0.line ?? 0): \($0.message)" } == [
            "6: <section> 'home' is listed twice, here and at line 2; list each once"
        ])
    }

    /// An element of the same name means what it means where it stands: a retailer's name is
    /// not a product's, and a promotion's link is not a paragraph's.
    @Test func anExpectedElementIsExplainedAsItsOwnersDeclarationSaysIt() throws {
        func retailerMessages(_ children: String) -> [String] {
            let retailer = "<retailer id=\"kahvila\">\(children)<address>Katu 1</address><phone>09 123</phone><hours>8–16</hours><sells/></retailer>"
            return loader.loadWithTree(Array(retailer.utf8), into: LoadedFile(file: ContentFile(path: "retailers/kahvila.xml", kind: .retailer, id: "kahvila")))
                .diagnostics.map(\.message)
        }
        // libxml2 reports the first misplaced child of an element and passes over the rest.
        #expect(retailerMessages("<logo src=\"images/logo.png\"/>") == [
            "<logo> is not expected here; the next element must be <name> (the retailer's name on its row of the retailer list, at most 50 characters): add it if it is missing, or correct the order",
        ])
        #expect(retailerMessages("<name>Kahvila</name><logo src=\"images/logo.png\"/>") == [
            "<sells> needs the attribute product (the id of a product the retailer sells: its file name in products/ without .xml); add product=\"…\"",
        ])
        let home = """
            <home><logo src="images/logo.png"/><image src="images/a.png" alt="Kuppi"/><body><p>Kahvia.</p></body>
            <promotions><promotion id="uutuus" first-day="2026-11-01" last-day="2026-11-30"><title>Uutuus</title><image src="images/a.png" alt="A"/></promotion></promotions></home>
            """
        let promotion = loader.loadWithTree(Array(home.utf8), into: LoadedFile(file: ContentFile(path: "home.xml", kind: .home, id: "")))
        #expect(promotion.diagnostics.map(\.message) == [
            "<image> is not expected here; the next element must be <text> (the promotion's text under its headline, at most 255 characters), "
                + "or a translation of <title> (with xml:lang): add it if it is missing, or correct the order",
        ])
    }

    /// An id outside an enumeration is one error: libxml2's empty warning after it is left out.
    @Test func anEnumerationFailureIsOneErrorWithTheChoices() throws {
        let catalog = Self.catalog(fifthSection: "firma")
        let loaded = loader.loadWithTree(Array(catalog.utf8), into: LoadedFile(file: ContentFile(path: "catalog.xml", kind: .catalog, id: "")))
        #expect(loaded.diagnostics.map(\.message) == [
            "the attribute id of <section> holds 'firma', which is not accepted; write one of: home, products, recipes, retailers, company"
        ])
    }
}
