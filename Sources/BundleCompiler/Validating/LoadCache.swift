import Foundation

/// What each content file gave when it was last read, by path, kept between checks of one
/// content folder (`digno preview`, `digno lsp`): a file whose bytes are the same as then is
/// not parsed again. Only the files that changed are read further than their bytes; the rules
/// across files and the pictures' checks run over the whole catalogue each time, since an
/// edit in one file can change what any other file's references mean. The result is the same
/// as with no cache: a `LoadedFile` depends on the file's path, kind and bytes alone.
package final class LoadCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (file: ContentFile, bytes: [UInt8], loaded: LoadedFile)] = [:]
    private var hits = 0, misses = 0

    package init() {}

    /// How many files were taken from the cache and how many read, since the cache was made.
    package var counts: (hits: Int, misses: Int) {
        lock.withLock { (hits, misses) }
    }

    func loaded(_ file: ContentFile, bytes: [UInt8]) -> LoadedFile? {
        lock.withLock {
            guard let entry = entries[file.path], entry.file == file, entry.bytes == bytes else {
                misses += 1
                return nil
            }
            hits += 1
            return entry.loaded
        }
    }

    func store(_ loaded: LoadedFile, bytes: [UInt8]) {
        lock.withLock { entries[loaded.file.path] = (loaded.file, bytes, loaded) }
    }

    /// Forgets the files that are no longer in the folder.
    func keep(only paths: Set<String>) {
        lock.withLock { entries = entries.filter { paths.contains($0.key) } }
    }
}
