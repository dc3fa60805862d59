import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The content folder as the studio works on it: the last check's catalogue and problems (the
/// preview's, at each save it hears), each entity's file read for its form, a form checked as
/// it is typed (the file with the form's texts, as an overlay of a check like `digno lsp`'s),
/// and a form saved into its file, merged with what changed on disk meanwhile.
final class StudioWorkspace: Sendable {
    let contentFolder: String
    /// The last check's report (the preview's builds), and how many there have been.
    let latest = LockedValue<(report: ValidationReport?, number: Int)>((nil, 0))
    /// The release compared with (`digno studio --compare`): what outdated translations are
    /// judged against, and a translator's file marks for review.
    let compared = LockedValue<(catalog: Catalog, release: String)?>(nil)
    var comparedRelease: (catalog: Catalog, release: String)? { compared.withLock { $0 } }
    /// The checks of forms as typed, one at a time, with their own load cache.
    private let typing = LockedValue<Typing>(Typing())
    /// What each entity's saves in this session changed, newest last, for undo.
    private let saves = LockedValue<[EntityReference: [Saved]]>([:])
    /// The day promotions are judged against.
    let day: @Sendable () -> Day?

    private struct Typing {
        let cache = LoadCache()
        /// The report number the cache last looked at the folder for.
        var lookedAt = -1
    }

    /// What a form sends: its texts by key, its lists' rows and its choices.
    struct FormValues: Sendable, Equatable {
        var texts: [String: String] = [:]
        var lists: [String: [FormList.Row]] = [:]
        var choices: [String: String] = [:]
    }

    /// One save: what it changed, as it was before and after (lists by their canonical text).
    struct Saved: Sendable, Equatable {
        var before: FormValues
        var after: FormValues
    }

    /// The largest content file the studio opens as a form (the compiler's own cap on a file).
    static let fileLimit = 4 * 1024 * 1024

    init(contentFolder: String, day: @escaping @Sendable () -> Day?) {
        self.contentFolder = contentFolder
        self.day = day
    }

    // MARK: The last check

    /// Told by the preview after each check.
    func update(_ report: ValidationReport) {
        latest.withLock { $0 = (report, $0.number + 1) }
    }

    var report: ValidationReport? { latest.withLock { $0.report } }

    /// The catalogue's languages, the default first: the last check's, else Finnish.
    var languages: [LanguageCode] {
        guard let languages = report?.catalog?.languages else { return [.finnish] }
        return [languages.defaultLanguage] + languages.translated
    }

    // MARK: Reading

    /// An entity's file as its form reads it.
    enum Reading {
        /// The form, made from the file's bytes now.
        case form(EntityForm, path: String, bytes: [UInt8])
        /// The file is there but cannot be shown as a form (not well-formed: git's conflict
        /// markers, a half-written edit): why, and its text, which the studio never writes over.
        case unreadable(path: String, reason: String, text: String)
        /// No file holds the entity (removed, or never there).
        case missing(path: String?)
    }

