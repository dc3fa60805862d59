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
        let (folder, name) = split(target)
        return folder + "/." + name + ".partial"
    }

    /// The scratch database's name beside `target`, hidden and fixed like the temporary file.
    static func scratchPath(for target: String) -> String {
        let (folder, name) = split(target)
        return folder + "/." + name + ".scratch"
    }

    /// Removes a temporary file a killed build left behind.
    static func removeStale(for target: String) throws(BuildError) {
        try remove(temporaryPath(for: target))
    }

    /// Removes a file if it exists.
    static func remove(_ path: String) throws(BuildError) {
        if unlink(path) != 0 && errno != ENOENT { throw .output(path: path, reason: lastError()) }
    }

    /// Writes `bytes` to the temporary file of `target` and flushes it to disk.
    static func writeTemporary(_ bytes: [UInt8], for target: String) throws(BuildError) {
        let path = temporaryPath(for: target)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw .output(path: path, reason: lastError()) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .output(path: path, reason: lastError())
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw .output(path: path, reason: lastError()) }
    }

    /// Flushes an existing file (such as one `VACUUM INTO` wrote) to disk.
    static func sync(_ path: String) throws(BuildError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .output(path: path, reason: lastError()) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .output(path: path, reason: lastError()) }
    }

    /// Renames the temporary files over `targets`, in order, then flushes their folders once
    /// each, so that the renames survive a power cut. One flush after all the renames rather
    /// than one after each: each flush waits for a journal commit.
    static func publish(_ targets: String...) throws(BuildError) {
        for target in targets {
            guard rename(temporaryPath(for: target), target) == 0 else { throw .output(path: target, reason: lastError()) }
        }
        var flushed: Set<String> = []
        for folder in targets.map({ split($0).folder }) where flushed.insert(folder).inserted {
            let descriptor = open(folder, O_RDONLY)
            guard descriptor >= 0 else { throw .output(path: folder, reason: lastError()) }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw .output(path: folder, reason: lastError()) }
        }
    }

    /// Creates `folder` and its parents if missing.
    static func makeFolder(_ folder: String) throws(BuildError) {
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o755) != 0 && errno != EEXIST { throw .output(path: path, reason: lastError()) }
        }
    }

    /// An exclusive lock on a folder, held by one build at a time: two builds into one folder
    /// would share the temporary and scratch files. The lock is on the folder itself, so it
    /// leaves no file behind, and the system drops it when the process ends, killed or not.
    final class FolderLock {
        private let descriptor: Int32

        /// Takes the lock on `folder`, calling `waiting` first if another process holds it.
        init(_ folder: String, waiting: () -> Void) throws(BuildError) {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .output(path: folder, reason: AtomicFile.lastError()) }
            var locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            if !locked && errno == EWOULDBLOCK {
                waiting()
                repeat { locked = flock(descriptor, LOCK_EX) == 0 } while !locked && errno == EINTR
            }
            guard locked else {
                let reason = AtomicFile.lastError()
                close(descriptor)
                throw .output(path: folder, reason: reason)
            }
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)
        }
    }

    /// Refuses an output folder inside the content folder: the bundle could overwrite a
    /// content file, and what it leaves there would be content the next build reads.
    static func refuseInside(content contentFolder: String, output: String) throws(BuildError) {
        // Validation reports a content folder that does not exist.
        guard let content = FileSystem.realPath(contentFolder) else { return }
        // The output folder may not exist yet: its nearest existing ancestor decides.
        var folder = split(output).folder
        var real = FileSystem.realPath(folder)
        while real == nil {
            let parent = split(folder).folder
            guard parent != folder else { return }
            folder = parent
            real = FileSystem.realPath(folder)
        }
        guard let real, real == content || real.hasPrefix(content == "/" ? "/" : content + "/") else { return }
        throw .output(path: output, reason: "it is inside the content folder '\(contentFolder)'; write the bundle outside it, such as dist/catalog.sqlite")
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    fileprivate static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
