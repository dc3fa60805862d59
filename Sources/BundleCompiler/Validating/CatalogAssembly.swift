import CatalogContent
import CatalogModel

/// Puts the loaded files together into one `Catalog`, remembering which file each entity came
/// from and which files could not be loaded. Kept between checks (`LoadCache.assembly`), it
/// takes a few changed files in place (`replace`), not every entity copied again.
struct CatalogAssembly {
    /// Every file as it was loaded, in the listing's order.
    private(set) var loaded: [LoadedFile]
    /// The catalogue; parts from files that could not be read are empty stand-ins, and
    /// diagnostics about them are dropped (the files' own errors say what is wrong).
    private(set) var catalog: Catalog
    private var singles: [ContentFileKind: ContentFile] = [:]
    private var hasHome = false, hasCompany = false
    /// Whether catalog.xml was read: its languages are known.
    private(set) var hasHeader = false
    /// The bundle budget catalog.xml sets, if it sets one.
    private(set) var budget: BundleBudget?
    /// Each loaded file's entity's place in its kind's list of the catalogue, by the file's
    /// index in `loaded`; nil for catalog.xml, home.xml, company.xml and a file not read.
    private var places: [Int?] = []
    /// Files whose entity could not be read, catalog.xml, home.xml and company.xml included
    /// when they are missing.
    private(set) var broken: Set<String> = []
    /// Products, recipes and retailers whose files exist but could not be read.
    private(set) var unloaded: Set<EntityReference> = []
    /// Each file's index in `loaded` by its path, made at the first `replace`.
    private var indexByPath: [String: Int]?
    /// The files whose text was an editor's (`ContentValidator.overlays`) when they were
    /// loaded: the next check loads them again, whether or not they are still overlaid.
    var overlaid: Set<String> = []

    init(_ loaded: [LoadedFile]) {
        self.loaded = loaded
        catalog = Self.standIn
        assemble()
    }

    /// A catalogue of empty stand-ins, which the files' parts replace.
    private static var standIn: Catalog {
        let empty = ImageReference(source: "")
        return Catalog(brand: "", releaseVersion: "", releaseDate: Day(year: 2000, month: 1, day: 1)!, sections: [],
                       home: Home(logo: empty, image: empty, body: RichText(blocks: [])),
                       company: Company(name: "", logo: empty, body: RichText(blocks: []), images: [], webAddress: ""),
                       products: [], recipes: [], retailers: [])
    }

    /// Makes `catalog` and the rest from `loaded`.
    private mutating func assemble() {
        singles = [:]
        broken = []
        unloaded = []
        hasHeader = false
        hasHome = false
        hasCompany = false
        budget = nil
        catalog = Self.standIn
        places = []
        places.reserveCapacity(loaded.count)
        for index in loaded.indices {
            let file = loaded[index].file
            var place: Int?
            switch file.kind {
            case .catalog, .home, .company: singles[file.kind] = file
            case .product, .recipe, .retailer: break
            }
            switch loaded[index].entity {
            case .catalog(let header):
                hasHeader = true
                budget = header.budget
                catalog.brand = header.brand
                catalog.releaseVersion = header.releaseVersion
                catalog.releaseDate = header.releaseDate
                catalog.sections = header.sections
                catalog.languages = header.languages
            case .home(let value):
                hasHome = true
                catalog.home = value
            case .company(let value):
                hasCompany = true
                catalog.company = value
            case .product(let value):
                place = catalog.products.count
                catalog.products.append(value)
            case .recipe(let value):
                place = catalog.recipes.count
                catalog.recipes.append(value)
            case .retailer(let value):
                place = catalog.retailers.count
                catalog.retailers.append(value)
            case nil:
                broken.insert(file.path)
                if !file.id.isEmpty { unloaded.insert(file.entity) }
            }
            places.append(place)
        }
        if !hasHeader { broken.insert("catalog.xml") }
        if !hasHome { broken.insert("home.xml") }
        if !hasCompany { broken.insert("company.xml") }
    }

    /// Whether these are the files of `loaded`, in its order: what `replace` needs.
    func holds(_ files: [ContentFile]) -> Bool {
        guard files.count == loaded.count else { return false }
        for index in files.indices where files[index] != loaded[index].file { return false }
        return true
    }

    /// The index in `loaded` of the file at `path`, if any.
    mutating func index(of path: String) -> Int? {
        if indexByPath == nil {
            var made: [String: Int] = [:]
            made.reserveCapacity(loaded.count)
            for index in loaded.indices { made[loaded[index].file.path] = index }
            indexByPath = made
        }
        return indexByPath?[path]
    }

    /// Puts `item` in place of the file at `index` of `loaded` (the same file, loaded again).
    /// A product, recipe or retailer that stays one is replaced where it is; anything else (a
    /// file that could be read and now cannot, or the other way, or catalog.xml, home.xml or
    /// company.xml) assembles the catalogue again from every file. The same assembly either
    /// way as one made from the new files.
    mutating func replace(at index: Int, with item: LoadedFile) {
        let place = places[index]
        switch (loaded[index].entity, item.entity) {
        case (.product, .product(let value)?): catalog.products[place!] = value
        case (.recipe, .recipe(let value)?): catalog.recipes[place!] = value
        case (.retailer, .retailer(let value)?): catalog.retailers[place!] = value
        case (nil, nil): break
        default:
            loaded[index] = item
            assemble()
            return
        }
        loaded[index] = item
    }

    /// Whether catalog.xml, home.xml and company.xml were all read.
    var singlesPresent: Bool { hasHeader && hasHome && hasCompany }

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
            let kind = ContentFileKind(holding: entity.kind)
            return kind.folder == nil ? singles[kind] : entity.id.isEmpty ? nil : files[entity]
        }
    }
}
