import BundleCompiler
import CatalogContent
import CatalogModel

/// What is translated into each language, entity by entity (the studio's coverage table): for
/// each entity and each language but the default, its texts to translate, those missing and
/// those outdated (their default language's text changed since the release compared with, as
/// `digno validate --since` finds), and the first of them, whose field the table opens.
struct TranslationTable {
    struct Cell {
        var total = 0
        var missing = 0
        var outdated = 0
        /// The key of the first text missing (else outdated) in the form: `summary@sv`.
        var first: String?

        var isDone: Bool { missing == 0 && outdated == 0 }
    }

    struct Row {
        var entity: EntityReference
        var cells: [LanguageCode: Cell]

        var isDone: Bool { cells.values.allSatisfy(\.isDone) }
    }

    var languages: [LanguageCode]
    var rows: [Row]

    /// The table of the last check: from its catalogue (what is written) and its
    /// `translation-outdated` problems. One walk over every entity's translatable texts.
    init(_ report: ValidationReport) {
        guard let catalog = report.catalog else {
            languages = []
            rows = []
            return
        }
        let languages = catalog.languages.translated
        self.languages = languages
        var outdated: [EntityReference: [LanguageCode: [FieldPath]]] = [:]
        for diagnostic in report.diagnostics where diagnostic.code == .translationOutdated {
            guard let entity = diagnostic.entity, let language = diagnostic.language, let field = diagnostic.field else { continue }
            outdated[entity, default: [:]][language, default: []].append(field)
        }
        var rows: [Row] = []
        catalog.forEachTranslatableField { entity, translations, fields in
            var cells: [LanguageCode: Cell] = [:]
            for language in languages {
                var cell = Cell(total: fields.count)
                for field in fields where translations[field, language] == nil {
                    cell.missing += 1
                    if cell.first == nil { cell.first = EntityForm.key(field.translatedField, language) }
                }
                if let stale = outdated[entity]?[language] {
                    cell.outdated = stale.count
                    if cell.first == nil, let field = stale.first { cell.first = EntityForm.key(field.translatedField, language) }
                }
                cells[language] = cell
            }
            rows.append(Row(entity: entity, cells: cells))
        }
        self.rows = rows
    }
}
