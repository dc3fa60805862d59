import CatalogModel
import Foundation

/// `CatalogChanges` for people: `digno diff`'s text (a terminal, a CI log) and Markdown (a pull
/// request, release notes). Text changes are shown word by word, as `wdiff` does in text
/// (`[-removed-]{+added+}`) and with `<del>` and `<ins>` in Markdown.
package enum ChangesText {
    package enum Style { case text, markdown }

    /// `pictureNames` names pictures by their SHA-256 (`ReleaseSide.pictureNames`); one not
    /// named is shown by its SHA-256's first 12 digits.
    package static func render(_ changes: CatalogChanges, style: Style, pictureNames: [String: String] = [:]) -> String {
        let names = Names(pictures: pictureNames)
        return style == .text ? text(changes, names) : markdown(changes, names)
    }

    /// How values that are pictures are shown.
    struct Names {
        var pictures: [String: String] = [:]

        /// A value that starts with a picture's SHA-256, with the picture's name for it.
        func shown(_ value: String) -> String {
            let prefix = value.prefix(64)
            guard prefix.count == 64, let name = pictures[String(prefix)] else { return shortened(value) }
            return name + value.dropFirst(64)
        }
    }

    // MARK: - Text

    static func text(_ changes: CatalogChanges, _ names: Names) -> String {
        var lines = ["\(changes.old.releaseVersion) (\(changes.old.releaseDate)) → \(changes.new.releaseVersion) (\(changes.new.releaseDate)): "
            + (changes.isEmpty ? "no changes" : totals(changes))]
        for kind in CatalogChanges.Kind.allCases {
            let entities = changes.entities.filter { $0.kind == kind }
            guard !entities.isEmpty else { continue }
            lines.append("\(kind.plural): \(counts(changes.count(kind)))")
            for entity in entities {
                // The home and the company are one each: their slug is their kind, said once.
                let slug = entity.slug == kind.rawValue ? "" : " \(entity.slug)"
                lines.append("  \(entity.change.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(kind.rawValue)\(slug) \"\(oneLine(entity.name))\"")
                for field in entity.fields {
                    lines.append("             \(name(field, in: changes)): \(textValue(field, names))")
                }
            }
        }
        if !changes.pictures.added.isEmpty || !changes.pictures.removed.isEmpty {
            lines.append("pictures: \(changes.pictures.added.count) added, \(changes.pictures.removed.count) removed")
            lines += changes.pictures.added.map { "  + \(names.shown($0))" } + changes.pictures.removed.map { "  - \(names.shown($0))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A field's name, and the language its words are in when the changes are read in another
    /// (`CatalogChanges.reading(in:)`): `summary (in fi)`, a text not translated.
    static func name(_ field: CatalogChanges.Field, in changes: CatalogChanges) -> String {
        guard let reading = changes.language, let language = field.language ?? changes.languages?.first, language != reading,
              field.language != nil || field.words != nil else { return field.field }
        return field.field + " (in \(language))"
    }

    /// One field's change as the text format shows it: `summary: Tummapaahteinen{+, …+} …`.
    package static func line(_ field: CatalogChanges.Field, pictureNames: [String: String] = [:]) -> String {
        "\(field.field): \(textValue(field, Names(pictures: pictureNames)))"
    }

    /// The totals as a summary line says them: `1 removed, 2 changed`, or `no changes`.
    package static func summary(_ changes: CatalogChanges) -> String {
        changes.isEmpty ? "no changes" : totals(changes)
    }

    static func textValue(_ field: CatalogChanges.Field, _ names: Names = Names()) -> String {
        if let words = field.words {
            return oneLine(elided(words).map { run in
                switch run.op {
                case .same: run.text
                case .removed: "[-" + run.text + "-]"
                case .added: "{+" + run.text + "+}"
                }
            }.joined())
        }
        if field.added != nil || field.removed != nil {
            let parts = (field.added ?? []).map { "+" + names.shown($0) } + (field.removed ?? []).map { "-" + names.shown($0) }
            return oneLine(parts.joined(separator: "  "))
        }
        return oneLine("\(field.old.map(names.shown) ?? "(none)") → \(field.new.map(names.shown) ?? "(none)")")
    }

    // MARK: - Markdown

    static func markdown(_ changes: CatalogChanges, _ names: Names) -> String {
        var lines = ["# What changed: \(changes.old.releaseVersion) → \(changes.new.releaseVersion)", ""]
        guard !changes.isEmpty else {
            return (lines + ["Nothing a reader sees changed."]).joined(separator: "\n") + "\n"
        }
        lines += ["**\(totals(changes)).**"]
        for kind in CatalogChanges.Kind.allCases {
            let entities = changes.entities.filter { $0.kind == kind }
            guard !entities.isEmpty else { continue }
            lines += ["", "## " + kind.plural.prefix(1).uppercased() + kind.plural.dropFirst(), ""]
            for entity in entities {
                lines.append("- **\(entity.change.rawValue.capitalized):** \(oneLine(escaped(entity.name))) (\(escaped(entity.slug)))")
                for field in entity.fields {
                    let shown = name(field, in: changes)
                    lines.append("  - \(shown.prefix(1).uppercased() + shown.dropFirst()): \(markdownValue(field, names))")
                }
            }
        }
        if !changes.pictures.added.isEmpty || !changes.pictures.removed.isEmpty {
            lines += ["", "## Pictures", "", "\(changes.pictures.added.count) added, \(changes.pictures.removed.count) removed."]
            if !names.pictures.isEmpty {
                lines.append("")
                lines += changes.pictures.added.map { "- Added: " + escaped(names.shown($0)) } + changes.pictures.removed.map { "- Removed: " + escaped(names.shown($0)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdownValue(_ field: CatalogChanges.Field, _ names: Names = Names()) -> String {
        if let words = field.words {
            return oneLine(elided(words).map { run in
                // HTML's <del> and <ins>, which Markdown passes through: `**` and `~~` would not
                // open or close next to punctuation.
                switch run.op {
                case .same: escaped(run.text)
                case .removed: "<del>" + escaped(run.text) + "</del>"
                case .added: "<ins>" + escaped(run.text) + "</ins>"
                }
            }.joined())
        }
        if field.added != nil || field.removed != nil {
            var parts: [String] = []
            // Escaped text, not code spans: a value with a backtick would close a span early.
            if let added = field.added, !added.isEmpty { parts.append("added " + added.map { escaped(names.shown($0)) }.joined(separator: ", ")) }
            if let removed = field.removed, !removed.isEmpty { parts.append("removed " + removed.map { escaped(names.shown($0)) }.joined(separator: ", ")) }
            return oneLine(parts.joined(separator: "; "))
        }
        return oneLine("\(field.old.map { escaped(names.shown($0)) } ?? "none") → \(field.new.map { escaped(names.shown($0)) } ?? "none")")
    }

    /// Markdown's special characters as literal text.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_{}[]()<>#+-.!|~".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    // MARK: - Shared

    static func totals(_ changes: CatalogChanges) -> String {
        var total = (added: 0, removed: 0, changed: 0)
        for kind in CatalogChanges.Kind.allCases {
            let count = changes.count(kind)
            total = (total.added + count.added, total.removed + count.removed, total.changed + count.changed)
        }
        return counts(total)
    }

    static func counts(_ count: (added: Int, removed: Int, changed: Int)) -> String {
        [(count.added, "added"), (count.removed, "removed"), (count.changed, "changed")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ").nonEmpty ?? "pictures only"
    }

    /// The words around a change, with long unchanged stretches cut to a few words at each end
    /// (`…` for the rest): people read the change, JSON keeps every word.
    static func elided(_ runs: [CatalogChanges.Words], context: Int = 6) -> [CatalogChanges.Words] {
        runs.enumerated().map { index, run in
            guard run.op == .same else { return run }
            let words = run.text.split(separator: " ", omittingEmptySubsequences: false)
            let keepHead = index > 0, keepTail = index < runs.count - 1
            guard words.count > context * 2 + 2 || (!keepHead || !keepTail) && words.count > context + 1 else { return run }
            let head = keepHead ? words.prefix(context).joined(separator: " ") + " " : ""
            let tail = keepTail ? " " + words.suffix(context).joined(separator: " ") : ""
            return CatalogChanges.Words(.same, head + "…" + tail)
        }
    }

    /// A SHA-256 at the start of a value cut to 12 digits, enough to tell pictures apart.
    static func shortened(_ value: String) -> String {
        let prefix = value.prefix(64)
        guard prefix.count == 64, prefix.allSatisfy(\.isHexDigit) else { return value }
        return String(prefix.prefix(12)) + value.dropFirst(64)
    }

    /// Line breaks inside a change shown as `⏎`, so that each change stays one line.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "⏎ ")
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
