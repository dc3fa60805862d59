import CatalogModel

extension Catalog {
    /// The translations that may be out of date: compared with `old` (an earlier release's
    /// catalogue, its languages' texts included), a text whose default-language text changed
    /// while its translation into a language stayed as it was, one warning per such text and
    /// language (`translation-outdated`), at the translation, the change shown word by word.
    /// Entities matched by id, texts by field (an ingredient line by its place). A text new
    /// since `old`, or a translation added or changed since, is not outdated.
    package func outdatedTranslations(since old: Catalog, release: String) -> [EntityDiagnostic] {
        var oldTexts: [EntityReference: (Translations, [FieldPath: String])] = [:]
        old.forEachDefaultText { entity, translations, texts in oldTexts[entity] = (translations, texts) }
        var diagnostics: [EntityDiagnostic] = []
        forEachDefaultText { entity, translations, texts in
            guard let (oldTranslations, oldDefaults) = oldTexts[entity] else { return }
            for (field, text) in texts.sorted(by: { $0.key.description < $1.key.description }) {
                guard let before = oldDefaults[field], before != text else { continue }
                for language in languages.translated {
                    guard let translation = translations[field, language], oldTranslations[field, language] == translation else { continue }
                    diagnostics.append(EntityDiagnostic(
                        severity: .warning, code: .translationOutdated, entity: entity, field: field, language: language,
                        message: "\(language): \(CatalogRules.named(field)) changed in \(languages.defaultLanguage) since \(release) "
                            + "(\(Self.shownChange(from: before, to: text))), and this translation did not; check that it still says the same"))
                }
            }
        }
        return diagnostics
    }

    /// A change as a message quotes it: only the changed runs, each with up to three words of
    /// context, removed as [-…-] and added as {+…+}, at most about 200 characters.
    package static func shownChange(from old: String, to new: String) -> String {
        let runs = WordDifference.words(from: old, to: new)
        var parts: [String] = []
        for (index, run) in runs.enumerated() {
            switch run.op {
            case .removed: parts.append("[-\(run.text.trimmingWhitespace)-]")
            case .added: parts.append("{+\(run.text.trimmingWhitespace)+}")
            case .same:
                let words = run.text.split(separator: " ")
                let before = index > 0, after = index < runs.count - 1
                if before && after && words.count > 6 {
                    parts.append((words.prefix(3) + ["…"] + words.suffix(3)).joined(separator: " "))
                } else if after && !before {
                    parts.append(((words.count > 3 ? ["…"] : []) + words.suffix(3)).joined(separator: " "))
                } else if before && !after {
                    parts.append((words.prefix(3) + (words.count > 3 ? ["…"] : [])).joined(separator: " "))
                } else {
                    parts.append(words.joined(separator: " "))
                }
            }
        }
        let shown = parts.filter { !$0.isEmpty }.joined(separator: " ")
        return shown.count > 200 ? String(shown.prefix(199)) + "…" : shown
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
