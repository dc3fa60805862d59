import CatalogModel
import Foundation

extension Catalog {
    /// Checks every rule that concerns the catalogue as a whole: required fields and their
    /// lengths, references between entities, the 1..* relations, duplicate ids, names, texts
    /// and positions, and promotions. Returns every problem found, errors and warnings, in a
    /// stable order; an empty array means the catalogue is valid. Synchronous; it uses a second
    /// thread for part of the work while the calling one does the rest.
    ///
    /// - Parameters:
    ///   - today: the day to judge promotions against; a promotion whose last day is before it
    ///     gets a `promotion-ended` warning. Nil skips that check.
    ///   - unloaded: entities that exist but could not be loaded (their files have errors of
    ///     their own). References to them are not reported as unknown, a kind with unloaded
    ///     entities is not reported empty, and while a recipe is unloaded no product is reported
    ///     unused, since that recipe may use it. A reference with an empty id, such as
    ///     `EntityReference(.product)`, stands for a whole kind that could not be read (its
    ///     folder was refused): no reference to that kind is judged, since any id may exist.
    ///   - requiredLanguages: languages a missing translation into is an error, not a warning,
    ///     besides those catalog.xml marks required (`--require-language`).
    ///   - languagesKnown: false when catalog.xml, which declares the languages, could not be
    ///     read: no translation is then judged against declarations that are not known (every
    ///     one would be `language-undeclared`); the compiler says so once.
    ///
    /// Every rule holds in every language: the rules run again over the catalogue as each
    /// other language's reader sees it (`translated(to:)`), and keep the problems of the texts
    /// written in that language, each with the language (`EntityDiagnostic.language`) and its
    /// code before the message (`sv: name is …`).
    ///   - memo: each entity's own rules as an earlier check of this catalogue found them
    ///     (`RuleMemo`): an entity unchanged since is not checked by them again. The same
    ///     problems either way.
    ///   - focus: the entities whose problems are wanted (the one a form edits, in `digno
    ///     studio`); nil: every entity's. The problems are those of the whole check at these
    ///     entities, no more and no fewer: the rules across entities still read every entity,
    ///     while those that concern one entity are run only for these.
    package func validate(today: Day? = nil, unloaded: Set<EntityReference> = [], requiredLanguages: Set<LanguageCode> = [],
                          languagesKnown: Bool = true, memo: RuleMemo? = nil, focus: Set<EntityReference>? = nil) -> [EntityDiagnostic] {
        defer { memo?.finishCheck() }
        let all = validateEveryRule(today: today, unloaded: unloaded, requiredLanguages: requiredLanguages, languagesKnown: languagesKnown,
                                    memo: memo, focus: focus)
        guard let focus else { return all }
        return all.filter { focus.contains($0.entity) }
    }

    private func validateEveryRule(today: Day?, unloaded: Set<EntityReference>, requiredLanguages: Set<LanguageCode>,
                                   languagesKnown: Bool, memo: RuleMemo?, focus: Set<EntityReference>?) -> [EntityDiagnostic] {
        var diagnostics = validateOneLanguage(today: today, unloaded: unloaded, memo: memo, language: nil, focus: focus)
        guard languagesKnown else { return diagnostics }
        let languages = languages.translated
        // The translations are checked on one core while each other language's catalogue is
        // made on the other (each was on the way of a check as typed, one after the other).
        let languageRules = CatalogRules(catalog: self, unloaded: unloaded, focus: focus)
        let parts = Parts<(diagnostics: [EntityDiagnostic], catalog: Catalog?)>(count: 1 + languages.count, empty: ([], nil))
        DispatchQueue.concurrentPerform(iterations: 1 + languages.count) { part in
            if part == 0 {
                var rules = languageRules
                rules.checkLanguageDeclarations()
                rules.checkTranslations(required: requiredLanguages)
                parts.set(part, (rules.diagnostics, nil))
            } else {
                let language = languages[part - 1]
                parts.set(part, ([], memo.map { $0.translated(self, to: language) } ?? translated(to: language)))
            }
        }
        let made = parts.all
        diagnostics += made[0].diagnostics
        guard !languages.isEmpty else { return diagnostics }
        // The entities a translation's problem may be kept at: with a focus, only its own.
        var translationsOf: [EntityReference: Translations] = [:]
        forEachTranslated { entity, translations in
            if !translations.isEmpty, focus?.contains(entity) ?? true { translationsOf[entity] = translations }
        }
        // A problem the default language already has is not repeated: what is written once
        // (an ingredient's product, say) is wrong once, whichever language's text is beside it.
        struct Said: Hashable {
            var code: DiagnosticCode, entity: EntityReference, field: FieldPath?, message: String
        }
        let said = Set(diagnostics.map { Said(code: $0.code, entity: $0.entity, field: $0.field, message: $0.message) })
        for (language, translated) in zip(languages, made.dropFirst().compactMap(\.catalog)) {
            for var diagnostic in translated.validateOneLanguage(today: nil, unloaded: unloaded, memo: memo, language: language, focus: focus) {
                guard let field = diagnostic.field, translationsOf[diagnostic.entity]?[field.translatedField, language] != nil,
                      !said.contains(Said(code: diagnostic.code, entity: diagnostic.entity, field: field, message: diagnostic.message))
                else { continue }
                diagnostic.language = language
                diagnostic.message = "\(language): " + diagnostic.message
                diagnostic.clash = diagnostic.clash.map { clash in
                    var clash = clash
                    clash.lead = "\(language): " + clash.lead
                    return clash
                }
                diagnostics.append(diagnostic)
            }
        }
        return diagnostics
    }

    /// The rules over the catalogue's default language.
    private func validateOneLanguage(today: Day?, unloaded: Set<EntityReference>, memo: RuleMemo?, language: LanguageCode?,
                                     focus: Set<EntityReference>?) -> [EntityDiagnostic] {
        let rules = CatalogRules(catalog: self, unloaded: unloaded, memo: memo, language: language, focus: focus)
        // The duplicate-text check, about half the work, runs on a second core beside the
        // rest; its diagnostics still come last.
        let parts = Parts<[EntityDiagnostic]>(count: 2, empty: [])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var rules = rules
            if part == 0 {
                rules.checkCatalog()
                rules.checkProducts()
                rules.checkRecipes()
                rules.checkRetailers()
                rules.checkHome(today: today)
                rules.checkCompany()
                rules.checkDuplicateNames()
            } else {
                rules.checkDuplicateTexts()
            }
            parts.set(part, rules.diagnostics)
        }
        return parts.all.flatMap { $0 }
    }
}

/// What each part of `validate` found, handed back from the threads that ran them.
private final class Parts<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [Value]  // guarded by `lock`

    init(count: Int, empty: Value) {
        parts = Array(repeating: empty, count: count)
    }

    func set(_ part: Int, _ value: Value) {
        lock.withLock { parts[part] = value }
    }

    var all: [Value] { lock.withLock { parts } }
}
