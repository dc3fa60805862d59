import CatalogModel
import Foundation

/// The file operations the store's guarantees rest on: CatalogModel's `DurableFile`, its
/// failures given as the store's `storage` errors, and the store's own conventions (a state
/// replaced through `<name>.partial`, removals that never fail an update).
enum StoreFiles {
    /// Why `operation` failed on `path` just now: the path and the system's message.
    static func failure(_ operation: DurableFileError.Operation, _ path: String) -> BundleStoreError {
        failure(DurableFileError(operation, path))
    }

    /// The store's error for a durable file operation's failure.
    static func failure(_ error: DurableFileError) -> BundleStoreError {
        .storage(StorageFailure(path: error.path, errorNumber: error.code, message: "\(error.path): \(error.reason)"))
    }

    /// Creates `folder` and its parents if missing.
    static func makeFolder(_ folder: String) throws(BundleStoreError) {
        do { try DurableFile.makeFolder(folder) } catch { throw failure(error) }
    }

    /// Flushes a file or a folder to disk.
    static func sync(_ path: String) throws(BundleStoreError) {
        do { try DurableFile.sync(path) } catch { throw failure(error) }
    }

    /// Replaces `path` with `bytes` so that a reader, or the next start after a crash, finds
    /// the old file or the new one: a temporary file beside it, flushed, renamed over it, and
    /// the folder flushed.
    static func replace(_ path: String, with bytes: Data) throws(BundleStoreError) {
        let temporary = path + ".partial"
        do { try DurableFile.writeFlushed(bytes, to: temporary) } catch { throw failure(error) }
        try move(temporary, to: path)
    }

    /// Renames `source` to `target` (in the same folder) and flushes the folder.
    static func move(_ source: String, to target: String) throws(BundleStoreError) {
        do { try DurableFile.move(source, to: target) } catch { throw failure(error) }
    }

    /// Removes a file if it is there.
    static func remove(_ path: String) {
        try? DurableFile.remove(path)
    }

    /// The file's size, or nil if there is no file: a symbolic link is none, so that nothing
    /// the store reads or serves is outside its folder.
    static func size(_ path: String) -> Int? {
        DurableFile.size(path, regularFileOnly: true, followingLinks: false)
    }

    /// Makes `folder` a folder of the store's own: whatever else is there (a file, or a link
    /// to a folder elsewhere, whose files a pruning would remove) is removed first.
    static func repairFolder(_ folder: String) throws(BundleStoreError) {
        if DurableFile.exists(folder) && !DurableFile.isFolder(folder) {
            do { try DurableFile.remove(folder) } catch { throw failure(error) }
        }
        try makeFolder(folder)
    }

    /// What is at a path the store reads.
    enum Found {
        case nothing
        case bytes(Data)
        /// Something that cannot be the file: a folder, a link, more bytes than it may have.
        case notTheFile(String)
    }

    /// What is at `path`: nothing, the file's bytes (at most `limit`), or something that cannot
    /// be the file. Throws only when a file that may be it cannot be read.
    static func read(_ path: String, limit: Int) throws(BundleStoreError) -> Found {
        guard let size = size(path) else {
            return DurableFile.exists(path) ? .notTheFile("\(path) is not a file") : .nothing
        }
        guard size <= limit else { return .notTheFile("\(path) is \(size) bytes, more than the \(limit) it may be") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw failure(.open, path) }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch { throw .storage(StorageFailure(path: path, errorNumber: ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
                .flatMap { $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil }, message: "\(path) cannot be read: \(error)")) }
        guard data.count <= limit else { return .notTheFile("\(path) grew past the \(limit) bytes it may be") }
        return .bytes(data)
    }

    /// The bytes of the file at `path`, at most `limit` of them; nil when there is no file
    /// (nor link); a `storage` error when something else is there or it holds more.
    static func contents(_ path: String, limit: Int) throws(BundleStoreError) -> Data? {
        switch try read(path, limit: limit) {
        case .nothing: nil
        case .bytes(let data): data
        case .notTheFile(let reason): throw .storage(StorageFailure(path: path, errorNumber: nil, message: reason))
        }
    }

    /// The bytes free for the app on the volume holding `path`; nil when the system does not say.
    static func freeSpace(_ path: String) -> Int? {
        #if canImport(Darwin)
        // What iOS would free for an important download (purgeable space included), as Apple
        // asks apps to measure it; the file system's free size leaves that out.
        let values = try? URL(fileURLWithPath: path).resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])
        if let capacity = values?.volumeAvailableCapacityForImportantUsage { return Int(capacity) }
        #endif
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.intValue
    }

    /// The names in a folder, none if it cannot be listed.
    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
