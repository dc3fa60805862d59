import CatalogContent
import Crypto
import Foundation

/// What each content file gave when it was last read, by path, kept between checks of one
/// content folder (`digno preview`, `digno lsp`): a file whose bytes are the same as then is
/// not parsed again, and one whose stamp (`FileSystem.Stamp`: inode, size and times, as git's
/// index keeps them) vouches that it has not changed is not even read, nor, when the caller
/// vouches that nothing changed on disk (the language server, told by the editor's file
/// watching), stamped: the last listing of the folder is kept for that. Pictures likewise: one
/// is read, hashed and its header decoded again only when its stamp changed. Each entity's own
/// rules are kept in `rules`. The rules across files and the pictures' checks still run over
/// the whole catalogue each time, since an edit in one file can change what any other file's
/// references mean; the catalogue itself is kept (`takeAssembly`), and a check of a folder
/// vouched unchanged loads only the editor's texts again and puts them in its place. The
/// result is the same as with no cache: a `LoadedFile` depends on the file's path, kind and
/// bytes alone, a picture's header and digest on its bytes.
package final class LoadCache: @unchecked Sendable {
    // @unchecked Sendable: `entries`, `pictures`, `lastListing` and the counts are read and
    // written under `lock`; `rules` is Sendable.
    private let lock = NSLock()
    private struct Entry {
        var file: ContentFile
        var bytes: [UInt8]
        var loaded: LoadedFile
        /// The file's stamp when its bytes were read; nil for an editor's unsaved text.
        var stamp: FileSystem.Stamp?
    }
    private var entries: [String: Entry] = [:]
    private var lastListing: ContentTree?
    /// What each entity's own rules found at the last check (`RuleMemo`): an entity unchanged
    /// since, which a file taken from this cache gives, is not checked by them again.
    package let rules = RuleMemo()
    private var hits = 0, misses = 0, unread = 0
    /// How long after a file's last change a stamp must have been taken to vouch for it, in
    /// nanoseconds (`FileSystem.Stamp.vouches`); the tests make it 0 to take stamps at once.
    let racyWindow: Int64

    package init() {
        racyWindow = 2_000_000_000
    }

    init(racyWindow: Int64) {
        self.racyWindow = racyWindow
    }

    /// How many files were taken from the cache and how many read, since the cache was made;
    /// of the hits, how many by their stamp alone, not read at all.
    package var counts: (hits: Int, misses: Int, unread: Int) {
        lock.withLock { (hits, misses, unread) }
    }

    /// What `file` gave, if its stamp at `path` now shows it unchanged since its bytes were
    /// read. The file is stamped only when there is a stamp to compare with: a first check
    /// reads each file once, with no `stat` before.
    func loadedIfUnchanged(_ file: ContentFile, at path: String) -> LoadedFile? {
        guard let entry = lock.withLock({ entries[file.path] }), entry.file == file, let read = entry.stamp,
              let now = FileSystem.stamp(path), read.vouches(for: now, racyWindow: racyWindow) else { return nil }
        lock.withLock {
            hits += 1
            unread += 1
        }
        return entry.loaded
    }

    /// What `file` gave when it was last read from disk, for a folder vouched unchanged since
    /// (`ContentValidator.folderUnchanged`); nil if its last text was an editor's, which the
    /// file on disk may not have.
    func loadedFromDisk(_ file: ContentFile) -> LoadedFile? {
        lock.withLock {
            guard let entry = entries[file.path], entry.file == file, entry.stamp != nil else { return nil }
            hits += 1
            unread += 1
            return entry.loaded
        }
    }

    /// What `file` gave, if its bytes are the same as then. `stamp`, the file's from before
    /// these bytes were read (nil for an editor's text), is kept for the next check: a file
    /// written again with the same bytes (a save with no change, a checkout) is then taken by
    /// its stamp again, not read at every check.
    func loaded(_ file: ContentFile, bytes: [UInt8], stamp: FileSystem.Stamp?) -> LoadedFile? {
        lock.withLock {
            guard let entry = entries[file.path], entry.file == file, entry.bytes == bytes else {
                misses += 1
                return nil
            }
            hits += 1
            entries[file.path]?.stamp = stamp
            return entry.loaded
        }
    }

    /// Keeps what a file's bytes gave, with its stamp from before they were read (nil for an
    /// editor's text): a stamp taken after, should the file change in between, would vouch for
    /// bytes it never had.
    func store(_ loaded: LoadedFile, bytes: [UInt8], stamp: FileSystem.Stamp?) {
        lock.withLock { entries[loaded.file.path] = Entry(file: loaded.file, bytes: bytes, loaded: loaded, stamp: stamp) }
    }

    /// What each picture file read gave (`ImageChecker`), by its path on disk, with its stamp
    /// from before it was read.
    private var pictures: [String: (read: (Result<ImageChecker.SourcePicture, ImageChecker.ImageFailure>, SHA256.Digest?), stamp: FileSystem.Stamp)] = [:]

    /// What the picture at `path` gave, if its stamp now shows it unchanged since; stamped only
    /// when there is a stamp to compare with.
    func pictureIfUnchanged(at path: String) -> (Result<ImageChecker.SourcePicture, ImageChecker.ImageFailure>, SHA256.Digest?)? {
        guard let kept = lock.withLock({ pictures[path] }), let now = FileSystem.stamp(path),
              kept.stamp.vouches(for: now, racyWindow: racyWindow) else { return nil }
        return kept.read
    }

    /// What the picture at `path` gave when last read, for a folder vouched unchanged since.
    func picture(at path: String) -> (Result<ImageChecker.SourcePicture, ImageChecker.ImageFailure>, SHA256.Digest?)? {
        lock.withLock { pictures[path]?.read }
    }

    /// Forgets what the picture at `path` gave: it changed on disk (`ContentValidator.changedOnDisk`).
    func forgetPicture(at path: String) {
        lock.withLock { _ = pictures.removeValue(forKey: path) }
    }

    func store(picture read: (Result<ImageChecker.SourcePicture, ImageChecker.ImageFailure>, SHA256.Digest?), at path: String, stamp: FileSystem.Stamp) {
        lock.withLock {
            // A folder's pictures, not every file ever read: a picture renamed away is
            // forgotten when the cache holds more than the folder's image files twice over.
            if pictures.count > 2 * max(64, lastListing?.imageFiles.count ?? 0) { pictures.removeAll(keepingCapacity: true) }
            pictures[path] = (read, stamp)
        }
    }

    /// The folder's listing as the last check that listed it made it (`ContentValidator.folderUnchanged`).
    var listing: ContentTree? {
        get { lock.withLock { lastListing } }
        set { lock.withLock { lastListing = newValue } }
    }

    /// The last check's files put together (`CatalogAssembly`), kept for a check of a folder
    /// vouched unchanged, which loads the editor's texts again and replaces them in it.
    private var lastAssembly: CatalogAssembly?

    /// Takes the last check's assembly out of the cache, so that the check is its only holder
    /// and replaces files in it in place; it puts back its own with `keep(_:)`.
    func takeAssembly() -> CatalogAssembly? {
        lock.withLock {
            defer { lastAssembly = nil }
            return lastAssembly
        }
    }

    /// The last check's catalogue, with empty stand-ins for what could not be read (the
    /// language server's completion and hover read it). Nil before a first check.
    package var catalog: Catalog? {
        lock.withLock { lastAssembly?.catalog }
    }

    func keep(_ assembly: CatalogAssembly) {
        lock.withLock { lastAssembly = assembly }
    }

    /// Forgets the files that are no longer in the folder.
    func keep(only paths: Set<String>) {
        lock.withLock {
            for path in entries.keys.filter({ !paths.contains($0) }) { entries.removeValue(forKey: path) }
        }
    }
}
