import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// A field written anew is written as the shipped files write it: every shipped list, picture
/// and reference written again from what it holds gives the file back byte for byte; a field
/// changed changes only its own lines.
@Suite struct FieldElementsTests {
    static let content = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("content")
    static let languages: [LanguageCode] = ["fi", "sv", "en"]

    static func entities(_ path: String) throws -> (bytes: [UInt8], entities: [EntityReference: any ContentEntity]) {
        let bytes = try Array(Data(contentsOf: content.appendingPathComponent(path)))
        return (bytes, try EntityFileReading.entities(in: bytes, path: path))
    }

    static func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: content.appendingPathComponent(folder).path).filter { $0.hasSuffix(".xml") }.sorted()
            .map { folder + "/" + $0 }
    }

    @Test func everyShippedListAndPictureWrittenAgainIsTheFileAsItIs() throws {
        var written = 0
        for path in try Self.files("recipes") + Self.files("products") + Self.files("retailers") + ["company.xml"] {
            let (bytes, entities) = try Self.entities(path)
            for (reference, entity) in entities {
                var replacements: [EntityFileEdit.Replacement] = []
                switch entity {
                case let recipe as Recipe:
                    replacements.append(.init(entity: reference, element: "ingredients", fieldOrder: []) { indent in
                        FieldElements.ingredients(recipe.ingredients, recipe.translations, languages: Self.languages, indent: indent)
                    })
                    replacements.append(.init(entity: reference, element: "images", fieldOrder: []) { indent in
                        FieldElements.images(recipe.images, recipe.translations, languages: Self.languages, indent: indent)
                    })
                    replacements.append(.init(entity: reference, element: "icon", fieldOrder: []) { indent in
                        FieldElements.picture("icon", recipe.icon, recipe.translations, path: .icon, languages: Self.languages, indent: indent)
                    })
                case let product as Product:
                    replacements.append(.init(entity: reference, element: "images", fieldOrder: []) { indent in
                        FieldElements.images(product.images, product.translations, languages: Self.languages, indent: indent)
                    })
                case let retailer as Retailer:
                    replacements.append(.init(entity: reference, element: "sells", fieldOrder: []) { indent in FieldElements.sells(retailer.sells, indent: indent) })
                    replacements.append(.init(entity: reference, element: "logo", fieldOrder: []) { indent in
                        FieldElements.picture("logo", retailer.logo, retailer.translations, path: .logo, languages: Self.languages, indent: indent)
                    })
                case let company as Company:
                    replacements.append(.init(entity: reference, element: "images", fieldOrder: []) { indent in
                        FieldElements.images(company.images, company.translations, languages: Self.languages, indent: indent)
                    })
                default: continue
                }
                let again = try EntityFileEdit.replacing(replacements, in: bytes)
                #expect(String(decoding: again, as: UTF8.self) == String(decoding: bytes, as: UTF8.self), "\(path)")
                written += replacements.count
            }
        }
        #expect(written > 40)
    }

    static let recipe = """
        <?xml version="1.0" encoding="UTF-8"?>
        <recipe id="latte">
          <name>Latte</name>
          <icon src="images/recipes/latte-icon.png"/>
          <summary>Maitokahvi</summary>
          <ingredients>
            <!-- Kept, before the list written anew. -->
            <ingredient product="espresso">1 espresso</ingredient>
            <ingredient xml:lang="en">1 espresso</ingredient>
            <ingredient>2 dl maitoa</ingredient>
          </ingredients>
          <method>
            <p>Sekoita.</p>
          </method>
          <images>
            <image src="images/recipes/latte-1.png" alt="Latte"/>
          </images>
        </recipe>

        """
    static let latte = EntityReference(.recipe, "latte")

    @Test func aListReorderedAndALineAddedChangeOnlyTheList() throws {
        var translations = Translations()
        _ = translations.add(.text("2 dl milk"), for: .ingredient(0), in: "en")
        _ = translations.add(.text("1 espresso"), for: .ingredient(1), in: "en")
        let lines = [Ingredient(text: "2 dl maitoa", product: nil), Ingredient(text: "1 espresso", product: ProductID("espresso")),
                     Ingredient(text: "Kanelia & sokeria", product: nil)]
        let written = translations
        let edited = try EntityFileEdit.replacing([.init(entity: Self.latte, element: "ingredients", fieldOrder: []) { indent in
            FieldElements.ingredients(lines, written, languages: Self.languages, indent: indent)
        }], in: Array(Self.recipe.utf8))
        let before = ["  <ingredients>", "    <!-- Kept, before the list written anew. -->", "    <ingredient product=\"espresso\">1 espresso</ingredient>",
                      "    <ingredient xml:lang=\"en\">1 espresso</ingredient>", "    <ingredient>2 dl maitoa</ingredient>"]
        let after = ["  <!-- Kept, before the list written anew. -->", "  <ingredients>", "    <ingredient>2 dl maitoa</ingredient>", "    <ingredient xml:lang=\"en\">2 dl milk</ingredient>",
                     "    <ingredient product=\"espresso\">1 espresso</ingredient>", "    <ingredient xml:lang=\"en\">1 espresso</ingredient>",
                     "    <ingredient>Kanelia &amp; sokeria</ingredient>"]
        #expect(String(decoding: edited, as: UTF8.self)
            == Self.recipe.replacingOccurrences(of: before.joined(separator: "\n"), with: after.joined(separator: "\n")))
    }

    /// A list removed keeps the comments it held, where it was; one with CR LF line ends too.
    @Test func aListRemovedKeepsItsComments() throws {
        let order = Recipe.fields.map(\.element)
        let recipe = Self.recipe.replacingOccurrences(of: "    <image src", with: "    <!-- Kuvaaja:\n         Anna -->\n    <image src")
            .replacingOccurrences(of: "\n", with: "\r\n")
        let removed = try EntityFileEdit.replacing([.init(entity: Self.latte, element: "images", fieldOrder: order) { _ in "" }], in: Array(recipe.utf8))
        #expect(String(decoding: removed, as: UTF8.self) == recipe.replacingOccurrences(
            of: "  <images>\r\n    <!-- Kuvaaja:\r\n         Anna -->\r\n    <image src=\"images/recipes/latte-1.png\" alt=\"Latte\"/>\r\n  </images>\r\n",
            with: "  <!-- Kuvaaja:\r\n         Anna -->\r\n"))
    }

    @Test func aFieldNotThereIsPutInItsPlaceAndAnEmptyOneRemoved() throws {
        let order = Recipe.fields.map(\.element)
        // No pictures: the list goes with its lines.
        let removed = try EntityFileEdit.replacing([.init(entity: Self.latte, element: "images", fieldOrder: order) { _ in "" }], in: Array(Self.recipe.utf8))
        let without = Self.recipe.replacingOccurrences(of: "  <images>\n    <image src=\"images/recipes/latte-1.png\" alt=\"Latte\"/>\n  </images>\n", with: "")
        #expect(String(decoding: removed, as: UTF8.self) == without)
        // And back, after the method, where a recipe's pictures go.
        let picture = ImageReference(source: "images/recipes/latte-1.png", alt: "Latte")
        let back = try EntityFileEdit.replacing([.init(entity: Self.latte, element: "images", fieldOrder: order) { indent in
            FieldElements.images([picture], Translations(), languages: Self.languages, indent: indent)
        }], in: removed)
        #expect(String(decoding: back, as: UTF8.self) == Self.recipe)
    }

    @Test func anAttributeIsSetAddedAndRemoved() throws {
        let bytes = Array(Self.recipe.utf8)
        let added = try EntityFileEdit.replacing([], attributes: [.init(entity: Self.latte, name: "position", value: "3")], in: bytes)
        #expect(String(decoding: added, as: UTF8.self) == Self.recipe.replacingOccurrences(of: "<recipe id=\"latte\">", with: "<recipe id=\"latte\" position=\"3\">"))
        let changed = try EntityFileEdit.replacing([], attributes: [.init(entity: Self.latte, name: "position", value: "12")], in: added)
        #expect(String(decoding: changed, as: UTF8.self).contains("<recipe id=\"latte\" position=\"12\">"))
        let removed = try EntityFileEdit.replacing([], attributes: [.init(entity: Self.latte, name: "position", value: nil)], in: changed)
        #expect(removed == bytes)
    }
}

