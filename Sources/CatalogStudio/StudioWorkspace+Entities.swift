import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// Entities made, copied, renamed and deleted: each a change to several files at once (the
/// entity's own, and those that name it), written together or not at all.
extension StudioWorkspace {
    /// What a change of several files did.
    enum EntityOutcome: Sendable, Equatable {
        /// Done: the entity's form to show next, and how many other files changed.
        case done(EntityReference, others: Int)
        /// Refused, with why; nothing written.
        case refused(String)
        /// The entity is used by these: deleting it was refused, nothing written.
        case used(by: [EntityReference])
    }

    /// A new product, recipe or retailer, in a file of its own laid out as the shipped ones.
    /// `icon`: its icon's (a retailer's logo's) file, `picture`: its first picture's, each under
    /// `images/`, which the schema needs.
    func create(_ kind: EntityReference.Kind, id: String, name: String, icon: String, picture: String) -> EntityOutcome {
        let entity = EntityReference(kind, id)
        guard StudioResponder.isSlug(Substring(id)) else { return .refused(Self.badID(id)) }
        guard !name.isEmpty else { return .refused("write its name") }
        let pictures = Set(pictureFiles())
        for (label, file) in [("icon", icon)] + (kind == .retailer ? [] : [("picture", picture)]) where !pictures.contains(file) {
            return .refused("choose its \(kind == .retailer ? "logo" : label) from the pictures under images/ ('\(file)' is not one)")
        }
        guard let path = EntityFileEdit.path(of: entity), let text = NewContentFile.text(kind: kind, id: id, name: name, icon: icon, picture: picture) else {
            return .refused("a new \(kind.rawValue) cannot be made here")
        }
        if let failure = commit([FileWrite(path: path, expected: nil, bytes: Array(text.utf8))]) { return .refused(failure) }
        return .done(entity, others: 0)
    }

    /// A new promotion at the end of the home's: its id, title, picture and days, in home.xml.
    func createPromotion(id: String, title: String, picture: String, firstDay: String, lastDay: String) -> EntityOutcome {
        guard StudioResponder.isSlug(Substring(id)) else { return .refused(Self.badID(id)) }
        guard !title.isEmpty else { return .refused("write its title") }
        guard let first = Day(firstDay), let last = Day(lastDay) else { return .refused("choose its first and last day") }
        guard pictureFiles().contains(picture) else { return .refused("choose its picture from the pictures under images/ ('\(picture)' is not one)") }
        let home = EntityReference(.home)
        guard let path = EntityFileEdit.path(of: home), case .success(let bytes) = readFile(path) else { return .refused("home.xml cannot be read") }
        do {
            let entities = try EntityFileReading.entities(in: bytes, path: path)
            guard let found = entities[home] as? Home else { return .refused("home.xml holds no home") }
            let ids = found.promotions.map(\.id.rawValue)
            guard !ids.contains(id) else { return .refused("a promotion has the id '\(id)' already; choose another") }
            let edited = try EntityFileEdit.children("promotion", in: "promotions", of: home, keeping: ids,
                                                     appending: [NewContentFile.promotion(id: id, title: title, firstDay: first, lastDay: last, picture: picture)], in: bytes)
            if let failure = commit([FileWrite(path: path, expected: bytes, bytes: edited)]) { return .refused(failure) }
        } catch {
            return .refused(error.description)
        }
        return .done(EntityReference(.promotion, id), others: 0)
    }

    /// A copy of `source` under `id`, named `name`: the same file with its id and name changed.
    func duplicate(_ source: EntityReference, id: String, name: String) -> EntityOutcome {
        let copy = EntityReference(source.kind, id)
        guard StudioResponder.isSlug(Substring(id)) else { return .refused(Self.badID(id)) }
        guard NewContentFile.kinds.contains(source.kind), let path = EntityFileEdit.path(of: copy),
              case .success(let bytes) = readFile(EntityFileEdit.path(of: source) ?? "") else {
            return .refused("\(source) cannot be copied")
        }
        do {
            // The copy's text, read as the copy (its root says the new id once it is set).
            var edited = try EntityFileEdit.replacing([], attributes: [.init(entity: source, name: "id", value: id)], in: bytes)
            edited = try EntityFileEdit.applying([EntityFileEdit.Change(entity: copy, field: .name, language: nil, value: name)], to: edited, languages: languages)
            if let failure = commit([FileWrite(path: path, expected: nil, bytes: edited)]) { return .refused(failure) }
        } catch {
            return .refused(error.description)
        }
        return .done(copy, others: 0)
    }

    /// `entity`'s id changed to `id`: its file renamed, its root's id, and every reference to
    /// it in the other files, all written together.
    func rename(_ entity: EntityReference, to id: String) -> EntityOutcome {
        guard NewContentFile.kinds.contains(entity.kind) else { return .refused("only a product's, recipe's or retailer's id can be changed here") }
        guard StudioResponder.isSlug(Substring(id)) else { return .refused(Self.badID(id)) }
        let renamed = EntityReference(entity.kind, id)
        guard let oldPath = EntityFileEdit.path(of: entity), let newPath = EntityFileEdit.path(of: renamed) else { return .refused("no file") }
        guard !DurableFile.exists(contentFolder + "/" + newPath) else { return .refused("\(newPath) exists already; choose another id") }
        return changeReferences(to: entity, newID: id) { ownBytes in
            let edited = try EntityFileEdit.replacing([], attributes: [.init(entity: entity, name: "id", value: id)], in: ownBytes)
            return [FileWrite(path: newPath, expected: nil, bytes: edited), FileWrite(path: oldPath, expected: ownBytes, bytes: nil)]
        } done: { .done(renamed, others: $0) }
    }