    func read(_ entity: EntityReference) -> Reading {
        guard let path = EntityFileEdit.path(of: entity) else { return .missing(path: nil) }
        let bytes: [UInt8]
        switch readFile(path) {
        case .success(let read): bytes = read
        case .failure(.missing): return .missing(path: path)
        case .failure(let failure): return .unreadable(path: path, reason: failure.description, text: "")
        }
        do {
            let entities = try EntityFileReading.entities(in: bytes, path: path)
            guard let found = entities[entity] else { return .missing(path: path) }
            var form = EntityForm(entity, found, languages: languages)
            if let declared = report?.catalog?.languages {
                form.fallbacks = Dictionary(uniqueKeysWithValues: declared.translated.map { ($0, Array(declared.chain(for: $0).dropFirst())) })
            }
            // A day that is no day (`2027-02-30`) is shown as written, until one is chosen.
            if entity.kind == .promotion {
                for (key, written) in EntityFileReading.writtenDays(of: entity, in: bytes, path: path) {
                    if let index = form.choices.firstIndex(where: { $0.key == key }) { form.choices[index].value = written }
                }
            }
            return .form(form, path: path, bytes: bytes)
        } catch {
            return .unreadable(path: path, reason: error.description, text: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Why a content file cannot be read or written by the studio.
    enum FileFailure: Error, Equatable, CustomStringConvertible {
        case missing
        /// A link, a folder or a device: the studio writes only files of the content folder.
        case notAFile(String)
        case tooLarge(String)
        case system(String)

        var description: String {
            switch self {
            case .missing: "the file is not there"
            case .notAFile(let path): "\(path) is a link or not a file; the studio reads and writes only the content folder's own files"
            case .tooLarge(let path): "\(path) is larger than \(StudioWorkspace.fileLimit / 1024 / 1024) MiB"
            case .system(let words): words
            }
        }
    }

    /// The bytes of a picture of the content folder (up to a picture's limit), the folders on
    /// its way and the file itself no links.
    func readPicture(_ path: String) -> Result<[UInt8], FileFailure> {
        readFile(path, limit: PictureIntake.fileLimit)
    }

    /// The bytes of a content file, the folders on its way and the file itself no links.
    func readFile(_ path: String, limit: Int = StudioWorkspace.fileLimit) -> Result<[UInt8], FileFailure> {
        if let failure = checkPlace(path) { return .failure(failure) }
        let full = contentFolder + "/" + path
        guard DurableFile.exists(full) else { return .failure(.missing) }
        guard let size = DurableFile.size(full, regularFileOnly: true, followingLinks: false) else { return .failure(.notAFile(path)) }
        guard size <= limit else { return .failure(.tooLarge(path)) }
        let descriptor = open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.system("cannot open \(path): \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        // Room for the file as it was stamped, and more while it grows (to the limit and one).
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while count < limit + 1 {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count)) }
            let read = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .failure(.system("cannot read \(path): \(String(cString: strerror(errno)))")) }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else { return .failure(.tooLarge(path)) }
        return .success(Array(bytes[..<count]))
    }

    /// Why `path` (made from an entity's id, never from a request's words) is no place to read
    /// or write: a folder on its way is a link (which could lead out of the content folder).
    func checkPlace(_ path: String) -> FileFailure? {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return .notAFile(path) }
        let folders = path.split(separator: "/").dropLast()
        var folder = contentFolder
        for part in folders {
            folder += "/" + part
            guard DurableFile.isFolder(folder) else { return DurableFile.exists(folder) ? .notAFile(path) : .missing }
        }
        return nil
    }

    /// The pictures under `images/` a form may choose (`images/products/espresso-1.png`),
    /// sorted; links and hidden files left out, at most `pictureLimit`.
    func pictureFiles() -> [String] {
        // Listed again after each check the preview makes (a picture added is a change it hears).
        let number = latest.withLock { $0.number }
        if let known = pictures.withLock({ $0.number == number ? $0.files : nil }) { return known }
        let files = listPictures()
        pictures.withLock { $0 = (number, files) }
        return files
    }

    /// The pictures of the last listing, and the check it was made after.
    private let pictures = LockedValue<(number: Int, files: [String])>((-1, []))

