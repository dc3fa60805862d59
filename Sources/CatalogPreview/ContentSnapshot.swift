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
/// snapshot of `content/` takes well under a millisecond; of a 10,000-entity folder, about
/// 10 ms (docs/BENCHMARKS.md). Written by hand: no package on the mirror watches files.
struct ContentSnapshot: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var inode: UInt64
        var mode: UInt32
    }

    /// By path relative to the content folder.
    private(set) var entries: [String: Entry] = [:]

    /// Folders deeper than this are not looked into; content is two levels deep.
    static let depthLimit = 12

    /// The folder's files and folders now. Symbolic links are followed for what they point to
    /// (a linked file's edits count) but never into folders, so a link loop ends. A folder that
    /// cannot be read is an empty snapshot: the build that follows says why.
    static func take(_ root: String) -> ContentSnapshot {
        var snapshot = ContentSnapshot()
        snapshot.walk(root, prefix: "", depth: 0)
        return snapshot
    }

    private mutating func walk(_ path: String, prefix: String, depth: Int) {
        guard depth <= Self.depthLimit, let folder = opendir(path) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != "." && name != ".." else { continue }
            let full = path + "/" + name
            var link = stat()
            guard lstat(full, &link) == 0 else { continue }  // removed since the listing
            var info = link
            let isLink = link.st_mode & S_IFMT == S_IFLNK
            if isLink, stat(full, &info) != 0 { info = link }  // a broken link: the link itself
            entries[prefix + name] = Entry(
                size: Int64(info.st_size),
                modifiedSeconds: Int64(Self.modified(info).seconds),
                modifiedNanoseconds: Int64(Self.modified(info).nanoseconds),
                inode: UInt64(info.st_ino),
                mode: UInt32(info.st_mode))
            if !isLink, link.st_mode & S_IFMT == S_IFDIR {
                walk(full, prefix: prefix + name + "/", depth: depth + 1)
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
