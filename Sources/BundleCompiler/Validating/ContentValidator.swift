import CatalogContent
import CatalogModel
import Foundation

/// Checks a content folder: the files (`FileLoader`), then the catalogue rules shared with
/// clients (`Catalog.validate`), then the images (`ImageChecker`). Collects every problem and
/// returns them together, each with file, line and column.
package struct ContentValidator: Sendable {
    /// The content folder.
    package var contentFolder: String
    /// The day promotions are judged against; nil skips the `promotion-ended` check.
    package var today: Day?
    /// Languages a missing translation into is an error (`--require-language`), besides those
    /// catalog.xml marks required.
    package var requiredLanguages: Set<LanguageCode>
    /// An earlier release to find outdated translations against (`--since`): its catalogue,
    /// every language's texts, and its release version.
    package var since: (catalog: Catalog, release: String)?
    /// Where the pictures' renditions are kept between runs: by default `.digno-cache/renditions`
    /// in the folder that holds the content folder; nil keeps none.
    package var renditionCache: String?
    /// How many pictures are rendered at once; nil: one per core. The renditions are the same
    /// bytes whatever the number.
    package var renditionWorkers: Int?
    /// False checks every picture's file and header but makes no rendition (the report's
    /// `pictures` is empty, and a picture libvips cannot decode past its header goes unnoticed):
    /// for the content fuzz target, whose inputs are XML; the pictures have their own.
    package var makesRenditions = true
    /// The preview's: pictures whose renditions are not in the cache are built with their
    /// stand-ins and left to it (`RenditionDeferral`); nil renders every picture now.
    package var deferral: RenditionDeferral?
    /// Content files' texts that stand in for what is on disk, by path in the content folder:
    /// an editor's unsaved texts (`digno lsp`). A path with no file on disk is read as a new
    /// file when the layout has a place for it.
    package var overlays: [String: [UInt8]] = [:]
    /// What each file gave at the last check with this cache: files whose bytes are the same
    /// are not parsed again (`digno preview`, `digno lsp`). The report is the same without it.
    package var cache: LoadCache?
    /// The caller vouches that nothing in the folder changed on disk since the last check with
    /// `cache` (the language server, told by the editor's file watching of every change):
    /// that check's listing is taken again and its files are not even stamped, only the
    /// overlays read. False (the default), or with no listing kept, the folder is listed and
    /// every file stamped as usual.
    package var folderUnchanged = false
    /// The caller vouches that since the last check with `cache`, nothing in the folder changed
    /// on disk but the files at these paths (relative to the folder; the preview, told by the
    /// kernel). While each is a file of the last listing still there, or a file that is neither
    /// there nor was listed (an editor's temporary file, renamed away), that listing is taken
    /// again and only these files are read; a file added or removed, or a folder, lists the
    /// folder again. Nil (the default): the folder is listed and every file stamped.
    package var changedOnDisk: Set<String>?
    /// False leaves the report's `coverage` empty: a check whose caller shows no coverage (the
    /// studio's as typed, `digno lsp`'s) skips the walk over every translatable text.
    package var reportsCoverage = true
    /// The entities whose problems the catalogue's rules and the pictures' checks are asked
    /// for (`Catalog.validate(focus:)`, `ImageChecker.focus`): a form's check as typed wants its
    /// own entity's. Nil: every entity's. The files' own problems (each parse, the schema) are
    /// reported whatever the focus; an image no content uses is looked for only without one,
    /// and renditions are made of the focus's pictures alone.
    package var focus: Set<EntityReference>?

    /// A validator for the content folder at `contentFolder`.
    package init(contentFolder: String, today: Day? = nil, requiredLanguages: Set<LanguageCode> = [],
                 since: (catalog: Catalog, release: String)? = nil) {
        self.contentFolder = contentFolder
        self.today = today
        self.requiredLanguages = requiredLanguages
        self.since = since
        self.renditionCache = RenditionCache.beside(contentFolder: contentFolder).folder
    }

    /// Checks everything. Throws only when the folder itself cannot be read; every problem in
    /// the content is a diagnostic in the report.
    /// `progress` hears each stage as it starts, in words.
    package func validate(progress: (String) -> Void = { _ in }) throws(CompilerError) -> ValidationReport {
        let libxml = try LibXML.shared.get()
        progress("listing \(contentFolder)")
        let changed: Set<String> = folderUnchanged ? [] : changedOnDisk ?? []
        let unchanged = folderUnchanged || changedOnDisk != nil ? cache?.listing.flatMap { Self.holds($0, changed) ? $0 : nil } : nil
        var tree: ContentTree
        if let unchanged { tree = unchanged } else { tree = try ContentTree.scan(contentFolder) }
        if unchanged == nil { cache?.listing = tree }
        // A picture changed on disk is read again, not taken from the cache.
        for path in changed where path.hasPrefix("images/") { cache?.forgetPicture(at: tree.root + "/" + path) }
        tree.include(overlays.keys)
        progress("parsing \(tree.files.count) files")
        var assembly: CatalogAssembly
        if unchanged != nil, let kept = cache?.takeAssembly(), kept.holds(tree.files) {
            // Nothing changed on disk: only the editor's texts, now or at the last check.
            assembly = kept
            let loader = try FileLoader(root: tree.root, libxml: libxml, overlays: overlays, cache: cache, trustsCache: true)
            for path in Set(overlays.keys).union(kept.overlaid).sorted() {
                guard let index = assembly.index(of: path) else { continue }
                assembly.replace(at: index, with: loader.load(assembly.loaded[index].file))
            }
            // The files changed on disk: read again, their stamps asked.
            let changedFiles = changed.subtracting(overlays.keys).sorted()
            if !changedFiles.isEmpty {
                let reader = try FileLoader(root: tree.root, libxml: libxml, overlays: overlays, cache: cache, trustsCache: false)
                for path in changedFiles {
                    guard let index = assembly.index(of: path) else { continue }
                    assembly.replace(at: index, with: reader.load(assembly.loaded[index].file))
                }
            }
        } else {
            // Trusted only when nothing changed on disk: else every file's stamp is asked.
            let loaded = try Self.loadAll(tree.files, root: tree.root, libxml: libxml, overlays: overlays, cache: cache,
                                          trusted: unchanged != nil && changed.isEmpty)
            if unchanged == nil { cache?.keep(only: Set(tree.files.map(\.path))) }
            assembly = CatalogAssembly(loaded)
        }
        assembly.overlaid = Set(overlays.keys)
        let loaded = assembly.loaded
        progress("checking the catalogue and its images")
        let catalog = assembly.catalog
        // The catalogue rules and the image checks are independent: one core each.
        let unloaded = assembly.unloaded.union(tree.unread)
        // Without catalog.xml's declarations, translations cannot be judged: one note, not a
        // `language-undeclared` per translation in every file.
        let languagesKnown = assembly.hasHeader
        let memo = cache?.rules
        let rules = Background<[EntityDiagnostic], Never> { [today, requiredLanguages, since, focus] in
            catalog.validate(today: today, unloaded: unloaded, requiredLanguages: requiredLanguages, languagesKnown: languagesKnown, memo: memo,
                             focus: focus)
                + (since.map { catalog.outdatedTranslations(since: $0.catalog, release: $0.release) } ?? [])
        }
        var diagnostics = tree.diagnostics
        for index in loaded.indices where !loaded[index].diagnostics.isEmpty { diagnostics += loaded[index].diagnostics }
        diagnostics += Self.checkDeclaredIDs(loaded)
        diagnostics += SchemaCheck.diagnostics(tree: tree, loaded: loaded)
        if !languagesKnown, catalog.hasTranslations {
            diagnostics.append(Diagnostic(.warning, .translationsUnchecked, file: "catalog.xml",
                message: "translations were not checked: catalog.xml, which declares the languages, could not be read; fix it first"))
        }
        let renderer = makesRenditions ? PictureRenderer(cache: renditionCache.map(RenditionCache.init(folder:)), workers: renditionWorkers, deferral: deferral) : nil
        var images = ImageChecker(tree: tree, renderer: renderer, cache: cache, trustsCache: unchanged != nil)
        images.focus = focus
        let imageResult = images.check(catalog)
        // While any file is unread, the images it uses are unknown: none is called unused.
        // With a focus, only its images are known (and an unused image concerns no entity).
        if assembly.broken.isEmpty && tree.unread.isEmpty && tree.refusedFolders.isEmpty && focus == nil {
            diagnostics += images.unused(imageResult.used)
        }
        diagnostics = diagnostics.map { Self.suggestingID($0, in: catalog) }
        let pending = rules.wait() + imageResult.diagnostics + HostScripts.diagnostics(catalog)
        let located = try locate(pending, assembly: assembly, tree: tree, libxml: libxml)
        diagnostics += located
        cache?.keep(assembly)
        return ValidationReport(
            diagnostics: diagnostics.sorted(by: Diagnostic.printOrder),
            fileCount: tree.files.count + tree.imageFiles.count,
            catalog: assembly.singlesPresent ? catalog : nil,
            coverage: reportsCoverage ? catalog.translationCoverage() : [],
            uncounted: assembly.broken.sorted(),
            fileDigests: loaded.compactMap { item in item.sha256.map { ContentDigest.Entry(path: item.file.path, sha256: $0) } },
            pictures: imageResult.renditions,
            budget: assembly.budget)
    }

    /// Whether the listing `tree` still holds with only `changed` changed: each is one of its
    /// files still there, or a file neither there nor listed.
    static func holds(_ tree: ContentTree, _ changed: Set<String>) -> Bool {
        guard !changed.isEmpty else { return true }
        let listed = Set(tree.files.map(\.path)).union(tree.imageFiles)
        return changed.allSatisfy { path in
            let type = FileSystem.entryType(tree.root + "/" + path)
            return listed.contains(path) ? type == .file : type == nil
        }
    }

    /// Parses every file, on every core: each worker has its own libxml2 contexts.
    /// `trusted`: the files the cache read from disk are taken as they were, not stamped
    /// (`folderUnchanged`).
    static func loadAll(_ files: [ContentFile], root: String, libxml: LibXML, overlays: [String: [UInt8]] = [:],
                        cache: LoadCache? = nil, trusted: Bool = false) throws(CompilerError) -> [LoadedFile] {
        let workers = max(1, min(files.count, ProcessInfo.processInfo.activeProcessorCount))
        return try Parallel.map(files, workers: workers, makeWorker: { _ throws(CompilerError) in
            try FileLoader(root: root, libxml: libxml, overlays: overlays, cache: cache, trustsCache: trusted)
        }) {
            loader, file in loader.load(file)
        }
    }

    /// A reference written as the entity's name (`product="Kolumbia Supremo"`), which the
    /// schema refuses as no id, with the id it meant: a product or recipe whose name it is, or
    /// whose id it makes as a file name would (`kolumbia-supremo`).
    static func suggestingID(_ diagnostic: Diagnostic, in catalog: Catalog) -> Diagnostic {
        guard diagnostic.code == .schemaInvalid,
              let match = diagnostic.message.prefixMatch(of: #/the attribute (product|recipe) of <[a-z]+> holds '(.+?)', which is not accepted; /#)
        else { return diagnostic }
        let written = String(match.2)
        func folded(_ text: String) -> String { text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let entities: [(id: String, name: String)] = match.1 == "product"
            ? catalog.products.map { ($0.id.rawValue, $0.name) } : catalog.recipes.map { ($0.id.rawValue, $0.name) }
        let slug = ContentTree.slug(from: written)
        guard let meant = entities.first(where: { folded($0.name) == folded(written) }) ?? entities.first(where: { $0.id == slug }) else {
            return diagnostic
        }
        var suggested = diagnostic
        suggested.message += " (did you mean '\(meant.id)', the id of \(meant.name)?)"
        return suggested
    }

    /// A root element whose id differs from its file name: a copy that was not renamed, or a
    /// renamed file whose id was not.
    static func checkDeclaredIDs(_ loaded: [LoadedFile]) -> [Diagnostic] {
        let mismatched = loaded.filter { item in
            // An id that is not a valid id at all is the schema's to report (its Slug type):
            // suggesting a file named after it would suggest an invalid name.
            guard !item.file.id.isEmpty, let declared = item.declaredID, isValidSlug(declared) else { return false }
            return declared != item.file.id
        }
        // Every file's id is indexed only when some file needs it, not on every build.
        guard !mismatched.isEmpty else { return [] }
        var stems: [ContentFileKind: [String: String]] = [:]
        for item in loaded where !item.file.id.isEmpty { stems[item.file.kind, default: [:]][item.file.id] = item.file.path }
        return mismatched.compactMap { item in
            guard let declared = item.declaredID else { return nil }
            if let other = stems[item.file.kind]?[declared] {
                return Diagnostic(.error, .duplicateID, file: item.file.path, position: item.rootPosition, entity: item.file.entity,
                                  message: "id '\(declared)' is already the id of \(other); ids come from file names: set id=\"\(item.file.id)\" to match this file's name")
            }
            return Diagnostic(.error, .idMismatch, file: item.file.path, position: item.rootPosition, entity: item.file.entity,
                              message: "id '\(declared)' differs from the file name; set id=\"\(item.file.id)\", or rename the file to \(declared).xml")
        }
    }

    /// Gives each pending diagnostic the file, line and column of its field, re-reading only the
    /// files that have diagnostics: each once, with its diagnostics together, its tree freed before the
    /// next file is read.
    private func locate(_ pending: [EntityDiagnostic], assembly: CatalogAssembly, tree: ContentTree, libxml: LibXML) throws(CompilerError) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        let loader = try FileLoader(root: tree.root, libxml: libxml, overlays: overlays)
        let files = assembly.fileIndex(only: Set(pending.flatMap { [$0.entity] + ($0.clash.map { [$0.other] } ?? []) }))
        var diagnosticsByFile: [String: [Int]] = [:]
        var filesToRead: [ContentFile] = []
        for (index, diagnostic) in pending.enumerated() {
            // A file with errors of its own is not read again: they are already reported.
            guard let file = files.file(of: diagnostic.entity), !assembly.broken.contains(file.path) else { continue }
            if diagnosticsByFile[file.path] == nil { filesToRead.append(file) }
            diagnosticsByFile[file.path, default: []].append(index)
        }
        var positions = [SourcePosition?](repeating: nil, count: pending.count)
        // Where the other of two entities given one id or name is, when it is in the same file:
        // the message names it by its line.
        var otherPositions = [SourcePosition?](repeating: nil, count: pending.count)
        for file in filesToRead {
            let indices = diagnosticsByFile[file.path] ?? []
            let others = indices.filter { index in
                pending[index].clash.map { files.file(of: $0.other)?.path == file.path } ?? false
            }
            let found = loader.positions(in: file, of: indices.map {
                    (FieldElementKey(entity: pending[$0].entity, field: pending[$0].field, language: pending[$0].language), pending[$0].attribute)
                }
                + others.compactMap { index in
                    pending[index].clash.map { (FieldElementKey(entity: $0.other, field: $0.field, language: pending[index].language), nil) }
                })
            for (index, position) in zip(indices, found.prefix(indices.count)) { positions[index] = position }
            for (index, position) in zip(others, found.dropFirst(indices.count)) { otherPositions[index] = position }
        }
        var result: [Diagnostic] = []
        for (index, (diagnostic, position)) in zip(pending, positions).enumerated() {
            guard let file = files.file(of: diagnostic.entity) else {
                // A missing catalog.xml, home.xml or company.xml is reported already; other
                // diagnostics without a file concern a whole folder, such as `no-products`.
                guard let folder = ContentFileKind.allCases.first(where: { $0.entityKind == diagnostic.entity.kind })?.folder else { continue }
                result.append(Diagnostic(diagnostic.severity, diagnostic.code, file: folder, entity: diagnostic.entity, language: diagnostic.language,
                                         message: diagnostic.message))
                continue
            }
            if assembly.broken.contains(file.path) { continue }
            var message = diagnostic.message
            if let clash = diagnostic.clash, let other = files.file(of: clash.other) {
                // The other entity by its file, or, in the same file, by its line.
                if other.path != file.path {
                    message = clash.message(naming: other.path)
                } else if let line = otherPositions[index]?.line {
                    message = clash.message(naming: "the \(clash.other.kind.rawValue) at line \(line)")
                }
            }
            var located = Diagnostic(diagnostic.severity, diagnostic.code, file: file.path, line: position?.line, column: position?.column,
                                     entity: diagnostic.entity, language: diagnostic.language, message: message)
            located.field = diagnostic.field
            result.append(located)
        }
        return result
    }
}
