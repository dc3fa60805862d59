import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations the store's guarantees rest on, in POSIX calls that exist on iOS, macOS
/// and Linux alike. Hand-written because Foundation's atomic writes neither flush the file nor
/// the folder that names it, and it has no file lock.
enum StoreFiles {
    /// Why a file operation failed: the path and the system's message.
    static func failure(_ path: String) -> BundleStoreError {
        .storage("\(path): \(String(cString: strerror(errno)))")
    }

    /// Creates `folder` and its parents if missing.
    static func makeFolder(_ folder: String) throws(BundleStoreError) {
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o755) != 0 && errno != EEXIST { throw failure(path) }
        }
    }

    /// Flushes a file or a folder to disk.
    static func sync(_ path: String) throws(BundleStoreError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        guard flush(descriptor) else { throw failure(path) }
    }

    /// `fsync`, or on Apple's systems `F_FULLFSYNC`, since their `fsync` leaves the data in the
    /// drive's cache.
    static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    /// Replaces `path` with `bytes` so that a reader, or the next start after a crash, finds
    /// the old file or the new one: a temporary file beside it, flushed, renamed over it, and
    /// the folder flushed.
    static func replace(_ path: String, with bytes: Data) throws(BundleStoreError) {
        let temporary = path + ".partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + written, buffer.count - written) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure(temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard flush(descriptor) else {
            let error = failure(temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        try move(temporary, to: path)
    }

    /// Renames `source` to `target` (in the same folder) and flushes the folder.
    static func move(_ source: String, to target: String) throws(BundleStoreError) {
        guard rename(source, target) == 0 else { throw failure(target) }
        try sync(folder(of: target))
    }

    /// Removes a file if it is there.
    static func remove(_ path: String) {
        unlink(path)
    }

    /// The file's size, or nil if there is no file.
    static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The names in a folder, none if it cannot be listed.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// An exclusive lock on the store's folder, one updater at a time, across processes and
    /// within one. On the folder itself, so that it leaves no file behind; the system drops it
    /// when the process ends, killed or not.
    final class Lock: @unchecked Sendable {
        private let descriptor: Int32

        /// Waits for the lock, polling, so that a waiting task never blocks a thread of the
        /// cooperative pool; gives up if the task is cancelled.
        init(_ folder: String) async throws(BundleStoreError) {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw StoreFiles.failure(folder) }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    let error = StoreFiles.failure(folder)
                    close(descriptor)
                    throw error
                }
                do {
                    try await Task.sleep(nanoseconds: 20_000_000)
                } catch {
                    close(descriptor)
                    throw .cancelled
                }
            }
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)
        }
    }
}
