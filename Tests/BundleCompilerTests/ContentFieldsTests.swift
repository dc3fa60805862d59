import BundleCompiler
import CatalogContent
import CatalogModel
import Testing

/// The one description of each kind's fields (`ContentFields.swift`) and the schema agree: each
/// element and attribute of a kind's element in content.xsd is a field of the description, and
/// each field of the description is in the schema; a bundle has a column for each translated one.
@Suite struct ContentFieldsTests {
    /// A kind's element in content.xsd, and its fields as the description gives them.
    typealias Described = (element: String, isTranslatable: Bool, path: FieldPath?, limit: Int?, required: String?)

    static func described<Entity>(_ fields: [ContentField<Entity>]) -> [Described] {
        fields.map { ($0.element, $0.isTranslatable, $0.path, $0.limit, $0.required) }
    }

    static let kinds: [(element: String, fields: [Described])] = [
        ("section", described(Section.fields)), ("home", described(Home.fields)), ("promotion", described(Promotion.fields)),
        ("company", described(Company.fields)), ("product", described(Product.fields)), ("recipe", described(Recipe.fields)),
        ("retailer", described(Retailer.fields)),
    ]

    @Test(arguments: kinds.map(\.element))
    func theSchemasFieldsAreTheDescriptions(kind: String) throws {
        let described = try #require(Self.kinds.first { $0.element == kind }).fields
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
