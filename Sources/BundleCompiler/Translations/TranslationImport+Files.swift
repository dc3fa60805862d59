import CatalogContent
import CatalogModel

// Around an import's plan: the XLIFF file read, named as diagnostics name files, the content
// files written, and what was done told.
extension TranslationImport {
    /// The bytes of the XLIFF file at `path`, or why not, in words.
    package static func readXLIFF(_ path: String) -> Result<[UInt8], ReadError> {
        switch FileSystem.read(path, limit: ReturnedXLIFF.maxFileSize) {
        case .success(let bytes): .success(bytes)
        case .failure(.tooLarge(let size)): .failure(ReadError(message: "'\(path)' is \(size) bytes; the limit is \(ReturnedXLIFF.maxFileSize) bytes (64 MiB): export fewer units (--only)"))
        case .failure(.notAFile): .failure(ReadError(message: "'\(path)' is not a file"))
        case .failure(.unreadable(let reason)): .failure(ReadError(message: "cannot read '\(path)': \(reason)"))
        }
    }

    package struct ReadError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// `path` as diagnostics name files: relative to the content folder (`../sv.xlf`), so
    /// that every report format, which puts the folder before it, finds it.
    package static func relativeName(of path: String, from folder: String) -> String {
        func absolute(_ path: String) -> [Substring] {
            let full = path.hasPrefix("/") ? path : FileSystem.realPath(".").map { $0 + "/" + path } ?? path
            var parts: [Substring] = []
            for part in full.split(separator: "/") {
                switch part {
                case ".": continue
                case "..": if !parts.isEmpty { parts.removeLast() }
                default: parts.append(part)
                }
            }
            return parts
        }
        let file = absolute(FileSystem.realPath(path) ?? path), base = absolute(FileSystem.realPath(folder) ?? folder)
        var common = 0
        while common < min(file.count, base.count), file[common] == base[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + file[common...].map(String.init)).joined(separator: "/")
    }

    /// Writes each file whole: every new file beside its old one first, then each renamed over
    /// it, so that a failure or a kill leaves each file as it was or as imported, and a rerun
    /// of the import finishes it.
    package static func write(_ files: [(path: String, bytes: [UInt8])], into contentFolder: String) throws(DurableFileError) {
        // A content file that is a link (inside the folder: the validator refuses others) is
        // written where it leads, so that the link stays.
        let targets = files.map { file in
            let path = contentFolder + "/" + file.path
            return (target: FileSystem.realPath(path) ?? path, bytes: file.bytes)
        }
        do {
            for file in targets { try DurableFile.writeFlushed(file.bytes, to: DurableFile.temporaryPath(for: file.target)) }
        } catch {
            for file in targets { try? DurableFile.remove(DurableFile.temporaryPath(for: file.target)) }
            throw error
        }
        for file in targets { try DurableFile.move(DurableFile.temporaryPath(for: file.target), to: file.target) }
    }

    /// What an import did, per entity, for standard output.
    package static func summary(_ plan: Plan) -> String {
        var lines: [String] = []
        var entities: [EntityReference] = []
        var fields: [EntityReference: [String]] = [:]
        var names: [EntityReference: String] = [:]
        for change in plan.changes {
            if fields[change.entity] == nil { entities.append(change.entity) }
            names[change.entity] = change.entityName
            let field = switch change.field {
            case .image, .picture: "alt of \(change.field)"
            default: change.field.description
            }
            fields[change.entity, default: []].append(field + (change.isNew ? " (new)" : ""))
        }
        for entity in entities {
            let path = file(of: entity).path
            lines.append("\(path): \(entity.kind.rawValue) “\(names[entity] ?? entity.id)”: \((fields[entity] ?? []).joined(separator: ", "))")
        }
        let language = plan.language?.rawValue ?? "?"
        let new = plan.changes.count { $0.isNew }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var summary = "imported \(count(plan.changes.count, "translation")) into \(language) (\(new) new, \(plan.changes.count - new) changed) in \(count(plan.files.count, "file"))"
        summary += "; \(plan.unchanged) unchanged"
        if plan.notDone > 0 { summary += "; \(plan.notDone) not marked translated, left as they are" }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }
}
