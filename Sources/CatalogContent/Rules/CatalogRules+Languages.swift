import CatalogModel

extension Catalog {
    /// Each declared language but the default, with how many texts are translated into it.
    package func translationCoverage() -> [TranslationCoverage] {
        // One walk for every language: the walk, not the counting, is the cost.
        let languages = languages.translated
        var translated = [Int](repeating: 0, count: languages.count)
        var total = 0
        forEachTranslatableField { _, translations, fields in
            total += fields.count
            for (index, language) in languages.enumerated() { translated[index] += fields.count { translations[$0, language] != nil } }
        }
        return languages.enumerated().map { TranslationCoverage(language: $1, translated: translated[$0], total: total) }
    }
}

extension CatalogRules {
    // MARK: Languages and translations

    /// catalog.xml's `<languages>`: each language once, the default first with no fallback,
    /// every other with a fallback declared above it (so no chain loops).
    mutating func checkLanguageDeclarations() {
        let entity = EntityReference(.catalog)
        let declarations = catalog.languages.declarations
        // Two or more languages falling back to one code that nothing declares, and no other
        // undeclared fallback: the default's code is mistyped (`fl` written for `fi`). One error
        // at the default says so, and the fallbacks that only repeat it are not reported.
        let codes = Set(declarations.map(\.code))
        let undeclared = declarations.dropFirst().compactMap { $0.fallback }.filter { !codes.contains($0) }
        var meantDefault: LanguageCode?
        if let first = declarations.first, first.fallback == nil, undeclared.count >= 2, Set(undeclared).count == 1 {
            let meant = undeclared[0]
            meantDefault = meant
            let languages = declarations.dropFirst().filter { $0.fallback == meant }.map { "'\($0.code)'" }
            report(.languageDeclaration, entity, .language(0),
                   "the default language is '\(first.code)', but \(languages.dropLast().joined(separator: ", ")) and \(languages.last ?? "") fall back to '\(meant)', "
                       + "which catalog.xml does not declare; write code=\"\(meant)\" here")
        }
        var declared: [LanguageCode] = []
        for (index, declaration) in declarations.enumerated() {
            let code = declaration.code
            defer { declared.append(code) }
            if declared.contains(code) {
                report(.languageDeclaration, entity, .language(index), "language '\(code)' is declared twice; declare each language once")
                continue
            }
            if index == 0 {
                if let fallback = declaration.fallback {
                    report(.languageDeclaration, entity, .language(index),
                           "'\(code)' is the default language, declared first, in which every text is written; it falls back to no other: remove fallback=\"\(fallback)\"")
                }
            } else if let fallback = declaration.fallback {
                if !declared.contains(fallback) && fallback != meantDefault {
                    report(.languageDeclaration, entity, .language(index),
                           "language '\(code)' falls back to '\(fallback)', which is not declared above it; fall back to one of \(Self.listed(declared))")
                }
            } else {
                report(.languageDeclaration, entity, .language(index),
                       "language '\(code)' names no fallback; add fallback=\"\(catalog.languages.defaultLanguage)\", the language a text not translated into it is shown in")
            }
        }
    }

