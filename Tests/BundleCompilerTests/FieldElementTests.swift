@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// Every field a rule or a compiler check can report a problem at has its element recorded by
/// the parser (`EntityBuilder`'s fieldElements), on real content: otherwise the problem would be
/// shown at its entity's root element instead of the field's line.
///
/// Each content folder is read as the compiler reads it, and its catalogue is then broken in
/// memory, its structure kept, so that every rule fires at every field it can: a control
/// character in every text and every block, every reference unknown and every link empty, no
/// pictures, one position for all, one name and one text for all, one id for all tabs and all
/// promotions. Each field reported must have its element recorded.
@Suite struct FieldElementTests {
    /// The real catalogue, the valid fixture, and each invalid fixture: together they hold
    /// every kind of field (a heading of level 3, positions, two promotions…) but a retailer's
    /// `<info>`, which the valid fixture is given here.
    static var folders: [(name: String, make: () throws -> URL, remove: Bool)] {
        let content = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("content")
        let withInfo = {
            try Fixtures.makeContent { content in
                let url = content.appendingPathComponent("retailers/deling-group.xml")
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains("</hours>\n"))
                try text.replacingOccurrences(of: "</hours>\n", with: "</hours>\n  <info>Parkki pihalla</info>\n")
                    .write(to: url, atomically: true, encoding: .utf8)
            }
        }
        return [("content", { content }, false), ("valid", { Fixtures.valid }, false), ("valid with info", withInfo, true)]
            + Fixtures.invalidCases.map { name in (name, { try Fixtures.makeContent(case: name) }, true) }
    }

    /// A content folder read: its catalogue, what could not be read, and the fieldElements of the
    /// files that could.
    struct Reading {
        var catalog: Catalog
        var unloaded: Set<EntityReference>
        var fieldElements: Set<FieldElementKey>
        var isLocated: (EntityReference) -> Bool
    }

    static func read(_ folder: URL) throws -> Reading {
        let libxml = try LibXML.shared.get()
        let tree = try ContentTree.scan(folder.path)
        let loaded = try ContentValidator.loadAll(tree.files, root: tree.root, libxml: libxml)
        let assembly = CatalogAssembly(loaded)
        let loader = try FileLoader(root: tree.root, libxml: libxml)
        var fieldElements = Set<FieldElementKey>()
        for item in loaded where item.entity != nil {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(item.file.path)))
            let parsed = loader.parser.parse(bytes)
            guard let root = parsed.root else { continue }
            var builder = EntityBuilder(file: item.file, root: root, recordFieldElements: true)
            _ = builder.build()
            if let recorded = builder.fieldElements { fieldElements.formUnion(recorded.keys) }
            withExtendedLifetime(parsed.document) {}
        }
        let files = assembly.fileIndex()
        let broken = assembly.broken
        // As `ContentValidator.locate` places diagnostics: those in files with errors of their own
        // are left out.
        let isLocated = { (entity: EntityReference) in files.file(of: entity).map { !broken.contains($0.path) } ?? false }
        return Reading(catalog: assembly.catalog, unloaded: assembly.unloaded.union(tree.unread), fieldElements: fieldElements, isLocated: isLocated)
    }

    @Test func everyReportedFieldHasItsElement() throws {
        var kinds = Set<String>()
        for folder in Self.folders {
            let url = try folder.make()
            defer { if folder.remove { Fixtures.remove(url) } }
            let reading = try Self.read(url)
            for key in Self.reportedFields(reading) where reading.isLocated(key.entity) {
                kinds.insert(Self.kind(try #require(key.field)))
                let placed = reading.fieldElements.contains(key)
                #expect(placed, "\(folder.name): \(key.entity) \(key.field.map(String.init(describing:)) ?? "") has no element recorded")
            }
        }
        #expect(kinds == Self.allKinds, "kinds of field no content here has: \(Self.allKinds.subtracting(kinds).sorted())")
    }

    // MARK: What is reported

    /// Every entity and field reported on the catalogue broken each way, with the other
    /// entity of a clash, and every image use and web address the compiler checks.
    static func reportedFields(_ reading: Reading) -> [FieldElementKey] {
        let original = reading.catalog
        var keys: [FieldElementKey] = []
        for breakage in breakages {
            var catalog = original
            breakage(&catalog)
            for diagnostic in catalog.validate(today: Fixtures.today, unloaded: reading.unloaded) where diagnostic.field != nil {
                // A missing translation is placed at the text it translates, which is there.
                let language = diagnostic.code == .translationMissing ? nil : diagnostic.language
                keys.append(placed(FieldElementKey(entity: diagnostic.entity, field: diagnostic.field, language: language), in: original))
                if let clash = diagnostic.clash {
                    keys.append(placed(FieldElementKey(entity: clash.other, field: clash.field, language: diagnostic.language), in: original))
                }
            }
        }
        original.forEachImageUse { _, _, place in
            let place = place()
            keys.append(FieldElementKey(entity: place.entity, field: place.field))
        }
        var mixed = original
        mixed.company.webAddress = "https://www.cаfedigno.fi"
        for index in mixed.retailers.indices where mixed.retailers[index].webAddress != nil {
            mixed.retailers[index].webAddress = "https://www.cаfedigno.fi"
        }
        keys += HostScripts.diagnostics(mixed).map { FieldElementKey(entity: $0.entity, field: $0.field) }
        return keys
    }

    /// A tab or promotion given another's id is still the element at its place in the list:
    /// its key names the entity that element was read as.
    static func placed(_ key: FieldElementKey, in original: Catalog) -> FieldElementKey {
        switch key.field {
        case .section(let index)? where original.sections.indices.contains(index):
            FieldElementKey(entity: EntityReference(.section, original.sections[index].id.rawValue), field: key.field, language: key.language)
        case .promotion(let index)? where original.home.promotions.indices.contains(index):
            FieldElementKey(entity: EntityReference(.promotion, original.home.promotions[index].id.rawValue), field: key.field, language: key.language)
        default:
            key
        }
    }

    /// Ways to break a catalogue that keep its structure: the same elements, so the same fieldElements.
    static var breakages: [(inout Catalog) -> Void] {
        [
            // A control character in every text, every picture's text alternative and every block.
            { catalog in
                let control = "x\u{80}"
                catalog.brand += control
                catalog.releaseVersion += control
                for index in catalog.sections.indices { catalog.sections[index].title += control }
                catalog.home.image.alt = catalog.home.image.alt.map { $0 + control }
                catalog.home.body = appending(.text(control), to: catalog.home.body)
                for index in catalog.home.promotions.indices {
                    catalog.home.promotions[index].title += control
                    catalog.home.promotions[index].text += control
                    catalog.home.promotions[index].image.alt = catalog.home.promotions[index].image.alt.map { $0 + control }
                }
                catalog.company.name += control
                catalog.company.webAddress += control
                catalog.company.body = appending(.text(control), to: catalog.company.body)
                catalog.company.images = catalog.company.images.map { ImageReference(source: $0.source, alt: $0.alt.map { $0 + control }) }
                for index in catalog.products.indices {
                    catalog.products[index].name += control
                    catalog.products[index].summary += control
                    catalog.products[index].body = appending(.text(control), to: catalog.products[index].body)
                    catalog.products[index].images = catalog.products[index].images.map { ImageReference(source: $0.source, alt: $0.alt.map { $0 + control }) }
                }
                for index in catalog.recipes.indices {
                    catalog.recipes[index].name += control
                    catalog.recipes[index].summary += control
                    catalog.recipes[index].method = appending(.text(control), to: catalog.recipes[index].method)
                    catalog.recipes[index].images = catalog.recipes[index].images.map { ImageReference(source: $0.source, alt: $0.alt.map { $0 + control }) }
                    for line in catalog.recipes[index].ingredients.indices { catalog.recipes[index].ingredients[line].text += control }
                }
                for index in catalog.retailers.indices {
                    catalog.retailers[index].name += control
                    catalog.retailers[index].address += control
                    catalog.retailers[index].phone += control
                    catalog.retailers[index].openingHours += control
                    catalog.retailers[index].otherInfo = catalog.retailers[index].otherInfo.map { $0 + control }
                }
            },
            // Every reference unknown, and every link with no text.
            { catalog in
                let unknown = ProductID("zz-unknown")
                catalog.home.body = breakingLinks(catalog.home.body)
                catalog.company.body = breakingLinks(catalog.company.body)
                for index in catalog.home.promotions.indices where catalog.home.promotions[index].link != nil {
                    catalog.home.promotions[index].link = .product(unknown)
                }
                for index in catalog.products.indices { catalog.products[index].body = breakingLinks(catalog.products[index].body) }
                for index in catalog.recipes.indices {
                    catalog.recipes[index].method = breakingLinks(catalog.recipes[index].method)
                    for line in catalog.recipes[index].ingredients.indices where catalog.recipes[index].ingredients[line].product != nil {
                        catalog.recipes[index].ingredients[line].product = unknown
                    }
                }
                for index in catalog.retailers.indices { catalog.retailers[index].sells = catalog.retailers[index].sells.map { _ in unknown } }
            },
            // No pictures, no tabs, and one position for every product, recipe and retailer.
            { catalog in
                catalog.sections = []
                catalog.company.images = []
                for index in catalog.products.indices {
                    catalog.products[index].images = []
                    catalog.products[index].position = 1
                }
                for index in catalog.recipes.indices {
                    catalog.recipes[index].images = []
                    catalog.recipes[index].position = 1
                }
                for index in catalog.retailers.indices { catalog.retailers[index].position = 1 }
            },
            // One name, one text and one title for all.
            { catalog in
                let text = RichText(blocks: [.paragraph([.text("Sama teksti.")])])
                for index in catalog.products.indices {
                    catalog.products[index].name = "Sama nimi"
                    catalog.products[index].body = text
                }
                for index in catalog.recipes.indices {
                    catalog.recipes[index].name = "Sama nimi"
                    catalog.recipes[index].method = text
                }
                for index in catalog.retailers.indices { catalog.retailers[index].name = "Sama nimi" }
                for index in catalog.home.promotions.indices { catalog.home.promotions[index].title = "Sama otsikko" }
            },
            // One id for every tab and every promotion.
            { catalog in
                if let first = catalog.sections.first?.id {
                    for index in catalog.sections.indices { catalog.sections[index].id = first }
                }
                if let first = catalog.home.promotions.first?.id {
                    for index in catalog.home.promotions.indices { catalog.home.promotions[index].id = first }
                }
            },
        ]
    }

    /// `text` with `inline` added at the end of every paragraph, heading and list item.
    static func appending(_ inline: RichText.Inline, to text: RichText) -> RichText {
        RichText(blocks: text.blocks.map { block in
            switch block {
            case .paragraph(let inlines): .paragraph(inlines + [inline])
            case .heading(let level, let inlines): .heading(level: level, inlines + [inline])
            case .list(let ordered, let items): .list(ordered: ordered, items: items.map { $0 + [inline] })
            }
        })
    }

    /// `text` with every link naming a product that does not exist, and holding no text.
    static func breakingLinks(_ text: RichText) -> RichText {
        func inlines(_ list: [RichText.Inline]) -> [RichText.Inline] {
            list.map { inline in
                switch inline {
                case .text: inline
                case .emphasis(let children): .emphasis(inlines(children))
                case .strong(let children): .strong(inlines(children))
                case .link: .link(.product("zz-unknown"), [])
                }
            }
        }
        return RichText(blocks: text.blocks.map { block in
            switch block {
            case .paragraph(let list): .paragraph(inlines(list))
            case .heading(let level, let list): .heading(level: level, inlines(list))
            case .list(let ordered, let items): .list(ordered: ordered, items: items.map(inlines))
            }
        })
    }

    // MARK: Kinds of field

    /// Every kind of field there is. A new case of `FieldPath` stops `kind(_:)` compiling
    /// until it is named here, and then this test fails until some content has one reported.
    /// `languages` is only where the compiler finds `<languages>`: no problem is reported there.
    static let allKinds: Set<String> = [
        "brand", "release", "sections", "title", "name", "summary", "text", "address", "phone", "hours", "info", "web",
        "icon", "logo", "image", "images", "link", "body", "method", "position",
        "section[]", "promotion[]", "ingredient[]", "sells[]", "image[]", "language[]",
        "part.p", "part.h2", "part.h3", "part.li", "part.link",
    ]

    static func kind(_ field: FieldPath) -> String {
        switch field {
        case .brand, .release, .sections, .languages, .title, .name, .summary, .text, .address, .phone, .hours, .info, .web,
             .icon, .logo, .image, .images, .link, .body, .method, .position:
            field.description
        case .section, .promotion, .ingredient, .sells, .picture, .language:
            field.name + "[]"
        case .part(_, let part):
            "part." + part.element
        }
    }
}