    /// `entity`'s file removed; refused while others use it, unless `removingReferences`: then
    /// every reference to it goes too, all written together.
    func delete(_ entity: EntityReference, removingReferences: Bool) -> EntityOutcome {
        guard NewContentFile.kinds.contains(entity.kind), let path = EntityFileEdit.path(of: entity) else {
            return .refused("only a product, recipe or retailer is deleted with its file")
        }
        if !removingReferences, let catalog = report?.catalog {
            let users = ReferenceEdit.users(of: entity, in: catalog)
            if !users.isEmpty { return .used(by: users) }
        }
        return changeReferences(to: entity, newID: nil) { ownBytes in
            [FileWrite(path: path, expected: ownBytes, bytes: nil)]
        } done: { .done(entity, others: $0) }
    }

    /// Every file that names `entity` edited (its references renamed to `newID`, or removed),
    /// with the entity's own file's writes from `own`, committed together.
    private func changeReferences(to entity: EntityReference, newID: String?, own: ([UInt8]) throws -> [FileWrite],
                                  done: (Int) -> EntityOutcome) -> EntityOutcome {
        guard let catalog = report?.catalog else { return .refused("the content has not been read yet; try again in a moment") }
        guard let ownPath = EntityFileEdit.path(of: entity), case .success(let ownBytes) = readFile(ownPath) else {
            return .refused("\(entity) has no file to change")
        }
        // The users' edits, file by file; several entities of one file (home.xml's promotions) in turn.
        var byFile: [String: [EntityReference]] = [:]
        for user in ReferenceEdit.users(of: entity, in: catalog) {
            guard let path = EntityFileEdit.path(of: user) else { continue }
            byFile[path, default: []].append(user)
        }
        var writes: [FileWrite] = []
        do {
            // The entity's own links to itself follow it too.
            var ownEdited = ownBytes
            if newID != nil { ownEdited = try editReferences(in: ownBytes, path: ownPath, users: [entity], to: entity, newID: newID) }
            for (path, users) in byFile.sorted(by: { $0.key < $1.key }) where path != ownPath {
                guard case .success(let bytes) = readFile(path) else { return .refused("\(path) cannot be read") }
                writes.append(FileWrite(path: path, expected: bytes, bytes: try editReferences(in: bytes, path: path, users: users, to: entity, newID: newID)))
            }
            writes += try own(ownEdited).map { write in
                // The own file's removal expects its bytes as they are on disk.
                write.bytes == nil ? FileWrite(path: write.path, expected: ownBytes, bytes: nil) : write
            }
        } catch let error as EntityFileEdit.Unplaceable {
            return .refused(error.description)
        } catch {
            return .refused("\(error)")
        }
        if let failure = commit(writes) { return .refused(failure) }
        return done(byFile.keys.filter { $0 != ownPath }.count)
    }

    /// `bytes` of `path` with each user's references to `target` renamed or removed.
    private func editReferences(in bytes: [UInt8], path: String, users: [EntityReference], to target: EntityReference, newID: String?) throws -> [UInt8] {
        var edited = bytes
        for user in users {
            let entities = try EntityFileReading.entities(in: edited, path: path)
            guard let found = entities[user] else { continue }
            let form = EntityForm(user, found, languages: languages)
            let values = ReferenceEdit.values(form, target: target, newID: newID)
            guard case .write(let changes, let lists, let choices, _) = FormSave.decide(form: form, sent: values.texts, opened: form.openedValues,
                                                                                       lists: values.lists, choices: values.choices) else { continue }
            edited = try Self.edit(edited, form: form, changes: changes, lists: lists, choices: choices, languages: languages)
        }
        return edited
    }

    static func badID(_ id: String) -> String {
        "'\(id)' is not an id: lower-case letters, digits and single hyphens, such as cafe-latte"
    }

    /// One file of a change: its new bytes (nil removes it), written only if it still holds
    /// `expected` (nil: only if there is no such file).
    struct FileWrite: Sendable {
        var path: String
        var expected: [UInt8]?
        var bytes: [UInt8]?
    }

    /// Writes every file of `writes`, each through a temporary file, then renames them all into
    /// place and removes those to remove; nothing when any file is not as expected or cannot be
    /// written. The reason it wrote nothing, or nil.
    func commit(_ writes: [FileWrite]) -> String? {
        func unchanged(_ write: FileWrite) -> Bool {
            switch readFile(write.path) {
            case .success(let now): return write.expected == now
            case .failure(.missing): return write.expected == nil
            case .failure: return false
            }
        }
        for write in writes where !unchanged(write) {
            return write.expected == nil ? "\(write.path) exists already" : "\(write.path) changed on disk meanwhile; nothing was written, try again"
        }
        var written: [String] = []
        func discard() { for path in written { try? DurableFile.remove(DurableFile.temporaryPath(for: contentFolder + "/" + path)) } }
        for write in writes {
            guard let bytes = write.bytes else { continue }
            do {
                try DurableFile.makeFolder(DurableFile.split(contentFolder + "/" + write.path).folder)
                try DurableFile.writeFlushed(bytes, to: DurableFile.temporaryPath(for: contentFolder + "/" + write.path))
                written.append(write.path)
            } catch {
                discard()
                return "cannot write \(write.path): \(error)"
            }
        }
        // The last look before the renames: a change on disk since is not lost.
        for write in writes where !unchanged(write) {
            discard()
            return "\(write.path) changed on disk meanwhile; nothing was written, try again"
        }
        for write in writes {
            let full = contentFolder + "/" + write.path
            do {
                if write.bytes != nil { try DurableFile.move(DurableFile.temporaryPath(for: full), to: full) } else { try DurableFile.remove(full) }
            } catch {
                discard()
                return "cannot write \(write.path): \(error)"
            }
        }
        return nil
    }
}
