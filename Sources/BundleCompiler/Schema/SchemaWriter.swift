import CatalogContent
import CatalogModel

/// `digno schema --write`: puts the compiler's schema in the content folder (`ContentSchema`)
/// and makes each content file's root element name it, changing no other byte of any file.
/// Each file is replaced whole (written beside it, then renamed over it): a run stopped midway
/// leaves every file as it was or as written, and a second run finishes the rest.
package enum SchemaWriter {
    /// What a run did.
    package struct Outcome: Equatable, Sendable {
        /// Schema files written, relative to the content folder (those already the compiler's are not).
        package var schemaFiles: [String] = []
        /// Content files whose root element now names the schema.
        package var named: [String] = []
        /// Files left as they were, and why: content files whose root start tag could not be
        /// read (a file that is not XML yet) or that are symbolic links, and a schema newer
        /// than the compiler's.
        package var skipped: [(path: String, reason: String)] = []
        /// Content files that named the schema already.
        package var unchanged = 0

        package static func == (a: Outcome, b: Outcome) -> Bool {
            a.schemaFiles == b.schemaFiles && a.named == b.named && a.unchanged == b.unchanged
                && a.skipped.map(\.path) == b.skipped.map(\.path) && a.skipped.map(\.reason) == b.skipped.map(\.reason)
        }
    }

    /// Why a run stopped: the folder could not be read, or a file could not be written.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case folder(CompilerError)
        case write(DurableFileError)

        package var description: String {
            switch self {
            case .folder(let error): error.description
            case .write(let error): error.description
            }
        }
    }

    /// Writes what is missing or out of date in `contentFolder`.
    package static func write(contentFolder: String) throws(Failure) -> Outcome {
        let tree: ContentTree
        do { tree = try ContentTree.scan(contentFolder) } catch { throw .folder(error) }
        var outcome = Outcome()
        do {
            try DurableFile.makeFolder(contentFolder + "/" + ContentSchema.folder)
            for file in ContentSchema.files {
                let path = contentFolder + "/" + file.path
                if case .success(let bytes) = FileSystem.read(path, limit: SchemaCheck.maxSchemaSize), FileSystem.entryType(path) == .file {
                    if bytes == file.bytes { continue }
                    // A newer digno's schema is not taken back to this one's.
                    if file.path == ContentSchema.path, let found = ContentSchema.version(of: bytes), found > ContentSchema.version {
                        outcome.skipped.append((file.path, "it is version \(found) of the content's schema, newer than this digno's (\(ContentSchema.version)): install the newer digno"))
                        continue
                    }
                }
                try replace(path, with: file.bytes)
                outcome.schemaFiles.append(file.path)
            }
            for file in tree.files {
                let path = contentFolder + "/" + file.path
                guard FileSystem.entryType(path) == .file else {
                    outcome.skipped.append((file.path, "a symbolic link: name the schema in the file it leads to"))
                    continue
                }
                guard case .success(let bytes) = FileSystem.read(path, limit: FileLoader.maxFileSize) else {
                    outcome.skipped.append((file.path, "it cannot be read"))
                    continue
                }
                guard let tag = RootStartTag(bytes) else {
                    outcome.skipped.append((file.path, "its root element could not be found; fix the file (`digno validate` says how) and run this again"))
                    continue
                }
                guard let named = ContentSchema.namingSchema(bytes, path: file.path) else {
                    if ContentSchema.reference(in: tag, path: file.path) == .named {
                        outcome.unchanged += 1
                    } else {
                        outcome.skipped.append((file.path, "its root element binds the prefix xsi to another namespace"))
                    }
                    continue
                }
                try replace(path, with: named)
                outcome.named.append(file.path)
            }
        } catch {
            throw .write(error)
        }
        return outcome
    }

    /// Replaces the file at `path` whole: written beside it, flushed, then renamed over it.
    static func replace(_ path: String, with bytes: [UInt8]) throws(DurableFileError) {
        let temporary = DurableFile.temporaryPath(for: path)
        try DurableFile.writeFlushed(bytes, to: temporary)
        do {
            try DurableFile.move(temporary, to: path)
        } catch {
            try? DurableFile.remove(temporary)
            throw error
        }
    }
}