/// Formatted text as the studio's editor sends it: every shipped body and method written as
/// markup and read back is the same text.
@Suite struct RichTextMarkupTests {
    @Test func everyShippedTextReadBackFromItsMarkupIsTheSame() throws {
        var count = 0
        for folder in ["products", "recipes"] {
            for path in try FieldElementsTests.files(folder) + ["home.xml", "company.xml"] {
                let (_, entities) = try FieldElementsTests.entities(path)
                for entity in entities.values {
                    let texts: [RichText] = switch entity {
                    case let product as Product: [product.body]
                    case let recipe as Recipe: [recipe.method]
                    case let home as Home: [home.body]
                    case let company as Company: [company.body]
                    default: []
                    }
                    for text in texts {
                        #expect(try RichTextMarkup.read(RichTextMarkup.write(text)) == text, "\(path)")
                        count += 1
                    }
                }
            }
        }
        #expect(count > 10)
    }

    @Test func markupIsReadAsTheCompilerReadsABody() throws {
        let read = try RichTextMarkup.read("<p>Vahva  <strong>ja</strong>\n<link product=\"espresso\">pehmeä</link> &amp; hyvä</p><h2>Otsikko</h2><ul><li>Yksi</li></ul>")
        #expect(RichTextMarkup.write(read) == "<p>Vahva <strong>ja</strong> <link product=\"espresso\">pehmeä</link> &amp; hyvä</p><h2>Otsikko</h2><ul><li>Yksi</li></ul>")
        // Anything else is refused, never dropped with its words.
        for markup in ["<p>open", "<p>a <font>b</font></p>", "<li>loose</li>", "<ul><p>x</p></ul>", "<p><p>x</p></p>", "<script>x</script>"] {
            #expect(throws: RichTextMarkup.Unreadable.self, "\(markup)") { try RichTextMarkup.read(markup) }
        }
    }
}
