import CatalogModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Publishing a file so that a reader sees the old one or the new one, never a mix: write a
/// temporary file in the same folder, fsync it, rename it over the target, fsync the folder.
/// Hand-written because Foundation's atomic writes skip the folder fsync, and `VACUUM INTO`
/// does no fsync at all.
enum AtomicFile {
    /// The temporary name beside `target`: hidden, fixed, so that the next build finds and
    /// removes one a killed build left behind.
    static func temporaryPath(for target: String) -> String {
        DurableFile.temporaryPath(for: target)
    }

    /// The builder's error for a durable file operation's failure.
    static func failure(_ error: DurableFileError) -> BuildError {
        .output(path: error.path, reason: "\(error.operation) failed", cause: ErrorCause(errno: error.code))
    }

    /// The scratch database's name beside `target`, hidden and fixed like the temporary file.
    static func scratchPath(for target: String) -> String {
        let (folder, name) = split(target)
        return folder + "/." + name + ".scratch"
    }

    /// Removes the temporary files a killed build left behind.
    static func removeStale(for target: String) throws(BuildError) {
        try remove(temporaryPath(for: target))
        try remove(previousPath(for: target))
    }

    /// Removes the temporary file of a build that failed. Not the previous bundle's link: if
    /// putting it back failed, it is the only name the previous bundle has.
    static func removeTemporary(for target: String) throws(BuildError) {
        try remove(temporaryPath(for: target))
    }

    /// Removes a file if it exists.
    static func remove(_ path: String) throws(BuildError) {
        do { try DurableFile.remove(path) } catch { throw failure(error) }
    }

    /// Writes `bytes` to the temporary file of `target` and flushes it to disk.
    static func writeTemporary(_ bytes: [UInt8], for target: String) throws(BuildError) {
        do { try DurableFile.writeFlushed(bytes, to: temporaryPath(for: target)) } catch { throw failure(error) }
    }

    /// Flushes an existing file (such as one `VACUUM INTO` wrote) or folder to disk.
    static func sync(_ path: String) throws(BuildError) {
        do { try DurableFile.sync(path) } catch { throw failure(error) }
    }

    /// The name the previous bundle is also given while the new one is published, so that it
    /// can be put back if the manifest cannot be: hidden and fixed like the temporary file.
    static func previousPath(for target: String) -> String {
        let (folder, name) = split(target)
        return folder + "/." + name + ".previous"
    }

    /// SQLite's own files beside a database: a rollback journal, or a write-ahead log and its
    /// index. A bundle never has them (it is written elsewhere and renamed into place), so one
    /// beside the target was left by a program that changed the previous bundle; beside the new
    /// bundle, a hot journal would be rolled into it by the next connection that may write.
    static func sqliteCompanions(of target: String) -> [String] {
        ["-journal", "-wal", "-shm"].map { target + $0 }
    }

