import CatalogContent
import CatalogModel

/// Puts the loaded files together into one `Catalog`, remembering which file each entity came
/// from and which files could not be loaded.
struct CatalogAssembly {
    private var header: CatalogHeader?
    private var home: Home?
    private var company: Company?
    private var products: [Product] = []
    private var recipes: [Recipe] = []
    private var retailers: [Retailer] = []
    private let loaded: [LoadedFile]
    private var singles: [ContentFileKind: ContentFile] = [:]
    /// Files whose entity could not be read, catalog.xml, home.xml and company.xml included
    /// when they are missing.
    private(set) var broken: Set<String> = []
    /// Products, recipes and retailers whose files exist but could not be read.
    private(set) var unloaded: Set<EntityReference> = []

    init(_ loaded: [LoadedFile]) {
        self.loaded = loaded
        for item in loaded {
            let file = item.file
            switch file.kind {
            case .catalog, .home, .company: singles[file.kind] = file
            case .product, .recipe, .retailer: break
            }
            switch item.entity {
            case .catalog(let value): header = value
            case .home(let value): home = value
            case .company(let value): company = value
            case .product(let value): products.append(value)
            case .recipe(let value): recipes.append(value)
            case .retailer(let value): retailers.append(value)
            case nil:
                broken.insert(file.path)
                if !file.id.isEmpty { unloaded.insert(file.entity) }
            }
        }
        if header == nil { broken.insert("catalog.xml") }
        if home == nil { broken.insert("home.xml") }
        if company == nil { broken.insert("company.xml") }
    }

    /// The bundle budget catalog.xml sets, if it sets one.
    var budget: BundleBudget? { header?.budget }

    /// Whether catalog.xml, home.xml and company.xml were all read.
    var singlesPresent: Bool { header != nil && home != nil && company != nil }
    /// Whether catalog.xml was read: its languages are known.
    var hasHeader: Bool { header != nil }

    /// Finds the file each entity comes from. Built when there are diagnostics to place, not for
    /// every build: indexing 100,000 files took a tenth of a second.
    /// `only`, when given, limits it to those entities' files: a check with a few diagnostics
    /// indexes a few files, not all.
    func fileIndex(only: Set<EntityReference>? = nil) -> FileIndex {
        var files: [EntityReference: ContentFile] = [:]
        for index in loaded.indices where !loaded[index].file.id.isEmpty {
            let entity = loaded[index].file.entity
            if only?.contains(entity) ?? true { files[entity] = loaded[index].file }
        }
        return FileIndex(files: files, singles: singles)
    }

    struct FileIndex {
        fileprivate let files: [EntityReference: ContentFile]
        fileprivate let singles: [ContentFileKind: ContentFile]

        /// The file an entity comes from.
        func file(of entity: EntityReference) -> ContentFile? {
            switch entity.kind {
            case .catalog, .section: singles[.catalog]
            case .home, .promotion: singles[.home]
            case .company: singles[.company]
            case .product, .recipe, .retailer: entity.id.isEmpty ? nil : files[entity]
            }
        }
    }

    /// The catalogue; parts from files that could not be read are empty stand-ins, and diagnostics
    /// about them are dropped (the files' own errors say what is wrong).
    func catalog() -> Catalog {
        let empty = ImageReference(source: "")
        var catalog = Catalog(
            brand: header?.brand ?? "", releaseVersion: header?.releaseVersion ?? "",
            releaseDate: header?.releaseDate ?? Day(year: 2000, month: 1, day: 1)!,
            sections: header?.sections ?? [],
            home: home ?? Home(logo: empty, image: empty, body: RichText(blocks: [])),
            company: company ?? Company(name: "", logo: empty, body: RichText(blocks: []), images: [], webAddress: ""),
            products: products, recipes: recipes, retailers: retailers)
        catalog.languages = header?.languages ?? .finnishOnly
        return catalog
    }
}
