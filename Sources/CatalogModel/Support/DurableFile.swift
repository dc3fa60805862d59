import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `DurableFile` operation failed: what it was doing, on which path, and the system's
/// error number (`errno`), kept so that a caller can tell a full disk from a missing folder.
package struct DurableFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed.
    package enum Operation: Sendable {
        case makeFolder, open, write, flush, rename, remove, lock
    }

    package var operation: Operation
    /// The path the operation failed on.
    package var path: String
    /// The system's error number.
    package var code: Int32

    /// The failure of `operation` on `path`, with the current `errno`.
    package init(_ operation: Operation, _ path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's message for `code`, such as "No space left on device".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(operation) '\(path)': \(reason)" }
}

/// Writing files so that a reader, or the next start after a power cut, finds the old file or
/// the new one, never a mix: a temporary file in the same folder, flushed, renamed over the
/// target, and the folder flushed. In POSIX calls that exist on iOS, macOS and Linux alike, for
/// the compiler, the publisher and the app's store. Hand-written because Foundation's atomic
/// writes flush neither the file nor the folder that names it, and Foundation has no file lock.
package enum DurableFile {
    /// The temporary name beside `target`: hidden, fixed, so that the next run finds and
    /// removes one a killed run left behind.
    package static func temporaryPath(for target: String) -> String {
        let (folder, name) = split(target)
        return folder + "/." + name + ".partial"
    }

    /// The folder a path is in, and its name in it.
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Creates `folder` and its parents if missing.
    package static func makeFolder(_ folder: String) throws(DurableFileError) {
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o755) != 0 && errno != EEXIST { throw DurableFileError(.makeFolder, path) }
        }
    }

    /// `fsync`, or on Apple's systems `F_FULLFSYNC`, since their `fsync` leaves the data in the
    /// drive's cache.
    package static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    /// Flushes an existing file or folder to disk.
    package static func sync(_ path: String) throws(DurableFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFileError(.open, path) }
        defer { close(descriptor) }
        guard flush(descriptor) else { throw DurableFileError(.flush, path) }
    }

    /// Writes `bytes` into a new file at `path` (what was there is removed, a link included, not
    /// followed) and flushes it; on a failure the file is removed.
    package static func writeFlushed(_ bytes: some ContiguousBytes, to path: String) throws(DurableFileError) {
        // A file of the caller's own, made anew: whatever is at the path goes first, and a link
        // planted there in between is not followed.
        if unlink(path) != 0 && errno != ENOENT { throw DurableFileError(.remove, path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DurableFileError(.open, path) }
        var failure: DurableFileError?
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count, let base = buffer.baseAddress {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = DurableFileError(.write, path)
                    return
                }
                written += count
            }
        }
        if failure == nil, !flush(descriptor) { failure = DurableFileError(.flush, path) }
        close(descriptor)
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Renames `source` to `target` (in the same folder) and flushes the folder, so that the
    /// rename survives a power cut.
    package static func move(_ source: String, to target: String) throws(DurableFileError) {
        guard rename(source, target) == 0 else { throw DurableFileError(.rename, target) }
        try sync(split(target).folder)
    }

    /// Removes a file if it is there.
    package static func remove(_ path: String) throws(DurableFileError) {
        if unlink(path) != 0 && errno != ENOENT { throw DurableFileError(.remove, path) }
    }

    /// The size of the file at `path`, nil if there is none; with `regularFileOnly`, nil also
    /// for a folder or a device there; without `followingLinks`, nil for a symbolic link.
    package static func size(_ path: String, regularFileOnly: Bool = false, followingLinks: Bool = true) -> Int? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0,
              !regularFileOnly || (info.st_mode & S_IFMT) == S_IFREG
        else { return nil }
        return Int(info.st_size)
    }

    /// Whether `path` is a folder itself, not a link to one.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether something is at `path`, a link to nothing included.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// An exclusive lock on a folder, across processes and within one. On the folder itself, so
    /// that it leaves no file behind; the system drops it when the process ends, killed or not,
    /// and when the lock is released.
    package final class FolderLock: @unchecked Sendable {
        private let descriptor: Int32
        private let folder: String

        /// Opens `folder` to lock it; the lock is not taken yet.
        package init(_ folder: String) throws(DurableFileError) {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw DurableFileError(.open, folder) }
            self.descriptor = descriptor
            self.folder = folder
        }

        /// Takes the lock if no one holds it: true if taken, false if another holds it.
        package func tryLock() throws(DurableFileError) -> Bool {
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                if errno == EINTR { continue }  // a signal came first: ask again
                guard errno == EWOULDBLOCK else { throw DurableFileError(.lock, folder) }
                return false
            }
            return true
        }

        /// Takes the lock, blocking the thread until it is free; calls `waiting` first if
        /// another holds it.
        package func lock(waiting: () -> Void = {}) throws(DurableFileError) {
            if try tryLock() { return }
            waiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { throw DurableFileError(.lock, folder) }
            }
        }

        deinit {
            close(descriptor)
        }
    }
}