    /// Replaces `bundle` and `manifest` (in the same folder) with their temporary files, then
    /// flushes the folder so that the renames survive a power cut (once, after both: each flush
    /// waits for a journal commit).
    ///
    /// Two renames, not one operation. If the manifest cannot be renamed (a folder or an
    /// immutable file in its place), the previous bundle, kept under `previousPath` by a hard
    /// link, is renamed back, so the pair is as it was (but for SQLite journal files beside the
    /// previous bundle, removed first). Where the file system has no hard links, or renaming
    /// back fails, the error says so. A build killed between the two renames leaves the new
    /// bundle beside the old manifest, whose `bundle.sha256` then differs; a flush that fails
    /// after both renames reports a failure with the new pair in place.
    static func publish(bundle: String, manifest: String) throws(BuildError) {
        for companion in sqliteCompanions(of: bundle) { try remove(companion) }
        let previous = previousPath(for: bundle)
        try remove(previous)
        // Undoing the bundle's rename means renaming the previous bundle back, or removing the
        // new one where there was none. Where the file system has no hard links it cannot be
        // undone, and the manifest's failure leaves the new bundle beside the old manifest.
        // `linkat` with no flags links a symbolic link itself, as Linux's `link` does; macOS's
        // `link` would follow it.
        let undo: () -> String
        if linkat(AT_FDCWD, bundle, AT_FDCWD, previous, 0) == 0 {
            undo = {
                rename(previous, bundle) == 0 ? "the previous bundle was put back"
                    : "the previous bundle could not be put back (\(lastError())) and is at \(previous); rename it to \(bundle)"
            }
        } else if errno == ENOENT {
            undo = { unlink(bundle) == 0 ? "the new bundle was removed" : "the new bundle could not be removed (\(lastError()))" }
        } else {
            let reason = lastError()
            undo = { "the previous bundle could not be kept for putting back (\(reason)), so the new bundle is beside the old manifest" }
        }
        guard rename(temporaryPath(for: bundle), bundle) == 0 else {
            let cause = ErrorCause(errno: errno)
            try? remove(previous)
            throw .output(path: bundle, reason: "it cannot be renamed into place", cause: cause)
        }
        guard rename(temporaryPath(for: manifest), manifest) == 0 else {
            let cause = ErrorCause(errno: errno)
            throw .output(path: manifest, reason: "it cannot be renamed into place; \(undo())", cause: cause)
        }
        try sync(split(bundle).folder)
        // Last, since freeing the previous bundle's blocks takes the kernel a while (0.1 s for
        // 170 MB).
        try remove(previous)
    }

    /// Creates `folder` and its parents if missing.
    static func makeFolder(_ folder: String) throws(BuildError) {
        do { try DurableFile.makeFolder(folder) } catch { throw failure(error) }
    }

    /// An exclusive lock on a folder, held by one build at a time: two builds into one folder
    /// would share the temporary and scratch files. CatalogModel's `DurableFile.FolderLock`,
    /// waited for with the thread blocked.
    final class FolderLock {
        private let lock: DurableFile.FolderLock

        /// Takes the lock on `folder`, calling `waiting` first if another process holds it.
        init(_ folder: String, waiting: () -> Void) throws(BuildError) {
            do {
                lock = try DurableFile.FolderLock(folder)
                try lock.lock(waiting: waiting)
            } catch {
                throw AtomicFile.failure(error)
            }
        }
    }

    /// Refuses an output folder inside the content folder: the bundle could overwrite a
    /// content file, and what it leaves there would be content the next build reads.
    static func refuseInside(content contentFolder: String, output: String) throws(BuildError) {
        // Validation reports a content folder that does not exist.
        guard let content = FileSystem.realPath(contentFolder),
              let folder = resolved(split(output).folder),
              folder == content || folder.hasPrefix(content == "/" ? "/" : content + "/") else { return }
        throw .output(path: output, reason: "it is inside the content folder '\(contentFolder)'; write the bundle outside it, such as dist/catalog.sqlite")
    }

    /// The absolute path `path` names, with every link resolved, for a folder that may not
    /// exist yet: the part that exists is resolved by the system, and what follows is taken as
    /// written, where `missing/..` is the folder `missing` is in (a folder that does not exist
    /// cannot be a link). Written by hand: `realpath` resolves only paths that exist, and
    /// cutting the path at its last existing folder read `missing/../content` as the working
    /// folder. Nil if the working folder cannot be found.
    static func resolved(_ path: String) -> String? {
        guard var existing = FileSystem.realPath(path.hasPrefix("/") ? "/" : ".") else { return nil }
        var missing: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if missing.isEmpty {
                    existing = split(existing).folder
                } else {
                    missing.removeLast()
                }
            } else if missing.isEmpty, let real = FileSystem.realPath((existing == "/" ? "" : existing) + "/" + part) {
                existing = real
            } else {
                missing.append(part)
            }
        }
        return missing.isEmpty ? existing : ([existing == "/" ? "" : existing] + missing.map(String.init)).joined(separator: "/")
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        DurableFile.split(path)
    }

    fileprivate static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
