import BundleCompiler
import CatalogContent
import CatalogModel
import Testing

/// The one description of each kind's fields (`ContentFields.swift`) and the schema agree: each
/// element and attribute of a kind's element in content.xsd is a field of the description, and
/// each field of the description is in the schema; a bundle has a column for each translated one.
@Suite struct ContentFieldsTests {
    /// Each kind but the catalogue file, by its element in content.xsd.
    static let kinds = EntityReference.Kind.allCases.filter { $0 != .catalog }.map(\.rawValue)

    @Test(arguments: kinds)
    func theSchemasFieldsAreTheDescriptions(kind: String) throws {
        let described = try #require(EntityReference.Kind(rawValue: kind)).fields
        let elements = ContentSchema.children(of: kind).map(\.name)
        let attributes = ContentSchema.attributes(of: kind).map { "@" + $0.name }.filter { $0 != "@xml:lang" }
        #expect(!elements.isEmpty, "content.xsd names the elements of <\(kind)>")
        #expect(Set(described.map(\.element).filter { !$0.hasPrefix("@") }) == Set(elements), "<\(kind)>'s elements")
        #expect(Set(described.map(\.element).filter { $0.hasPrefix("@") }) == Set(attributes), "<\(kind)>'s attributes")
        for field in described where field.isTranslatable {
            #expect(field.path?.translatedColumn != nil, "<\(kind)><\(field.element)> has a column in a bundle's translations")
        }
        // A text the rules require and limit has a code for being too long.
        for field in described where field.required != nil && field.limit != nil {
            #expect(field.path.flatMap(DiagnosticCode.tooLong) != nil, "<\(kind)><\(field.element)> has a too-long code")
        }
    }

    /// What the language server adds to the schema's words for a field (`FieldDescription`).
    @Test func aFieldsFactsAreTheDescriptions() throws {
        let summary = try #require(EntityReference.Kind.field("summary", in: "product"))
        #expect(summary.facts == ["Required.", "At most \(FieldLimits.summary) characters.", "Written in each declared language (`xml:lang`)."])
        #expect(EntityReference.Kind.field("phone", in: "retailer")?.facts == ["Required.", "At most \(FieldLimits.phone) characters."])
        #expect(EntityReference.Kind.field("@position", in: "product")?.facts == [])
        #expect(EntityReference.Kind.field("info", in: "retailer")?.facts.first == "May be left out, but not written empty.")
        #expect(EntityReference.Kind.field("summary", in: "retailer") == nil)
        #expect(EntityReference.Kind.field("name", in: "catalog") == nil)
    }

    /// The walks over every text read the description: a product's texts to translate, in
    /// its file's order.
    @Test func aProductsTextsAreTheDescribedOnesInOrder() {
        let product = Product(id: ProductID(rawValue: "espresso"), name: "Espresso", icon: ImageReference(source: "i.png", alt: nil), summary: "Tumma",
                              body: RichText(blocks: []), images: [ImageReference(source: "a.png", alt: "A"), ImageReference(source: "b.png", alt: "B")])
        #expect(product.translatableFields == [.name, .summary, .body, .picture(0), .picture(1)])
        #expect(product.translatableTexts.map(\.plainText) == ["Espresso", "Tumma", "", "A", "B"])
        #expect(product.translatableTexts.map(\.limit) == [FieldLimits.name, FieldLimits.summary, nil, FieldLimits.alt, FieldLimits.alt])
    }
}
