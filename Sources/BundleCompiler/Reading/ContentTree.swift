import CatalogContent
import CatalogModel
import Foundation

/// The files of a content folder, found by where they lie:
/// `catalog.xml`, `home.xml`, `company.xml`, `products/<id>.xml`, `recipes/<id>.xml`,
/// `retailers/<id>.xml`, and pictures under `images/`.
struct ContentTree {
    /// The content folder as given.
    var root: String
    /// The content folder with every symbolic link resolved: nothing outside it is read.
    var realRoot: String
    /// The XML files, in path order.
    var files: [ContentFile] = []
    /// Every file under `images/`, relative to the root, in path order.
    var imageFiles: [String] = []
    /// The path on disk of each file of `imageFiles` whose path there is not in Unicode NFC
    /// (decomposed, as macOS's HFS+ and some copy tools write names), by its path in NFC: the
    /// form an image's `src` is read in. Usually empty.
    var imageSpellings: [String: String] = [:]
    /// Entities whose files exist but are not read: named wrongly (with the id the name most
    /// likely meant) or linking outside the folder; and, with an empty id, each kind whose
    /// folder is refused. References to them are not reported as unknown on top of the
    /// file's or folder's own error.
    var unread: Set<EntityReference> = []
    /// Entity and image folders that are there but are not folders that may be listed (a
    /// file, or a link leading out): whatever they hold is unknown, and no use of it is judged.
    var refusedFolders: [String] = []
    /// Problems with the folder's layout.
    var diagnostics: [Diagnostic] = []

    static func scan(_ root: String) throws(CompilerError) -> ContentTree {
        switch FileSystem.entryType(root) {
        case nil: throw .contentFolderMissing(root)
        case .folder, .symlink: break
        case .file, .other: throw .contentNotAFolder(root)
        }
        guard let realRoot = FileSystem.realPath(root), FileSystem.entryType(realRoot) == .folder else {
            throw .contentNotAFolder(root)
        }
        var tree = ContentTree(root: root, realRoot: realRoot)
        let topLevel = Set(try FileSystem.list(root))
        // Each entity folder is listed into a part of its own, products (as large as recipes
        // and retailers together in a typical catalogue) on another core, then the parts are
        // joined in the order of the kinds.
        let folders = ContentFileKind.allCases.compactMap { kind in kind.folder.map { (kind: kind, folder: $0) } }
            .filter { topLevel.contains($0.folder) && tree.isListableFolder($0.folder) }
        @Sendable func part(_ kind: ContentFileKind, _ folder: String) throws(CompilerError) -> ContentTree {
            var part = ContentTree(root: root, realRoot: realRoot)
            try part.scanEntityFolder(folder, kind: kind)
            return part
        }
        let products = folders.first { $0.kind == .product }.map { kind, folder in
            Background { () throws(CompilerError) -> ContentTree in try part(kind, folder) }
        }
        let others = Result { () throws(CompilerError) -> [ContentFileKind: ContentTree] in
            var parts: [ContentFileKind: ContentTree] = [:]
            for (kind, folder) in folders where kind != .product { parts[kind] = try part(kind, folder) }
            return parts
        }
        let productPart = Result { () throws(CompilerError) in try products?.wait() }  // waited for even when `others` failed
        var parts = try others.get()
        parts[.product] = try productPart.get()
        for kind in ContentFileKind.allCases {
            if let name = kind.singleFileName {
                if topLevel.contains(name) {
                    tree.add(ContentFile(path: name, kind: kind, id: ""), type: FileSystem.entryType(root + "/" + name))
                } else {
                    tree.diagnostics.append(Diagnostic(.error, .missingFile, file: name,
                        message: "\(name) is missing; every content folder needs catalog.xml, home.xml and company.xml"))
                }
            } else if let part = parts[kind] {
                tree.files += part.files
                tree.diagnostics += part.diagnostics
                tree.unread.formUnion(part.unread)
            }
        }
        for name in topLevel.sorted() where name.hasSuffix(".xml") && !ContentFileKind.allCases.contains(where: { $0.singleFileName == name }) {
            tree.diagnostics.append(Diagnostic(.warning, .unexpectedFile, file: name,
                message: "\(name) is not part of the content and is ignored; products, recipes and retailers go in products/, recipes/ and retailers/"))
        }
        if topLevel.contains("images"), tree.isListableFolder("images") {
            try tree.scanImages("images")
        }
        return tree
    }

