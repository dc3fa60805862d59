import CatalogContent
import CatalogModel

/// A minimal valid catalogue: two products, two recipes, one retailer, the home and company
/// pages and the five sections. Tests break one thing at a time and read the diagnostics.
///
/// - Products `espresso` and `ground-coffee`; `espresso`'s body links to recipe `cafe-latte`.
/// - Recipes `cafe-latte` (uses `espresso`) and `cafe-au-lait` (uses `ground-coffee`); each has
///   a product line first and a plain line second.
/// - Retailer `deling-group` sells both products.
/// - Home has one promotion, `uutuus`, shown 2026-11-01 to 2026-12-31, opening `espresso`.
enum Sample {
    static var catalog: Catalog {
        Catalog(
            brand: "Café Digno", releaseVersion: "2026.11.0", releaseDate: day("2026-11-01"),
            sections: [
                Section(id: .home, title: "Etusivu", icon: icon),
                Section(id: .products, title: "Tuotteet", icon: icon),
                Section(id: .recipes, title: "Kahvireseptit", icon: icon),
                Section(id: .retailers, title: "Jälleenmyyjät", icon: icon),
                Section(id: .company, title: "Deling Group", icon: icon),
            ],
            home: Home(
                logo: icon, image: picture("Kahvikuppi"),
                body: paragraph("Tervetuloa Café Digno -kahvien pariin."),
                promotions: [promotion]),
            company: Company(
                name: "Deling Group Oy", logo: icon, body: paragraph("Kahvin maahantuoja."),
                images: [picture("Toimisto")], webAddress: "https://www.delinggroup.com"),
            products: [
                Product(
                    id: "espresso", name: "Espresso", icon: icon, summary: "Tummapaahteinen espressojauhe",
                    body: RichText(blocks: [
                        .paragraph([.text("Sopii "), .link(.recipe("cafe-latte"), [.text("Café Latteen")]), .text(".")])
                    ]),
                    images: [picture("Espressopaketti")]),
                product("ground-coffee", name: "Suodatinkahvi", body: "Keskipaahteinen suodatinjauhe."),
            ],
            recipes: [
                Recipe(
                    id: "cafe-latte", name: "Café Latte", icon: icon, summary: "Italialainen maitokahvi",
                    ingredients: [
                        Ingredient(text: "1–2 annosta Café Digno Espressoa", product: "espresso"),
                        Ingredient(text: "2–3 dl täysmaitoa"),
                    ],
                    method: paragraph("Valmista espresso ja vaahdota maito."), images: [picture("Café Latte")]),
                Recipe(
                    id: "cafe-au-lait", name: "Café au lait", icon: icon, summary: "Ranskalainen maitokahvi",
                    ingredients: [
                        Ingredient(text: "2 dl suodatinkahvia", product: "ground-coffee"),
                        Ingredient(text: "2 dl kuumaa maitoa"),
                    ],
                    method: paragraph("Kaada kahvi ja maito yhtä aikaa kuppiin."), images: [picture("Café au lait")]),
            ],
            retailers: [
                Retailer(
                    id: "deling-group", name: "Deling Group", logo: icon, address: "Sannankatu 12, 00100 Helsinki",
                    phone: "040 123 4567", openingHours: "ma–pe 9–17", sells: ["espresso", "ground-coffee"])
            ])
    }

    static let promotion = Promotion(
        id: "uutuus", title: "Uutuus", text: "Espresso on täällä.", image: picture("Espressopaketti"),
        firstDay: day("2026-11-01"), lastDay: day("2026-12-31"), link: .product("espresso"))

    static let icon = ImageReference(source: "images/icon.png")

    /// A product with its own one-paragraph body and one picture, used by no recipe.
    static func product(_ id: ProductID, name: String, body: String) -> Product {
        Product(
            id: id, name: name, icon: icon, summary: "\(name) 500 g", body: paragraph(body),
            images: [picture(name)])
    }
}

/// The diagnostics of the sample catalogue after one change.
func diagnostics(
    after change: (inout Catalog) -> Void, today: Day? = nil, unloaded: Set<EntityReference> = []
) -> [EntityDiagnostic] {
    var catalog = Sample.catalog
    change(&catalog)
    return catalog.validate(today: today, unloaded: unloaded)
}

func day(_ text: String) -> Day {
    guard let day = Day(text) else { preconditionFailure("'\(text)' is not a day") }
    return day
}

func picture(_ alt: String, source: String = "images/picture.png") -> ImageReference {
    ImageReference(source: source, alt: alt)
}

func paragraph(_ text: String) -> RichText {
    RichText(blocks: [.paragraph([.text(text)])])
}

/// `count` characters of text.
func text(_ count: Int) -> String {
    String(repeating: "a", count: count)
}

extension EntityDiagnostic {
    static func error(_ code: DiagnosticCode, _ entity: EntityReference, _ field: FieldPath?, _ message: String) -> EntityDiagnostic {
        EntityDiagnostic(severity: .error, code: code, entity: entity, field: field, message: message)
    }

    static func warning(_ code: DiagnosticCode, _ entity: EntityReference, _ field: FieldPath?, _ message: String) -> EntityDiagnostic {
        EntityDiagnostic(severity: .warning, code: code, entity: entity, field: field, message: message)
    }
}

extension EntityReference {
    static let espresso = EntityReference(.product, "espresso")
    static let groundCoffee = EntityReference(.product, "ground-coffee")
    static let cafeLatte = EntityReference(.recipe, "cafe-latte")
    static let cafeAuLait = EntityReference(.recipe, "cafe-au-lait")
    static let delingGroup = EntityReference(.retailer, "deling-group")
    static let uutuus = EntityReference(.promotion, "uutuus")
}

extension Catalog {
    /// The product with this id; it must exist.
    subscript(product id: ProductID) -> Product {
        get { products[index(of: id, in: products)] }
        set { products[index(of: id, in: products)] = newValue }
    }

    /// The recipe with this id; it must exist.
    subscript(recipe id: RecipeID) -> Recipe {
        get { recipes[index(of: id, in: recipes)] }
        set { recipes[index(of: id, in: recipes)] = newValue }
    }

    private func index<Entity: Identifiable>(of id: Entity.ID, in entities: [Entity]) -> Int {
        guard let index = entities.firstIndex(where: { $0.id == id }) else { preconditionFailure("no \(id)") }
        return index
    }
}

extension FieldPath {
    /// The `index`th paragraph of a body or method: `body.p[0]`.
    static func paragraph(_ field: RichTextField, _ index: Int) -> FieldPath {
        .part(field, RichText.Part(kind: .paragraph, index: index))
    }

    /// The `index`th heading of `level`: `method.h2[0]`.
    static func heading(_ field: RichTextField, level: Int, _ index: Int) -> FieldPath {
        .part(field, RichText.Part(kind: .heading(level: level), index: index))
    }

    /// The `index`th list item, whichever list it is in: `method.li[1]`.
    static func listItem(_ field: RichTextField, _ index: Int) -> FieldPath {
        .part(field, RichText.Part(kind: .listItem, index: index))
    }
}
