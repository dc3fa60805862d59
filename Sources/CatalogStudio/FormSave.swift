import BundleCompiler
import CatalogContent
import CatalogModel

/// What a form sent back does to its file: the decision as a value, made from three versions of
/// each text (as the form opened it, as the editor sent it, and as the file holds it now), so
/// that nobody's work is lost. A text the editor did not change is left as the file has it;
/// one they changed is written, unless the file changed it too, to something else: then both
/// are shown for the editor to choose from, and nothing is written.
enum FormSave: Equatable {
    /// Nothing the editor changed differs from the file.
    case unchanged
    /// These texts, lists and choices to write (each the editor's), and how many the file had
    /// changed meanwhile that the editor did not touch (kept as the file has them).
    case write([EntityFileEdit.Change], lists: [FormList] = [], choices: [FormChoice] = [], merged: Int)
    /// Texts changed both in the form and in the file, differently: each with both values.
    case conflicts([Conflict])

    struct Conflict: Equatable {
        var key: String
        var mine: String
        var theirs: String
    }

    /// The decision for `form` (the file now) given what the editor sent: `sent` by key, and
    /// `opened`, each text as the form showed it when it opened (a key missing from `opened`
    /// was not in the form: its text is taken as the file's). A text sent for a key the file
    /// no longer has (a picture removed meanwhile) is a conflict with nothing.
    /// Lists (`lists`, rows by the list's key) and choices (`choices`, values by key) are
    /// decided the same way, each as a whole: `opened` holds a list's canonical text.
    static func decide(form now: EntityForm, sent: [String: String], opened: [String: String],
                       lists: [String: [FormList.Row]] = [:], choices: [String: String] = [:]) -> FormSave {
        var changes: [EntityFileEdit.Change] = []
        var conflicts: [Conflict] = []
        var merged = 0
        let fields = Dictionary(now.fields.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (key, sentText) in sent.sorted(by: { $0.key < $1.key }) {
            var mine = sentText
            let base = opened[key]
            guard let field = fields[key] else {
                // Gone from the file since the form opened: nothing to write it into.
                if let base, base != mine { conflicts.append(Conflict(key: key, mine: mine, theirs: "")) }
                continue
            }
            // Formatted text is compared as its markup written again: the same text, one string.
            var rich: RichText?
            if field.rich != nil {
                guard let read = try? RichTextMarkup.read(mine) else { continue }
                rich = read
                mine = read.blocks.isEmpty ? "" : RichTextMarkup.write(read)
            }
            let theirs = field.value
            let mineChanged = base.map { $0 != mine } ?? (mine != theirs)
            if !mineChanged {
                if theirs != (base ?? theirs) { merged += 1 }
                continue
            }
            if mine == theirs { continue }
            if let base, theirs != base {
                conflicts.append(Conflict(key: key, mine: mine, theirs: theirs))
                continue
            }
            // An empty translation removes it; the default language's text is written as given.
            changes.append(EntityFileEdit.Change(entity: now.entity, field: field.path, language: field.language,
                                                 value: field.language != nil && mine.isEmpty ? nil : mine, rich: rich))
        }
        // A list or choice: three versions of one value, as a text's.
        func decide(_ key: String, mine: String, theirs: String?) -> Bool {
            let base = opened[key]
            guard let theirs else {
                if let base, base != mine { conflicts.append(Conflict(key: key, mine: mine, theirs: "")) }
                return false
            }
            let mineChanged = base.map { $0 != mine } ?? (mine != theirs)
            if !mineChanged {
                if theirs != (base ?? theirs) { merged += 1 }
                return false
            }
            if mine == theirs { return false }
            if let base, theirs != base {
                conflicts.append(Conflict(key: key, mine: mine, theirs: theirs))
                return false
            }
            return true
        }
        var writtenLists: [FormList] = []
        for (key, rows) in lists.sorted(by: { $0.key < $1.key }) {
            guard let list = now.list(key) else { continue }
            let mine = FormList(kind: list.kind, rows: rows)
            if decide(key, mine: mine.canonical, theirs: list.canonical) { writtenLists.append(mine) }
        }
        var writtenChoices: [FormChoice] = []
        for (key, value) in choices.sorted(by: { $0.key < $1.key }) {
            guard let choice = now.choice(key) else { continue }
            let mine = value.trimmingCharacters(in: .whitespaces)
            if decide(key, mine: mine, theirs: choice.value) { writtenChoices.append(FormChoice(key: key, kind: choice.kind, value: mine)) }
        }
        if !conflicts.isEmpty { return .conflicts(conflicts) }
        return changes.isEmpty && writtenLists.isEmpty && writtenChoices.isEmpty
            ? .unchanged : .write(changes, lists: writtenLists, choices: writtenChoices, merged: merged)
    }
}
