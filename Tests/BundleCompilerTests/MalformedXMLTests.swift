@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// The common well-formedness mistakes of someone writing XML by hand are explained in words,
/// at libxml2's position; anything else keeps libxml2's own message.
@Suite struct MalformedXMLTests {
    let loader: FileLoader

    init() throws {
        loader = try FileLoader(root: "", libxml: LibXML.shared.get())
    }

    /// The one diagnostic for `text` as a product file, as "line:column message".
    func report(_ text: String) -> String {
        let loaded = loader.loadWithTree(Array(text.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        guard loaded.diagnostics.count == 1, let diagnostic = loaded.diagnostics.first else { return "\(loaded.diagnostics)" }
        #expect(diagnostic.code == .xmlMalformed)
        return "\(diagnostic.line ?? 0):\(diagnostic.column ?? 0) \(diagnostic.message)"
    }

    @Test(arguments: [
        ("<product id=\"espresso\"><name>Tumma & vahva</name></product>",
         "1:36 a bare '&': in these files '&' begins a code such as &amp; (written with a ';' at its end); write '&' in text as &amp;"),
        ("<product id=\"espresso\"><name>Café &co</name></product>",
         "1:35 a bare '&': in these files '&' begins a code such as &amp; (written with a ';' at its end); write '&' in text as &amp;"),
        ("<product id=\"espresso\"><name>alle < 5 €</name></product>",
         "1:35 a '<' that starts no element; write a '<' in text as &lt;"),
        ("<product id=\"espresso\"><image src=\"a.png\" alt=\"<\"/></product>",
         "1:48 a '<' inside an attribute value; write it as &lt;"),
        ("<product id=\"espresso\"><name>Kahvi&nbsp;paketti</name></product>",
         "1:41 &nbsp; is not a code these files know (they have only &amp; &lt; &gt; &quot; &apos;); write the character itself instead"),
        ("<product id=\"espresso\">\n<body><p>x</P></body></product>",
         "2:15 <p> (opened on line 2) and </P> differ in capital and small letters; element names are lower case: write </p>"),
        ("<product id=\"espresso\">\n<body><P>x</p></body></product>",
         "2:15 <P> (opened on line 2) and </p> differ in capital and small letters; element names are lower case: write <p>"),
        ("<product id=\"espresso\">\n<body><Li>x</LI></body></product>",
         "2:17 <Li> (opened on line 2) and </LI> differ in capital and small letters; element names are lower case: write <li> and </li>"),
        // A misspelled name: the tag with it is the one to change, whichever of the two it is.
        ("<product id=\"espresso\">\n<sumary>x</summary></product>",
         "2:20 <sumary> (opened on line 2) is misspelled: the element is <summary>, as its end tag </summary> says; write <summary>"),
        ("<product id=\"espresso\">\n<summary>x</sumary></product>",
         "2:20 </sumary> is misspelled: the element opened on line 2 is <summary>; write </summary>"),
        ("<product id=\"espresso\">\n<body><p>x</li></body></product>",
         "2:16 </li> does not close <p>, which was opened on line 2 and is still open; end <p> with </p> first, or correct whichever of the two names is misspelled"),
        ("<product id=\"espresso\">\n<name>Espresso</name>\n",
         "3:1 the file ends before <product>, opened on line 1, is closed; add </product> where it ends"),
        ("<product id=\"espresso\"><image src=\"a.png alt=\"b\"/></product>",
         "1:47 the attributes of this tag are not written properly; look for a missing quote around a value, a missing space between attributes, or a missing > or />"),
        ("<product id=\"espresso\"/>\n<product id=\"latte\"/>",
         "2:1 there is more after the end of <product>; a file holds one <product> element and nothing after it but comments: move what follows into it, or remove it"),
        ("<product id=\"espresso\" id=\"latte\"/>",
         "1:34 the attribute id is given twice in one tag; keep one"),
        ("<product id=\"espresso\"><name>&#0;</name></product>",
         "1:34 a character reference (&#…;) to a character XML does not allow; remove it"),
        ("<product id=\"espresso\"><!-- vanha -- poista --></product>",
         "1:35 a comment holds '--', which XML does not allow between <!-- and -->; change it, such as to '–'"),
        ("<product id=\"espresso\"><name>a]]>b</name></product>",
         "1:31 ']]>' is not allowed in text; write it as ]]&gt;"),
        ("", "1:1 the file holds no element: it is empty, or holds only a declaration, comments or text; write its <product> element, or remove the file"),
        ("<?xml version=\"1.0\"?>\n<!-- tulossa -->\n",
         "3:1 the file holds no element: it is empty, or holds only a declaration, comments or text; write its <product> element, or remove the file"),
        ("hello\n<product id=\"espresso\"/>",
         "1:1 there is text ('hello') before the <product> element; nothing but the XML declaration and comments may come before it: remove the text, or move it inside an element"),
        ("<?xml version=\"1.0\"?>\n<!-- x -->\n  Tuote: <product id=\"espresso\"/>",
         "3:3 there is text ('Tuote:') before the <product> element; nothing but the XML declaration and comments may come before it: remove the text, or move it inside an element"),
        ("\u{FEFF}\u{FEFF}<product id=\"espresso\"/>",
         "1:2 an invisible byte order mark (U+FEFF) comes before the <product> element, after the one a file may start with; remove it, such as by saving the file as UTF-8 again"),
        ("<product id=\"espresso\">\n  <icon src=\"images/icon.png/>\n  <summary>x</summary></product>",
         "2:9 the value of src has no closing quote, so it runs on into what follows; end it with \", as in src=\"…\""),
        ("<product id='espresso>\n<name>x</name></product>",
         "1:10 the value of id has no closing quote, so it runs on into what follows; end it with ', as in id='…'"),
        ("<product id=\"espresso\">\n  <image src=\"a.png\" alt=\"Baristan valinta/>\n  <x/></product>",
         "2:22 the value of alt has no closing quote, so it runs on into what follows; end it with \", as in alt=\"…\""),
        // A value that holds a '>' before a '<' is not an unclosed one.
        ("<product id=\"espresso\"><image src=\"a.png\" alt=\"x > 0 and y < 1\"/></product>",
         "1:60 a '<' inside an attribute value; write it as &lt;"),
        ("<product id=\"espresso\">\n  <name>Espresso</name\n  <icon src=\"a.png\"/></product>",
         "2:17 the end tag </name has no '>'; write </name>"),
        ("<product id=\"espresso\">\n  <summary Tumma paahto</summary></product>",
         "2:12 'Tumma' stands inside a tag, where it reads as an attribute with no value; if it is text, end the tag before it with >; if it is an attribute, give it a value, as in Tumma=\"…\""),
        ("<product id=\"espresso\">\n  <icon\n    src=\"a.png\"\n  <summary>x</summary></product>",
         "2:3 the tag <icon has no end: the next tag, on line 4, starts before its /> or >; end it with />, or with > if </icon> closes it later"),
        ("<product id=\"espresso\"\n<name>x</name></product>",
         "1:1 the tag <product has no end: the next tag, on line 2, starts before its /> or >; end it with />, or with > if </product> closes it later"),
        ("<product id=\"espresso\"><name>Kahvi\u{7}</name></product>",
         "1:35 the invisible control character U+0007, which XML does not allow; delete it"),
        ("<product id=\"espresso\"><name>Kahvi\u{FFFF}</name></product>",
         "1:35 the character U+FFFF, which XML does not allow; delete it"),
        ("<product id=\"espresso\"><image src=\"a.png\" alt=\"Kahvi\u{1B}\"/></product>",
         "1:53 an attribute value holds the invisible control character U+001B, which XML does not allow; delete it"),
        ("<product id=\"espresso\"><image src=a.png/></product>",
         "1:31 the attribute src has no value in quotes; write src=\"…\""),
        ("<product id=\"espresso\">\n  <image src=\n  <x/></product>",
         "2:10 the attribute src has no value in quotes; write src=\"…\""),
        ("<product id=\"espresso\">\n<name>x<!-- vanha </name></product>",
         "2:8 a comment starts here with <!-- and is never closed; end it with -->"),
        ("<product id=\"espresso\"><name><![CDATA[x</name></product>",
         "1:30 a CDATA section starts here with <![CDATA[ and is never closed; end it with ]]>"),
        ("<product id=\"espresso\"><k:name>x</k:name></product>",
         "1:24 <k:name> has a prefix, k:, and content files use no namespaces; write <name>"),
        ("<product id=\"espresso\" xsi:type=\"x\"/>",
         "1:24 the attribute xsi:type has a prefix, xsi:, that no xmlns:xsi declares; content files use no namespaces: remove the attribute"),
        ("<product id=\"espresso\"><name>x</name></product",
         "1:38 the end tag </product has no '>'; write </product>"),
        ("<product id=\"espresso\"><?php echo 1; </product>",
         "1:24 a processing instruction starts here with <? and is never closed; content files need none: remove it, or end it with ?>"),
        // libxml2 calls these unfinished too.
        ("<product id=\"espresso\"><name><![CDATA[Kahvi\u{1}]]></name></product>",
         "1:44 a CDATA section holds the invisible control character U+0001, which XML does not allow; delete it"),
        ("<product id=\"espresso\"><!-- vanha\u{1} --></product>",
         "1:34 the invisible control character U+0001, which XML does not allow; delete it"),
        ("<product id=\"espresso\"><?tyyli x\u{2}?></product>",
         "1:33 a processing instruction holds the invisible control character U+0002, which XML does not allow; delete it"),
        ("<product id=\"espresso\">\n  <name>x</name foo>\n</product>",
         "2:10 the end tag </name> holds more than its name; write it as </name>"),
        // Not one of the common mistakes: libxml2's words.
        ("<product id=\"espresso\"><name>x</name></product>\n<?xml version=\"1.0\"?>",
         "2:6 not well-formed XML: XML declaration allowed only at the start of the document; fix the markup here"),
    ])
    func aCommonMistakeIsExplainedInWords(text: String, expected: String) {
        #expect(report(text) == expected)
    }

    /// A diagnostic about an element points at its start tag, found by its place in the
    /// document: libxml2 records the line where a tag ends, so a tag over several lines was
    /// put at column 1 of its last line, and a commented-out tag earlier on the line won.
    @Test(arguments: [
        ("  <name>Espresso</name>\n  <icon\n        src=\"images/icon.png\"\n        foo=\"x\"/>", "4:3"),
        ("  <name>Espresso</name>\n  <!-- <icon src=\"old.png\"/> --> <icon src=\"images/icon.png\" foo=\"x\"/>", "4:34"),
        ("  <name>Espresso<![CDATA[ <icon/> ]]></name>\n  <icon src=\"images/icon.png\" foo=\"x\"/>", "4:3"),
        ("  <name>Espresso</name>\n  <?note <icon> ?><icon src=\"images/icon.png\" foo=\"x\"/>", "4:19"),
    ])
    func anElementIsPlacedAtItsStartTag(icon: String, position: String) {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <product id="espresso">
            \(icon)
              <summary>Tumma</summary>
              <body><p>Hyvää.</p></body>
              <images><image src="images/picture.png" alt="Paketti"/></images>
            </product>
            """
        let loaded = loader.loadWithTree(Array(text.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        #expect(loaded.diagnostics.map { "\($0.line ?? 0):\($0.column ?? 0)" } == [position], "\(loaded.diagnostics)")
    }

    /// Past line 65,535 libxml2's line numbers are approximate; the position is counted.
    @Test func anElementFarDownIsPlacedOnItsOwnLine() {
        let padding = String(repeating: "\n", count: 70_000)
        let text = "<product id=\"espresso\">\(padding)<name>Espresso</name><nimi/></product>"
        let loaded = loader.loadWithTree(Array(text.utf8), into: LoadedFile(file: ContentFile(path: "products/espresso.xml", kind: .product, id: "espresso")))
        #expect(loaded.diagnostics.first.map { "\($0.line ?? 0):\($0.column ?? 0)" } == "70001:22")
    }
}
