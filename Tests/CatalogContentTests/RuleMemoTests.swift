import CatalogContent
import CatalogModel
import Testing

/// Checking with the memo of an earlier check (`RuleMemo`, as `digno lsp` and `digno preview`
/// keep it) finds exactly what checking afresh finds, in the same order, over random
/// sequences of edits in three languages, and runs each entity's own rules again only for
/// the entities an edit changed.
struct RuleMemoTests {
    /// A fixed-seed generator, so that a failure is the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The sample catalogue in Finnish, Swedish and English, a product's name in Swedish.
    static var inThreeLanguages: Catalog {
        var catalog = Sample.catalog
        catalog.languages = Languages([.init(code: "fi"), .init(code: "sv", fallback: "fi"), .init(code: "en", fallback: "fi")])
        catalog.products[0].translations.add(.text("Espresso på svenska"), for: .name, in: "sv")
        return catalog
    }

    enum Edit: CaseIterable {
        case duplicateName, emptySummary, unknownLink, removeProduct, addProduct, translateName, breakTranslation,
             unknownIngredient, duplicateIngredient, duplicateSells, copyBody, controlCharacter, undo
    }

    @Test func aCheckWithTheMemoEqualsOneWithout() {
        var catalog = Self.inThreeLanguages
        catalog.recipes[0].translations.add(.text("Latte"), for: .summary, in: "en")
        let original = catalog
        let memo = RuleMemo()
        var random = Seeded(state: 45)
        var problems = Set<DiagnosticCode>()
        for step in 0..<80 {
            let edit = Edit.allCases.randomElement(using: &random)!
            switch edit {
            case .duplicateName where catalog.products.count > 1: catalog.products[1].name = catalog.products[0].name
            case .emptySummary where !catalog.recipes.isEmpty: catalog.recipes[0].summary = " "
            case .unknownLink where !catalog.products.isEmpty:
                catalog.products[0].body = RichText(blocks: [.paragraph([.text("Katso "), .link(.recipe("cafe-lattee"), [.text("latte")])])])
            case .removeProduct where catalog.products.count > 1: catalog.products.removeLast()
            case .addProduct:
                var copy = original.products[0]
                copy.id = ProductID("uusi-\(step)")
                copy.name = "Uusi \(step)"
                catalog.products.append(copy)
            case .translateName where !catalog.retailers.isEmpty: catalog.retailers[0].translations.add(.text("Deling \(step)"), for: .name, in: "en")
            case .breakTranslation where !catalog.products.isEmpty: catalog.products[0].translations.add(.text(""), for: .summary, in: "sv")
            case .unknownIngredient where !catalog.recipes.isEmpty: catalog.recipes[0].ingredients[0].product = ProductID("espreso")
            case .duplicateIngredient where catalog.recipes.count > 1:
                catalog.recipes[1].ingredients.append(catalog.recipes[1].ingredients[1])
            case .duplicateSells where !catalog.retailers.isEmpty: catalog.retailers[0].sells.append(catalog.retailers[0].sells[0])
            case .copyBody where catalog.products.count > 1: catalog.products[1].body = catalog.products[0].body
            case .controlCharacter where !catalog.recipes.isEmpty: catalog.recipes[0].name += "\u{0096}"
            case .undo: catalog = original
            default: continue
            }
            let remembered = catalog.validate(today: day("2026-11-15"), memo: memo)
            let fresh = catalog.validate(today: day("2026-11-15"))
            #expect(remembered == fresh, "step \(step), \(edit)")
            // Each language's catalogue made from the last one equals one translated afresh.
            for language in catalog.languages.translated {
                #expect(memo.translated(catalog, to: language) == catalog.translated(to: language), "step \(step), \(edit), \(language)")
            }
            problems.formUnion(fresh.map(\.code))
        }
        // The edits made the problems the memo must not hide or keep too long.
        #expect(problems.isSuperset(of: [.duplicateName, .emptyField, .unknownRecipe, .unknownProduct, .duplicateIngredient,
                                          .duplicateSells, .duplicateText, .controlCharacter]), "\(problems)")
        // Most entities were unchanged from one check to the next: their own rules were taken.
        let (hits, misses) = memo.counts
        #expect(hits > 3 * misses, "\(hits) entities' own rules from the memo, \(misses) run")
    }

    /// A check with a focus (a form's, in `digno studio`) finds at each focused entity exactly
    /// what the whole check finds there, in the same order, with the memo and without, over the
    /// same random edits and besides them ids, names, texts and positions given twice.
    @Test func aCheckWithAFocusFindsWhatTheWholeCheckFindsAtIt() {
        var catalog = Self.inThreeLanguages
        catalog.products[1].translations.add(.text("Espresso på svenska"), for: .name, in: "sv")
        catalog.recipes[0].position = 2
        catalog.recipes[1].position = 2
        catalog.retailers.append(catalog.retailers[0])
        let original = catalog
        let memo = RuleMemo()
        var random = Seeded(state: 62)
        var found = Set<DiagnosticCode>()
        for step in 0..<40 {
            let edit = Edit.allCases.randomElement(using: &random)!
            switch edit {
            case .duplicateName where catalog.products.count > 2: catalog.products[2].name = catalog.products[0].name.uppercased()
            case .emptySummary where !catalog.recipes.isEmpty: catalog.recipes[0].summary = " "
            case .unknownIngredient where !catalog.recipes.isEmpty: catalog.recipes[0].ingredients[0].product = ProductID("espreso")
            case .copyBody where catalog.products.count > 1: catalog.products[1].body = catalog.products[0].body
            case .removeProduct where catalog.products.count > 1: catalog.products.removeLast()
            case .breakTranslation where !catalog.products.isEmpty: catalog.products[0].translations.add(.text(""), for: .summary, in: "sv")
            case .undo: catalog = original
            default: continue
            }
            let whole = catalog.validate(today: day("2026-11-15"))
            found.formUnion(whole.map(\.code))
            var entities: [EntityReference] = []
            catalog.forEachEntity { reference, _ in entities.append(reference) }
            for entity in entities + [EntityReference(.catalog), EntityReference(.product, "no-such-product")] {
                let atIt = whole.filter { $0.entity == entity }
                #expect(catalog.validate(today: day("2026-11-15"), focus: [entity]) == atIt, "step \(step), \(edit), \(entity)")
                #expect(catalog.validate(today: day("2026-11-15"), memo: memo, focus: [entity]) == atIt, "step \(step), \(edit), \(entity), memo")
            }
            let two: Set = [EntityReference(.product, catalog.products[0].id.rawValue), EntityReference(.recipe, catalog.recipes[1].id.rawValue)]
            #expect(catalog.validate(today: day("2026-11-15"), focus: two) == whole.filter { two.contains($0.entity) }, "step \(step), \(edit), two")
        }
        #expect(found.isSuperset(of: [.duplicateName, .duplicateID, .duplicatePosition, .duplicateText, .emptyField, .unknownProduct,
                                      .translationMissing]), "\(found)")
    }
}