    private mutating func add(_ file: ContentFile, type: FileSystem.EntryType?) {
        let absolute = root + "/" + file.path
        var target = type
        if type == .symlink {
            guard let real = FileSystem.realPath(absolute) else {
                diagnostics.append(Diagnostic(.error, .brokenLink, file: file.path, entity: file.entity,
                    message: "\(file.path) is a symbolic link to nothing (its target does not exist, or links loop); replace it with the file itself"))
                if !file.id.isEmpty { unread.insert(file.entity) }
                return
            }
            guard isInside(real) else {
                diagnostics.append(Diagnostic(.error, .fileOutsideRoot, file: file.path, entity: file.entity,
                    message: "\(file.path) is a symbolic link that leads outside the content folder; replace it with the file itself"))
                if !file.id.isEmpty { unread.insert(file.entity) }
                return
            }
            target = FileSystem.entryType(real)
        }
        // A folder where a file belongs is the content's mistake, not the machine's: an error
        // of its own rather than a file that cannot be read (`file-unreadable`, exit status 2).
        if target == .folder {
            diagnostics.append(Diagnostic(.error, .notAFile, file: file.path, entity: file.entity,
                message: "\(file.path) is a folder; a content file belongs here: move the folder out of the content folder and save the file as \(file.path)"))
            if !file.id.isEmpty { unread.insert(file.entity) }
            return
        }
        files.append(file)
    }

    /// Whether `name`, at the top of the content folder, is a folder that may be listed: a
    /// folder, or a symbolic link to one inside the content folder. Anything else is an error
    /// here, and the folder is passed over as if it were missing: a file cannot be listed, and
    /// a link leading out would read files from outside the content folder.
    private mutating func isListableFolder(_ name: String) -> Bool {
        let type = FileSystem.entryType(root + "/" + name)
        let real = type == .symlink ? FileSystem.realPath(root + "/" + name) : nil
        let refusal: (code: DiagnosticCode, message: String)
        if type == .folder || real.map({ isInside($0) && FileSystem.entryType($0) == .folder }) == true {
            return true
        } else if type == .symlink && real == nil {
            refusal = (.brokenLink, "\(name) is a symbolic link to nothing (its target does not exist, or links loop); replace it with the folder itself")
        } else if let real, !isInside(real) {
            refusal = (.fileOutsideRoot, "\(name) is a symbolic link that leads outside the content folder; replace it with the folder itself")
        } else {
            refusal = (.notAFolder, "\(name) is not a folder; \(name)/ must be a folder\(name == "images" ? " of pictures" : " of <id>.xml files"): move the file away and create the folder")
        }
        diagnostics.append(Diagnostic(.error, refusal.code, file: name, message: refusal.message))
        refusedFolders.append(name)
        if let kind = ContentFileKind.allCases.first(where: { $0.folder == name }) { unread.insert(EntityReference(kind.entityKind)) }
        return false
    }

    private mutating func scanEntityFolder(_ folder: String, kind: ContentFileKind) throws(CompilerError) {
        let entries = try FileSystem.listWithTypes(root + "/" + folder).filter { !$0.name.hasPrefix(".") }
        // The id each wrongly named file meant. A name is suggested only if no file of the
        // folder has it and no other file would be given it: renaming Espresso.xml beside
        // espresso.xml, or both Cafe-Latte.xml and cafe-latte.XML, would replace a file.
        let names = Set(entries.map(\.name))
        let meantIDs = entries.map { Self.meantID($0.name, type: $0.type) }
        var meant: [String: Int] = [:]
        for id in meantIDs.compactMap({ $0 }) { meant[id, default: 0] += 1 }
        func suggestion(_ id: String) -> String? {
            isValidSlug(id) && !names.contains(id + ".xml") && meant[id] == 1 ? id + ".xml" : nil
        }
        func whyNone(_ id: String) -> String {
            guard isValidSlug(id) else { return "" }
            return names.contains(id + ".xml") ? " (\(id).xml is taken)" : " (\(id).xml would fit more than one file)"
        }
        for ((name, type), meantID) in zip(entries, meantIDs) {
            let path = folder + "/" + name
            // espresso.XML is meant as content: an error, not a file silently ignored (whose
            // product would then be missing, or unknown to every recipe naming it).
            if let id = meantID {
                let message = name.hasSuffix(".xml")
                    ? "file name '\(name.dropLast(4))' is not a valid id; use lower-case letters, digits and single hyphens, at most 64 characters"
                        + (suggestion(id).map { ", for example '\($0)'" } ?? whyNone(id))
                    : "file name '\(name)' does not end in lower-case .xml; rename it to " + (suggestion(id) ?? "<id>.xml" + whyNone(id))
                diagnostics.append(Diagnostic(.error, .invalidFileName, file: path,
                                              entity: EntityReference(kind.entityKind, name.hasSuffix(".xml") ? String(name.dropLast(4)) : id),
                                              message: message))
                unread.insert(EntityReference(kind.entityKind, id))
                continue
            }
            guard name.hasSuffix(".xml") else {
                diagnostics.append(Diagnostic(.warning, .unexpectedFile, file: path,
                    message: "\(path) is not an XML file and is ignored; only <id>.xml files belong in \(folder)/"))
                continue
            }
            add(ContentFile(path: path, kind: kind, id: String(name.dropLast(4))), type: type)
        }
    }

