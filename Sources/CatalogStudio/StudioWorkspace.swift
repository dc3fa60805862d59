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
    private let latest = LockedValue<(report: ValidationReport?, number: Int)>((nil, 0))
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

    /// One save: each text's key with its value before and after.
    struct Saved: Sendable, Equatable {
        var before: [String: String]
        var after: [String: String]
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
            return .form(EntityForm(entity, found, languages: languages), path: path, bytes: bytes)
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

    /// The bytes of a content file, the folders on its way and the file itself no links.
    func readFile(_ path: String) -> Result<[UInt8], FileFailure> {
        if let failure = checkPlace(path) { return .failure(failure) }
        let full = contentFolder + "/" + path
        guard DurableFile.exists(full) else { return .failure(.missing) }
        guard let size = DurableFile.size(full, regularFileOnly: true, followingLinks: false) else { return .failure(.notAFile(path)) }
        guard size <= Self.fileLimit else { return .failure(.tooLarge(path)) }
        let descriptor = open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.system("cannot open \(path): \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Self.fileLimit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .failure(.system("cannot read \(path): \(String(cString: strerror(errno)))")) }
            if read == 0 { break }
            count += read
        }
        guard count <= Self.fileLimit else { return .failure(.tooLarge(path)) }
        return .success(Array(bytes[..<count]))
    }

    /// Why `path` (made from an entity's id, never from a request's words) is no place to read
    /// or write: a folder on its way is a link (which could lead out of the content folder).
    private func checkPlace(_ path: String) -> FileFailure? {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return .notAFile(path) }
        let folders = path.split(separator: "/").dropLast()
        var folder = contentFolder
        for part in folders {
            folder += "/" + part
            guard DurableFile.isFolder(folder) else { return DurableFile.exists(folder) ? .notAFile(path) : .missing }
        }
        return nil
    }

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
    func save(_ entity: EntityReference, sent: [String: String], opened: [String: String]) -> SaveOutcome {
        guard case .form(let form, let path, let bytes) = read(entity) else {
            switch read(entity) {
            case .unreadable(let path, let reason, _): return .refused("\(path) cannot be saved as a form: \(reason); fix it in a text editor first")
            default: return .refused("there is no file for \(entity) any more")
            }
        }
        switch FormSave.decide(form: form, sent: sent, opened: opened) {
        case .unchanged: return .unchanged
        case .conflicts(let conflicts): return .conflicts(conflicts)
        case .write(let changes, let merged):
            let edited: [UInt8]
            do { edited = try EntityFileEdit.applying(changes, to: bytes, languages: languages) } catch { return .refused(error.description) }
            if let failure = replace(path, expecting: bytes, with: edited) { return .refused(failure) }
            let keys = changes.map { EntityForm.key($0.field, $0.language ?? languages.first ?? .finnish) }
            let before = Dictionary(uniqueKeysWithValues: keys.map { ($0, form.field($0)?.value ?? "") })
            let after = Dictionary(uniqueKeysWithValues: keys.map { ($0, sent[$0] ?? "") })
            saves.withLock { $0[entity, default: []].append(Saved(before: before, after: after)) }
            return .saved(path: path, merged: merged)
        }
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
        let outcome = save(entity, sent: last.before, opened: last.after)
        // The undo's own save is not undone in turn: it goes with the save it undid.
        switch outcome {
        case .saved: saves.withLock { $0[entity]?.removeLast(2) }
        case .unchanged: saves.withLock { $0[entity]?.removeLast() }
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
    /// texts cannot be placed in its file (it changed and no longer parses).
    func check(_ entity: EntityReference, sent: [String: String]) -> [Diagnostic]? {
        guard case .form(let form, let path, let bytes) = read(entity) else { return nil }
        var changes: [EntityFileEdit.Change] = []
        for field in form.fields where field.rich == nil {
            guard let mine = sent[field.key], mine != field.value else { continue }
            changes.append(EntityFileEdit.Change(entity: entity, field: field.path, language: field.language,
                                                 value: field.language != nil && mine.isEmpty ? nil : mine))
        }
        let overlay: [UInt8]
        do { overlay = try EntityFileEdit.applying(changes, to: bytes, languages: languages) } catch { return nil }
        let number = latest.withLock { $0.number }
        return typing.withLock { typing -> [Diagnostic]? in
            var validator = ContentValidator(contentFolder: contentFolder, today: day())
            validator.makesRenditions = false
            validator.renditionCache = nil
            validator.cache = typing.cache
            // The folder is looked at again only when the preview has checked it since.
            validator.folderUnchanged = typing.lookedAt == number
            typing.lookedAt = number
            validator.overlays[path] = overlay
            return try? validator.validate().diagnostics
        }
    }
}
