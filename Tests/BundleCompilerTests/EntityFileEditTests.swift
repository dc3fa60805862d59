import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// A form's texts written into a content file change only their own elements: a text in place,
/// a new translation on a line of its own after the languages before it, a removed one with its
/// line, a picture's default words in its `alt` attribute; comments, order, indentation and line
/// ends stay as written.
@Suite struct EntityFileEditTests {
    static let languages: [LanguageCode] = ["fi", "sv", "en"]
    static let espresso = EntityReference(.product, "espresso")

    static let product = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Kept as written. -->
        <product id="espresso" position="2">
          <name>Espresso</name>
          <icon src="images/products/espresso-icon.png"/>
          <summary><!-- short -->Tumma paahto</summary>
          <summary xml:lang="en">Dark roast</summary>
          <body>
            <p>Vahva.</p>
          </body>
          <images>
            <image src="images/products/espresso-1.png" alt="Pakkaus">
              <alt xml:lang="sv">Förpackning</alt>
            </image>
          </images>
        </product>

        """

    static func edit(_ text: String, _ changes: [EntityFileEdit.Change]) throws -> String {
        String(decoding: try EntityFileEdit.applying(changes, to: Array(text.utf8), languages: languages), as: UTF8.self)
    }

    static func change(_ field: FieldPath, _ language: LanguageCode?, _ value: String?) -> EntityFileEdit.Change {
        EntityFileEdit.Change(entity: espresso, field: field, language: language, value: value)
    }

    @Test func aDefaultTextChangesInPlaceItsCommentKept() throws {
        let edited = try Self.edit(Self.product, [Self.change(.summary, nil, "Tumma & täyteläinen")])
        #expect(edited == Self.product.replacingOccurrences(of: "<!-- short -->Tumma paahto", with: "<!-- short -->Tumma &amp; täyteläinen"))
    }

    @Test func aNewTranslationFollowsTheLanguagesBeforeIt() throws {
        let edited = try Self.edit(Self.product, [Self.change(.summary, "sv", "Mörkrost")])
        #expect(edited == Self.product.replacingOccurrences(
            of: "Tumma paahto</summary>\n", with: "Tumma paahto</summary>\n  <summary xml:lang=\"sv\">Mörkrost</summary>\n"))
    }

    @Test func aRemovedTranslationTakesItsLine() throws {
        let edited = try Self.edit(Self.product, [Self.change(.summary, "en", nil), Self.change(.picture(0), "sv", nil)])
        #expect(edited == Self.product.replacingOccurrences(of: "  <summary xml:lang=\"en\">Dark roast</summary>\n", with: "")
            .replacingOccurrences(of: "      <alt xml:lang=\"sv\">Förpackning</alt>\n", with: ""))
        // Removing what is not there changes nothing.
        #expect(try Self.edit(Self.product, [Self.change(.name, "sv", nil)]) == Self.product)
    }

    @Test func aPicturesDefaultWordsAreItsAltAttribute() throws {
        let edited = try Self.edit(Self.product, [Self.change(.picture(0), nil, "Pakkaus \"uusi\""), Self.change(.picture(0), "en", "Pack")])
        #expect(edited == Self.product
            .replacingOccurrences(of: "alt=\"Pakkaus\"", with: "alt=\"Pakkaus &quot;uusi&quot;\"")
            .replacingOccurrences(of: "<alt xml:lang=\"sv\">Förpackning</alt>\n", with: "<alt xml:lang=\"sv\">Förpackning</alt>\n      <alt xml:lang=\"en\">Pack</alt>\n"))
    }

    @Test func changesInSeveralLanguagesAtOnceAndLineEndsKept() throws {
        let crlf = Self.product.replacingOccurrences(of: "\n", with: "\r\n")
        let edited = try Self.edit(crlf, [Self.change(.name, nil, "Espresso Forte"), Self.change(.name, "sv", "Espresso Forte"),
                                          Self.change(.summary, "en", "Darker roast")])
        #expect(edited == crlf.replacingOccurrences(of: "<name>Espresso</name>\r\n", with: "<name>Espresso Forte</name>\r\n  <name xml:lang=\"sv\">Espresso Forte</name>\r\n")
            .replacingOccurrences(of: "Dark roast", with: "Darker roast"))
    }

    @Test func aFileThatIsNotTheFormsIsRefused() {
        #expect(throws: EntityFileEdit.Unplaceable.self) {
            try Self.edit(Self.product, [EntityFileEdit.Change(entity: EntityReference(.product, "latte"), field: .summary, language: nil, value: "x")])
        }
        #expect(throws: EntityFileEdit.Unplaceable.self) {
            try Self.edit("<product id=\"espresso\"><name>", [Self.change(.name, nil, "x")])
        }
    }

    /// Every shipped content file, each default-language plain text given a new value and back:
    /// the file is as it was, byte for byte, and in between only that element's line changed.
    @Test func everyShippedTextEditedAndBackGivesTheFileAsItWas() throws {
        let content = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("content")
        let report = try {
            var validator = ContentValidator(contentFolder: content.path)
            validator.makesRenditions = false
            return try validator.validate()
        }()
        let catalog = try #require(report.catalog)
        var edited = 0
        for product in catalog.products {
            let path = try #require(EntityFileEdit.path(of: EntityReference(.product, product.id.rawValue)))
            let bytes = try Array(Data(contentsOf: content.appendingPathComponent(path)))
            let entity = EntityReference(.product, product.id.rawValue)
            let changed = try EntityFileEdit.applying([EntityFileEdit.Change(entity: entity, field: .summary, language: nil, value: "Uusi")],
                                                      to: bytes, languages: [catalog.languages.defaultLanguage] + catalog.languages.translated)
            let before = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let after = String(decoding: changed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(before.count == after.count)
            #expect(zip(before, after).filter { $0 != $1 }.count == 1)
            let back = try EntityFileEdit.applying([EntityFileEdit.Change(entity: entity, field: .summary, language: nil, value: product.summary)],
                                                   to: changed, languages: [catalog.languages.defaultLanguage] + catalog.languages.translated)
            #expect(back == bytes, "\(path)")
            edited += 1
        }
        #expect(edited == catalog.products.count && edited > 0)
    }
}