    /// Translations into a language catalog.xml does not declare, or into the default one.
    /// `required` languages (`--require-language`) make a missing translation an error.
    mutating func checkTranslations(required: Set<LanguageCode>) {
        let languages = catalog.languages
        let declared = languages.declarations.map(\.code)
        for language in required.sorted() where !languages.translated.contains(language) {
            report(.languageDeclaration, EntityReference(.catalog), nil,
                   language == languages.defaultLanguage
                       ? "'\(language)' is the default language, in which every text is written; require another language"
                       : "a translation into '\(language)' is required, but catalog.xml does not declare it (\(Self.listed(declared))); declare it in <languages>")
        }
        // A declared language no text is translated into, while texts are translated into one
        // that is not declared: its code is mistyped (`se` written for `sv`). One error at the
        // declaration says so; the errors and warnings that would only repeat it for every text
        // (each translation undeclared, each text untranslated) are left out.
        // One walk counts the languages used and keeps the translations that may be in an
        // undeclared one, which are judged once the mistyped codes are known.
        // The counts in a list, not a dictionary: there are a few languages and some 100,000
        // entries at 10,000 entities, and hashing each one's code cost a fifth of a check.
        var counts: [(language: LanguageCode, count: Int)] = []
        var suspect: [(entity: EntityReference, entry: Translations.Entry)] = []
        catalog.forEachTranslated { entity, translations in
            // Each entry read in place: a copy retains its text.
            translations.entries.withUnsafeBufferPointer { entries in
                for index in entries.indices {
                    let language = entries[index].language
                    if let counted = counts.firstIndex(where: { $0.language == language }) {
                        counts[counted].count += 1
                    } else {
                        counts.append((language, 1))
                    }
                    if !languages.declares(language) || language == languages.defaultLanguage { suspect.append((entity, entries[index])) }
                }
            }
        }
        let used = Dictionary(uniqueKeysWithValues: counts.map { ($0.language, $0.count) })
        var mistyped: [LanguageCode: LanguageCode] = [:]
        for (index, declaration) in languages.declarations.enumerated() where index > 0 && used[declaration.code] == nil {
            let candidates = used.filter { !languages.declares($0.key) && $0.key != languages.defaultLanguage && !mistyped.values.contains($0.key) }
            guard let meant = candidates.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { continue }
            mistyped[declaration.code] = meant.key
            report(.languageDeclaration, EntityReference(.catalog), .language(index),
                   "no text is translated into '\(declaration.code)', but \(meant.value) \(meant.value == 1 ? "text is" : "texts are") translated into '\(meant.key)', "
                       + "which catalog.xml does not declare; write code=\"\(meant.key)\" here")
        }
        let meantLanguages = Set(mistyped.values)
        for (entity, entry) in suspect where (!languages.declares(entry.language) && !meantLanguages.contains(entry.language))
            || entry.language == languages.defaultLanguage {
            let message = entry.language == languages.defaultLanguage
                ? "'\(entry.language)' is the default language, whose text is the one without xml:lang; remove this translation or its xml:lang"
                : "xml:lang=\"\(entry.language)\" is not a language catalog.xml declares (\(Self.listed(declared))); correct it, or declare the language in <languages>"
            diagnostics.append(EntityDiagnostic(
                severity: .error, code: .languageUndeclared, entity: entity, field: entry.field, language: entry.language, message: message))
        }
        // One walk for every language; the problems are then given language by language.
        let checked = languages.translated.filter { mistyped[$0] == nil }
        var missingIn = [[EntityDiagnostic]](repeating: [], count: checked.count)
        catalog.forEachTranslatableField(only: focus) { entity, translations, fields in
            for (index, language) in checked.enumerated() {
                // One problem per entity and language, at its first untranslated text, naming
                // them all: an editor starting a language gets a line per file, not one per text.
                let missing = fields.filter { translations[$0, language] == nil }
                guard let first = missing.first else { continue }
                let severity: Severity = languages.requires(language) || required.contains(language) ? .error : .warning
                let message = missing.count == 1
                    ? "\(Self.named(first)) is not translated into \(language); " + Self.advice(first, language)
                    : "\(missing.count) texts are not translated into \(language): \(missing.map(Self.named).joined(separator: ", ")); "
                        + "write each translation after its text, with xml:lang=\"\(language)\""
                // Placed at the Finnish text (the translation is not there to point at); the
                // language says whose translation it lacks.
                missingIn[index].append(EntityDiagnostic(severity: severity, code: .translationMissing, entity: entity, field: first,
                                                         language: language, message: message))
            }
        }
        diagnostics += missingIn.joined()
    }

    /// What to write for a missing translation.
    static func advice(_ field: FieldPath, _ language: LanguageCode) -> String {
        switch field {
        case .image, .picture: "add <alt xml:lang=\"\(language)\">…</alt> inside the <image>"
        default: "add <\(field.name) xml:lang=\"\(language)\">…</\(field.name)> after it"
        }
    }

    /// A translatable field as a message names it: `name`, `ingredient[2]`, `alt of image[1]`.
    static func named(_ field: FieldPath) -> String {
        switch field {
        case .image, .picture: "alt of \(field)"
        default: field.description
        }
    }

    static func listed(_ codes: [LanguageCode]) -> String {
        codes.map { "'\($0)'" }.joined(separator: ", ")
    }
}