    private func listPictures() -> [String] {
        let extensions: Set<String> = ["png", "jpg", "jpeg", "heic", "heif", "webp"]
        var found: [String] = []
        var folders = ["images"]
        while let folder = folders.popLast(), found.count < Self.pictureLimit {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: contentFolder + "/" + folder) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if DurableFile.isFolder(contentFolder + "/" + path) { folders.append(path); continue }
                guard extensions.contains((name as NSString).pathExtension.lowercased()),
                      DurableFile.size(contentFolder + "/" + path, regularFileOnly: true, followingLinks: false) != nil else { continue }
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// The most pictures a form offers to choose from.
    static let pictureLimit = 20_000

    // MARK: Saving

    /// What a save did.
    enum SaveOutcome: Sendable, Equatable {
        /// Written: the file's path, and how many texts changed on disk meanwhile were kept.
        case saved(path: String, merged: Int)
        /// Nothing the editor changed differs from the file.
        case unchanged
        /// Texts changed both in the form and on disk: nothing written.
        case conflicts([FormSave.Conflict])
        /// The file cannot be written as a form now (why); nothing written.
        case refused(String)
    }

    /// Saves a form: `sent` and `opened` by key (`FormSave.decide`). All its changes are written
    /// together, into a temporary file renamed over the entity's file, or none is.
    func save(_ entity: EntityReference, sent: FormValues, opened: [String: String]) -> SaveOutcome {
        let reading = read(entity)
        guard case .form(let form, let path, let bytes) = reading else {
            if case .unreadable(let path, let reason, _) = reading { return .refused("\(path) cannot be saved as a form: \(reason); fix it in a text editor first") }
            return .refused("there is no file for \(entity) any more")
        }
        // A day that is not one (a date field left half-typed sends none) is refused, not removed;
        // one the file already holds as written (`2027-02-30`, by hand) is kept as it is.
        for choice in form.choices where choice.kind == .day {
            guard let value = sent.choices[choice.key], value != opened[choice.key] || value != choice.value else { continue }
            if Day(value) == nil { return .refused("\(choice.key): '\(value)' is not a day; choose one (YYYY-MM-DD)") }
        }
        // Formatted text that cannot be read is refused, not dropped.
        for field in form.fields where field.rich != nil {
            guard let markup = sent.texts[field.key] else { continue }
            do { _ = try RichTextMarkup.read(markup) } catch { return .refused("\(field.key): \(error)") }
        }
        switch FormSave.decide(form: form, sent: sent.texts, opened: opened, lists: sent.lists, choices: sent.choices) {
        case .unchanged: return .unchanged
        case .conflicts(let conflicts): return .conflicts(conflicts)
        case .write(let changes, let lists, let choices, let merged):
            let edited: [UInt8]
            do { edited = try Self.edit(bytes, form: form, changes: changes, lists: lists, choices: choices, languages: languages) } catch {
                return .refused(error.description)
            }
            if let failure = replace(path, expecting: bytes, with: edited) { return .refused(failure) }
            let defaultLanguage = languages.first ?? .finnish
            var before = FormValues(), after = FormValues()
            for change in changes {
                let key = EntityForm.key(change.field, change.language ?? defaultLanguage)
                before.texts[key] = form.field(key)?.value ?? ""
                after.texts[key] = sent.texts[key] ?? ""
            }
            for list in lists {
                before.lists[list.key] = form.list(list.key)?.rows ?? []
                after.lists[list.key] = list.rows
            }
            for choice in choices {
                before.choices[choice.key] = form.choice(choice.key)?.value ?? ""
                after.choices[choice.key] = choice.value
            }
            saves.withLock { $0[entity, default: []].append(Saved(before: before, after: after)) }
            return .saved(path: path, merged: merged)
        }
    }

    /// `bytes` with a form's texts, lists and choices written in: the texts in place, then each
    /// list and chosen element anew, then the attributes.
    static func edit(_ bytes: [UInt8], form: EntityForm, changes: [EntityFileEdit.Change], lists: [FormList], choices: [FormChoice],
                     languages: [LanguageCode]) throws(EntityFileEdit.Unplaceable) -> [UInt8] {
        // An optional text emptied in the default language goes with its translations; one the
        // file has no element for yet is added in its place among the fields.
        var inPlace: [EntityFileEdit.Change] = []
        var whole: [EntityFileEdit.Replacement] = []
        for change in changes {
            let field = form.field(EntityForm.key(change.field, change.language ?? languages.first ?? .finnish))
            guard change.language == nil, let field, field.isOptional, field.isAbsent || (change.value ?? "").isEmpty,
                  let name = change.field.elementName?.description else {
                inPlace.append(change)
                continue
            }
            let value = change.value ?? ""
            whole.append(EntityFileEdit.Replacement(entity: form.entity, element: name, fieldOrder: form.fieldOrder) { indent in
                value.isEmpty ? "" : FieldElements.text(name, value, indent: indent)
            })
        }
        var edited = try EntityFileEdit.applying(inPlace, to: bytes, languages: languages)
        if !whole.isEmpty { edited = try EntityFileEdit.replacing(whole, in: edited) }
        // The home's promotions are moved as written, each element whole.
        for list in lists where list.kind == .promotions {
            edited = try EntityFileEdit.children("promotion", in: "promotions", of: form.entity, keeping: list.rows.map(\.reference), in: edited)
        }
        var replacements = lists.filter { $0.kind != .promotions }.map {
            StructureWriting.replacement($0, of: form.entity, kindFields: form.fieldOrder, languages: languages)
        }
        var attributes: [EntityFileEdit.AttributeChange] = []
        for choice in choices {
            let (replacement, attribute) = StructureWriting.change(choice, of: form.entity, kindFields: form.fieldOrder)
            if let replacement { replacements.append(replacement) }
            if let attribute { attributes.append(attribute) }
        }
        if !replacements.isEmpty || !attributes.isEmpty { edited = try EntityFileEdit.replacing(replacements, attributes: attributes, in: edited) }
        return edited
    }

    /// Writes `edited` over `path` through a temporary file and a rename, unless the file no
    /// longer holds `expected` (changed by someone else while this save was made): the reason
    /// it was not written, or nil.
    private func replace(_ path: String, expecting expected: [UInt8], with edited: [UInt8]) -> String? {
        let full = contentFolder + "/" + path
        let temporary = DurableFile.temporaryPath(for: full)
        do {
            try DurableFile.writeFlushed(edited, to: temporary)
            // The last moment before the rename: a change on disk since it was read is not lost.
            guard case .success(let now) = readFile(path), now == expected else {
                try? DurableFile.remove(temporary)
                return "\(path) changed on disk while it was being saved; save again to merge"
            }
            try DurableFile.move(temporary, to: full)
            return nil
        } catch {
            try? DurableFile.remove(temporary)
            return "cannot write \(path): \(error)"
        }
    }

    /// The last save of `entity` in this session not yet undone, written back as a new save
    /// (merged with the file as any save is); nil when there is none.
    func undo(_ entity: EntityReference) -> SaveOutcome? {
        guard let last = saves.withLock({ $0[entity]?.last }) else { return nil }
        var opened = last.after.texts.merging(last.after.choices) { $1 }
        for (key, rows) in last.after.lists { opened[key] = FormList.canonical(rows) }
        let outcome = save(entity, sent: last.before, opened: opened)
        // The undo's own save is not undone in turn: it goes with the save it undid.
        switch outcome {
        case .saved: saves.withLock { $0[entity]?.removeLast(2) }
        case .unchanged: _ = saves.withLock { $0[entity]?.removeLast() }
        case .conflicts, .refused: break
        }
        return outcome
    }

    /// Whether `entity` has a save to undo.
    func canUndo(_ entity: EntityReference) -> Bool {
        saves.withLock { !($0[entity]?.isEmpty ?? true) }
    }

    // MARK: Checking as typed

    /// The problems of the content with `entity`'s file as the form would write it (`sent`),
    /// checked as `digno validate` checks, the rules across files included; nil when the form's
    /// texts cannot be placed in its file (it changed and no longer parses). With the form as
    /// the file holds it, where the problems are placed.
    func check(_ entity: EntityReference, sent: FormValues) -> (form: EntityForm, problems: [Diagnostic])? {
        guard case .form(let form, let path, let bytes) = read(entity) else { return nil }
        // The form as typed, against the file as it is: what a save with nothing changed on
        // disk would write.
        let opened = form.openedValues
        let overlay: [UInt8]
        switch FormSave.decide(form: form, sent: sent.texts, opened: opened, lists: sent.lists, choices: sent.choices) {
        case .write(let changes, let lists, let choices, _):
            do { overlay = try Self.edit(bytes, form: form, changes: changes, lists: lists, choices: choices, languages: languages) } catch { return nil }
        case .unchanged, .conflicts:
            overlay = bytes
        }
        let number = latest.withLock { $0.number }
        let problems = typing.withLock { typing -> [Diagnostic]? in
            var validator = ContentValidator(contentFolder: contentFolder, today: day())
            validator.makesRenditions = false
            validator.renditionCache = nil
            validator.cache = typing.cache
            validator.reportsCoverage = false
            // The form shows its own entity's problems.
            validator.focus = [entity]
            // The folder is looked at again only when the preview has checked it since.
            validator.folderUnchanged = typing.lookedAt == number
            typing.lookedAt = number
            validator.overlays[path] = overlay
            return try? validator.validate().diagnostics
        }
        return problems.map { (form, $0) }
    }
}

/// The system's `read(2)`, named apart from the workspace's own `read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
