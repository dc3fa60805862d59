import CatalogContent
import CatalogModel

/// Whether editors' tools find the content's schema (`ContentSchema`): `schema/content.xsd` and
/// `schema/xml.xsd` as the compiler's own, and each content file naming it. Warnings only, each
/// naming `digno schema --write`, which puts everything right: the content itself is judged
/// against the compiler's embedded copy either way.
enum SchemaCheck {
    /// The largest schema file read: the compiler's own are a few tens of KiB.
    static let maxSchemaSize = 1024 * 1024

    static let fix = "run `digno schema --write` (it changes nothing else)"

    /// The most files told one by one that they name no schema; more get one warning together.
    static let maxFilesNamed = 10

    /// One warning for a folder that was never set up (no schema and no file naming one), else
    /// one per schema file missing or not the compiler's, and one per content file that names
    /// no schema or another (one for them all when they are more than `maxFilesNamed`). Files with errors of their own are passed over: they are reported
    /// already, and may not have been read as far as their root element.
    static func diagnostics(tree: ContentTree, loaded: [LoadedFile]) -> [Diagnostic] {
        // One pass over the files by index, keeping the files that do not name the schema
        // as they should: copying each file's whole `LoadedFile` (its parsed entity), or even
        // keeping every file's path, cost more than the rest of the check at a keystroke.
        var unnamed: [(path: String, reference: ContentSchema.Reference, position: SourcePosition?)] = []
        var anyNamed = false, anyRead = false
        for index in loaded.indices {
            guard let reference = loaded[index].schemaReference, case .some = loaded[index].entity,
                  !loaded[index].diagnostics.contains(where: { $0.severity == .error }) else { continue }
            anyRead = true
            if reference != .missing { anyNamed = true }
            if reference != .named { unnamed.append((loaded[index].file.path, reference, loaded[index].schemaReferencePosition)) }
        }
        let copies = ContentSchema.files.map { file in
            (path: file.path, expected: file.bytes, found: read(file.path, in: tree))
        }
        let noCopy = copies.allSatisfy { if case .failure(.unreadable) = $0.found { true } else { false } }
        if noCopy && !anyNamed {
            guard anyRead else { return [] }
            return [Diagnostic(.warning, .schemaMissing, file: ContentSchema.path,
                message: "the content folder has no schema for editors' tools (\(ContentSchema.path)) and no file names one, "
                    + "so an XML editor gives no completion or checks as you type; \(fix)")]
        }
        var result: [Diagnostic] = []
        for copy in copies {
            switch copy.found {
            case .success(let bytes) where bytes == copy.expected:
                continue
            case .success(let bytes):
                let found = ContentSchema.version(of: bytes)
                let verdict: String
                if copy.path != ContentSchema.path || found == ContentSchema.version {
                    verdict = "differs from this digno's own (changed by hand?)"
                } else if let found, found > ContentSchema.version {
                    result.append(Diagnostic(.warning, .schemaOutdated, file: copy.path,
                        message: "\(copy.path) is version \(found) of the content's schema, newer than this digno's (version \(ContentSchema.version)): "
                            + "install the newer digno; this one may refuse what the newer schema allows"))
                    continue
                } else {
                    verdict = "is " + (found.map { "version \($0)" } ?? "an older version") + " of the content's schema; this digno's is version \(ContentSchema.version)"
                }
                result.append(Diagnostic(.warning, .schemaOutdated, file: copy.path,
                    message: "\(copy.path) \(verdict), so an editor checks against other rules than digno's; \(fix)"))
            case .failure(.tooLarge):
                result.append(Diagnostic(.warning, .schemaOutdated, file: copy.path,
                    message: "\(copy.path) is over \(maxSchemaSize / 1024 / 1024) MiB, so it is not digno's schema; \(fix)"))
            case .failure:
                result.append(Diagnostic(.warning, .schemaMissing, file: copy.path,
                    message: "\(copy.path) is missing, so an editor cannot find the content's schema; \(fix)"))
            }
        }
        // Many files at once (an import from another tool): one warning, at the first.
        if unnamed.count > maxFilesNamed, let first = unnamed.first {
            let examples = unnamed.prefix(3).map(\.path).joined(separator: ", ")
            result.append(Diagnostic(.warning, .schemaReferenceMissing, file: first.path, position: first.position,
                message: "\(unnamed.count) content files do not name the schema at \(ContentSchema.path) (\(examples) and \(unnamed.count - 3) more), "
                    + "so an XML editor gives no completion or checks as you type in them; \(fix)"))
            return result
        }
        for (path, reference, position) in unnamed {
            switch reference {
            case .named: continue
            case .missing:
                result.append(Diagnostic(.warning, .schemaReferenceMissing, file: path, position: position,
                    message: "the root element names no schema (xsi:\(ContentSchema.locationAttribute)=\"\(ContentSchema.reference(from: path))\"), "
                        + "so an XML editor gives no completion or checks as you type in this file; \(fix)"))
            case .elsewhere(let location):
                result.append(Diagnostic(.warning, .schemaReferenceMissing, file: path, position: position,
                    message: "the root element names the schema at '\(location)', but it is at '\(ContentSchema.reference(from: path))'; \(fix)"))
            }
        }
        return result
    }

    /// A schema file of the content folder, if it is a file inside it: nothing outside the
    /// content folder is read, even to be compared.
    private static func read(_ path: String, in tree: ContentTree) -> Result<[UInt8], FileSystem.ReadFailure> {
        guard let real = FileSystem.realPath(tree.root + "/" + path) else { return .failure(.unreadable("missing")) }
        guard tree.isInside(real) else { return .failure(.notAFile(.symlink)) }
        return FileSystem.read(real, limit: maxSchemaSize)
    }
}
