import BundleCompiler
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a content folder holds, file by file: each path with its size, modification time and
/// inode. Two snapshots differ when any file was saved, added, removed or renamed, which is when
/// the preview builds again.
///
/// The preview polls (`take` every 100 ms) rather than asking the kernel (inotify): polling
/// sees every way an editor saves (in place, or a new file renamed over the old), works on every
/// file system including network and container mounts, and needs no code per platform. One
/// snapshot of `content/` takes 0.2 ms; of a 10,000-entity folder about 25 ms, of a
/// 100,000-entity one about 0.4 s (the preview then looks less often: `PreviewServer.watch`).
/// Written by hand: no package on the mirror watches files.
struct ContentSnapshot: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var inode: UInt64
        var mode: UInt32
    }

    /// By path relative to the content folder, in the order the folders list them (the same
    /// order each time for a folder that has not changed; a changed order is a change too).
    private(set) var entries: [(path: String, entry: Entry)] = []

    static func == (left: ContentSnapshot, right: ContentSnapshot) -> Bool {
        left.entries.count == right.entries.count
            && zip(left.entries, right.entries).allSatisfy { $0.path == $1.path && $0.entry == $1.entry }
    }

    /// Folders deeper than this are not looked into; content is two levels deep.
    static let depthLimit = 12

    /// The folder's files and folders now. Symbolic links are followed for what they point to
    /// (a linked file's edits count) but never into folders, so a link loop ends. A folder that
    /// cannot be read is an empty snapshot: the build that follows says why.
    static func take(_ root: String) -> ContentSnapshot {
        var snapshot = ContentSnapshot()
        guard let folder = opendir(root) else { return snapshot }
        snapshot.walk(folder, prefix: "", depth: 0)
        return snapshot
    }

    /// Each entry is looked up relative to its open folder (`fstatat`), not by its whole path,
    /// which halved the time per file.
    private mutating func walk(_ folder: OpaquePointer, prefix: String, depth: Int) {
        defer { closedir(folder) }
        let descriptor = dirfd(folder)
        while let entry = readdir(folder) {
            let (name, isDot) = DirectoryEntry.withBytes(of: entry) { bytes -> (String, Bool) in
                let isDot = bytes.count <= 2 && bytes.allSatisfy { $0 == UInt8(ascii: ".") }
                // The key only; the calls below take the name's own bytes, so a name that is not
                // UTF-8 is looked at too (the build then says what is wrong with it).
                return (isDot ? "" : String(decoding: bytes, as: UTF8.self), isDot)
            }
            guard !isDot else { continue }
            /// The entry's name as the C calls take it.
            func withName<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
                DirectoryEntry.withName(of: entry, body)
            }
            var link = stat()
            guard withName({ fstatat(descriptor, $0, &link, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }  // removed since the listing
            var info = link
            let isLink = link.st_mode & S_IFMT == S_IFLNK
            if isLink, withName({ fstatat(descriptor, $0, &info, 0) }) != 0 { info = link }  // a broken link: the link itself
            let modified = Self.modified(info)
            entries.append((prefix + name, Entry(
                size: Int64(info.st_size), modifiedSeconds: Int64(modified.seconds), modifiedNanoseconds: Int64(modified.nanoseconds),
                inode: UInt64(info.st_ino), mode: UInt32(info.st_mode))))
            if !isLink, link.st_mode & S_IFMT == S_IFDIR, depth < Self.depthLimit {
                let child = withName { openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                guard child >= 0 else { continue }
                guard let opened = fdopendir(child) else {
                    close(child)
                    continue
                }
                walk(opened, prefix: prefix + name + "/", depth: depth + 1)
            }
        }
    }

    private static func modified(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
        (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #else
        (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #endif
    }
}
