import CatalogModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the reader needs, wrapped. Content files are read with plain `open` and
/// `read`, never through a library that might follow a compressed or remote source
/// (`xmlReadFile` silently decompresses gzip).
enum FileSystem {
    enum EntryType {
        case file, folder, symlink, other
    }

    /// What is at `path`, not following a final symbolic link; nil if nothing is.
    static func entryType(_ path: String) -> EntryType? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return entryType(mode: info.st_mode)
    }

    private static func entryType(mode: mode_t) -> EntryType {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .folder
        case S_IFLNK: .symlink
        default: .other
        }
    }

    /// The absolute path with every symbolic link resolved; nil if it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the symbolic link at `path` holds, resolved or not; nil if it is not a link.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a folder, sorted by their bytes, without `.` and `..`.
    static func list(_ path: String) throws(CompilerError) -> [String] {
        try listWithTypes(path).map(\.name)
    }

    /// The entries of a folder with their types, sorted by name bytes, without `.` and `..`.
    /// The type comes from the folder listing itself where the file system gives it, saving a
    /// `lstat` per file; otherwise from `lstat`.
    static func listWithTypes(_ path: String) throws(CompilerError) -> [(name: String, type: EntryType?)] {
        guard let folder = opendir(path) else {
            throw .folderUnreadable(path, cause: ErrorCause(errno: errno))
        }
        defer { closedir(folder) }
        var entries: [(name: String, type: EntryType?)] = []
        while let entry = readdir(folder) {
            let name = DirectoryEntry.withName(of: entry) { String(cString: $0) }
            guard name != "." && name != ".." else { continue }
            let type: EntryType?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): type = .file
            case Int32(DT_DIR): type = .folder
            case Int32(DT_LNK): type = .symlink
            case Int32(DT_UNKNOWN): type = entryType(path + "/" + name)
            default: type = .other
            }
            entries.append((name, type))
        }
        var names = ByteKeys(capacity: entries.count, averageLength: 24)
        for entry in entries { names.append(entry.name.utf8) }
        return names.sortedIndices().map { entries[$0] }
    }

    enum ReadFailure: Error {
        case tooLarge(size: Int)
        /// A folder, a named pipe, a device: what the path leads to, links followed.
        case notAFile(EntryType)
        case unreadable(String)
    }

    /// What `stat` says of a file that changes whenever its bytes do, as git's index keeps it:
    /// which file it is, its size, and when its bytes and its inode last changed, in
    /// nanoseconds since 1970 (to the nanosecond where the file system keeps them).
    struct Stamp: Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
        /// When it was taken, by the system's clock.
        var taken: Int64

        init(_ info: stat, taken: Int64) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
            modified = Self.nanoseconds(info.st_mtimespec)
            changed = Self.nanoseconds(info.st_ctimespec)
            #else
            modified = Self.nanoseconds(info.st_mtim)
            changed = Self.nanoseconds(info.st_ctim)
            #endif
            self.taken = taken
        }

        static func nanoseconds(_ time: timespec) -> Int64 {
            Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }

        /// Whether `later`, taken since, shows the same file unchanged. A file written in the
        /// clock tick this stamp was taken in could change again without its times showing it
        /// on a file system that keeps them coarsely (whole seconds on some): a stamp taken
        /// less than 2 s after the file's last change vouches for nothing, as git's "racily
        /// clean" index entries do not.
        func vouches(for later: Stamp, racyWindow: Int64 = 2_000_000_000) -> Bool {
            device == later.device && inode == later.inode && size == later.size
                && modified == later.modified && changed == later.changed
                && taken - max(modified, changed) >= racyWindow
        }
    }

    /// The stamp of the file at `path` (following symbolic links, as `read` does); nil if there
    /// is none or it is not a regular file.
    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0, entryType(mode: info.st_mode) == .file else { return nil }
        return Stamp(info, taken: now())
    }

    /// The system's clock, in nanoseconds since 1970.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Stamp.nanoseconds(time)
    }

    /// The whole file as it was when opened: the `st_size` bytes `fstat` reported, or fewer if
    /// it shrank meanwhile. Refuses anything larger than `limit` bytes. Not reading on to
    /// confirm the end saves a second `read` per file, about 0.05 s of kernel time for a
    /// 100,000-file catalogue; a file that grows while it is being read is a race that no
    /// order of calls would settle.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadFailure> {
        readStamped(path, limit: limit).map(\.bytes)
    }

    /// `read`, with the file's stamp as `fstat` gave it before the bytes were read.
    static func readStamped(_ path: String, limit: Int) -> Result<(bytes: [UInt8], stamp: Stamp), ReadFailure> {
        // Non-blocking: opening a named pipe for reading otherwise waits for a writer, forever;
        // `fstat` below then refuses it. Reads from a regular file never block.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        let type = entryType(mode: info.st_mode)
        guard type == .file else { return .failure(.notAFile(type)) }
        let stamp = Stamp(info, taken: now())
        let size = Int(info.st_size)
        if size > limit { return .failure(.tooLarge(size: size)) }
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        while total < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                posixRead(descriptor, buffer.baseAddress! + total, size - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if count == 0 { break }
            total += count
        }
        if total < size { bytes.removeSubrange(total...) }
        return .success((bytes, stamp))
    }
}

private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}

extension String {
    /// Whether `a` comes before `b` in the order of their UTF-8 bytes (C's `strcmp` order):
    /// the canonical order of paths, independent of locale and Unicode normalisation. The
    /// standard library's generic `utf8.lexicographicallyPrecedes` walks byte by byte through
    /// index types and took a few per cent of a 100,000-file build; this is one `memcmp`.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = Swift.min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }
}