    /// The id a content file's name meant, when the name is not `<id>.xml` but was meant as
    /// content: `Espresso.xml` or `espresso.XML` (`espresso`); nil for a good name, or for a
    /// file that is not XML at all.
    private static func meantID(_ name: String, type: FileSystem.EntryType?) -> String? {
        let stem = String(name.dropLast(4))
        if name.hasSuffix(".xml") { return isValidSlug(stem) ? nil : slug(from: stem) }
        return type != .folder && name.count > 4 && name.lowercased().hasSuffix(".xml") ? slug(from: stem) : nil
    }

    private mutating func scanImages(_ folder: String) throws(CompilerError) {
        // Names that are the same text written with different code points ("é" as one, or as
        // "e" and a combining accent): Swift's strings, and so every lookup by path, take them
        // for one name, and macOS for one file. Keyed by the name as a `String`, which compares
        // canonically; the listing compares bytes. With this rule a `src`, read in NFC, names
        // at most one file in either spelling (`imageSpellings`).
        var seen: [String: String] = [:]
        for (name, type) in try FileSystem.listWithTypes(root + "/" + folder) where !name.hasPrefix(".") {
            let path = folder + "/" + name
            if let other = seen[name], !other.utf8.elementsEqual(name.utf8) {
                diagnostics.append(Diagnostic(.error, .invalidFileName, file: path,
                    message: "\(path) and \(folder)/\(other) have names that look the same but are written differently "
                        + "(an accent as part of its letter in one, as a separate mark in the other); rename one of them"))
                continue
            }
            seen[name] = name
            if type == .folder {
                try scanImages(path)
            } else {
                imageFiles.append(path)
                let normalized = NFC.normalized(path)
                if !normalized.utf8.elementsEqual(path.utf8) { imageSpellings[normalized] = path }
            }
        }
    }

    /// Adds the content files among `paths` (relative to the content folder) that are not in
    /// the tree yet, where the layout has a place for them: an editor's new file not saved yet.
    mutating func include(_ paths: some Collection<String>) {
        guard !paths.isEmpty else { return }
        // A few paths (an editor's open files) are looked for one by one: a set of every
        // file's path, made at each keystroke in `digno lsp`, cost more than the search.
        let known = paths.count > 8 ? Set(files.map(\.path)) : nil
        for path in paths where !(known?.contains(path) ?? files.contains { $0.path == path }) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 1, let kind = ContentFileKind.allCases.first(where: { $0.singleFileName == path }) {
                files.append(ContentFile(path: path, kind: kind, id: ""))
                diagnostics.removeAll { $0.code == .missingFile && $0.file == path }
            } else if parts.count == 2, parts[1].hasSuffix(".xml"), isValidSlug(String(parts[1].dropLast(4))),
                      let kind = ContentFileKind.allCases.first(where: { $0.folder == parts[0] }), !refusedFolders.contains(parts[0]) {
                files.append(ContentFile(path: path, kind: kind, id: String(parts[1].dropLast(4))))
            }
        }
    }

    /// Whether a resolved absolute path lies inside the content folder.
    func isInside(_ realPath: String) -> Bool {
        realPath == realRoot || realPath.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// A best guess at the id a wrongly named file meant: lower case, accents dropped, other
    /// characters made hyphens, and whole words kept up to the 64-character limit.
    static func slug(from name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let parts = folded.unicodeScalars.split { !(("a"..."z").contains($0) || ("0"..."9").contains($0)) }
            .map { String(String.UnicodeScalarView($0)) }
        var slug = ""
        for part in parts {
            let longer = slug.isEmpty ? part : slug + "-" + part
            if longer.utf8.count > 64 { return slug.isEmpty ? String(part.prefix(64)) : slug }
            slug = longer
        }
        return slug
    }
}
