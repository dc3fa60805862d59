import BundleCompiler
#if canImport(Glibc)
import Glibc
#endif

/// Hears a content folder change through the kernel (Linux's inotify): every folder under it
/// watched, a folder made later watched as it appears. `wait` returns once something changed
/// and no further change came for `quiet` (50 ms): an editor's "save all" or a `git checkout`
/// is one change, one patch. It says which files changed, so that the check reads those alone
/// (`ContentValidator.changedOnDisk`), or that it cannot say (a folder moved, the kernel's
/// queue overflowed). Hidden files (an editor's swap file) are not content and are not heard.
///
/// Where it cannot be had (another system than Linux, the user's watch limit reached, a folder
/// on a network file system, whose changes made on another machine inotify never hears; `digno
/// preview --poll`), the preview looks at the folder instead (`ContentSnapshot`).
/// Written by hand: no package on the mirror watches files.
final class FolderEvents: @unchecked Sendable {
    // @unchecked Sendable: `wait` is called from one thread at a time (the preview's watcher),
    // which alone touches `folders`; `interrupt` only writes a byte to a pipe, from any thread.
    /// How long no change must follow a change before it is acted on.
    static let quiet: Duration = .milliseconds(50)

    #if os(Linux)
    private let descriptor: Int32
    /// A pipe whose write end `interrupt()` writes to, to end a `wait` at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Each watched folder by its watch descriptor, as a path relative to the root ("" for it).
    private var folders: [Int32: String] = [:]
    /// What the events since the last `wait` named.
    private var heard: Set<String> = []
    private var unknown = false
    /// A folder that exists and could not be watched.
    private var missedFolder = false
    private let root: String

    /// Watches `root` and every folder under it (links not followed into, `ContentSnapshot`'s
    /// depth); nil when inotify cannot be had.
    init?(root: String) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(descriptor)
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        self.descriptor = descriptor
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        self.root = root
        // Every folder or none: one the kernel would not watch (the user's limit reached) would
        // be a folder whose saves go unheard, so the preview looks instead.
        guard watch("", depth: 0), !missedFolder else {
            close(descriptor)
            close(wakeRead)
            close(wakeWrite)
            return nil
        }
    }

    deinit {
        close(descriptor)
        close(wakeRead)
        close(wakeWrite)
    }

    /// What a watched folder tells of.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR)

    /// Watches the folder at `path` (relative to the root) and those under it. False when the
    /// root itself cannot be watched; a folder under it that cannot (removed meanwhile, the
    /// limit reached) is left out, and the rest still heard.
    @discardableResult
    private func watch(_ path: String, depth: Int) -> Bool {
        let full = path.isEmpty ? root : root + "/" + path
        // The root may be a link to the folder; below it, links are not followed.
        let watched = inotify_add_watch(descriptor, full, path.isEmpty ? Self.mask & ~UInt32(IN_DONT_FOLLOW) : Self.mask)
        guard watched >= 0 else {
            // Removed since it was listed: nothing to hear. Otherwise (the limit of watches)
            // its saves would go unheard.
            if errno != ENOENT && errno != ENOTDIR { missedFolder = true }
            return false
        }
        folders[watched] = path
        guard depth < ContentSnapshot.depthLimit, let folder = opendir(full) else { return true }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = DirectoryEntry.name(of: entry)
            guard name != ".", name != "..", entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            watch(path.isEmpty ? name : path + "/" + name, depth: depth + 1)
        }
        return true
    }

    /// Waits for a change, then for `quiet` with none. What changed; nil when `interrupt()`
    /// ended the wait, or `timeout` passed with no change. What an interrupted wait had heard is
    /// kept for the next, which returns it after its quiet spell.
    func wait(timeout: Duration) -> Change? {
        wait(timeout: timeout) { _ in true }?.change
    }

    /// `wait(timeout:)`, telling `first` what has been heard so far after each read of the
    /// kernel's events, before the quiet spell, until it takes it (returns true), so that the
    /// caller may start on it meanwhile; `settled` says whether it took it and nothing more came
    /// after (then the change is what it took).
    func wait(timeout: Duration, first: (Change) -> Bool) -> (change: Change, settled: Bool)? {
        var taken = false, settled = false
        func heardSoFar() {
            if taken {
                settled = false
            } else if first(unknown ? .unknown : .files(heard)) {
                (taken, settled) = (true, true)
            }
        }
        if !heard.isEmpty || unknown { heardSoFar() }
        while heard.isEmpty && !unknown {
            // Until a change that is not only of hidden files.
            guard waitReadable(timeout) == .events else { return nil }
            drain()
            if !heard.isEmpty || unknown { heardSoFar() }
        }
        // Until a quiet spell: each later change starts it again.
        while true {
            switch waitReadable(Self.quiet) {
            case .events:
                drain()
                heardSoFar()
            case .woken: return nil
            case .timedOut:
                defer { (heard, unknown) = ([], false) }
                return (unknown ? .unknown : .files(heard), settled)
            }
        }
    }

    /// Whether every folder is watched: false once a folder made later could not be (the
    /// user's limit of watches reached), whose saves would go unheard; the preview then looks.
    var isComplete: Bool { !missedFolder }

    /// Ends a `wait` at once, from any thread.
    func interrupt() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private enum Readable { case events, woken, timedOut }
    #endif

    /// What changed.
    enum Change: Equatable {
        /// These files, by path relative to the root.
        case files(Set<String>)
        /// Something the events do not name file by file: the folder is looked at whole.
        case unknown
    }
    #if os(Linux)

    private func waitReadable(_ timeout: Duration) -> Readable {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptors, 2, max(0, milliseconds))
        if ready > 0, descriptors[1].revents != 0 {
            var bytes = [UInt8](repeating: 0, count: 64)
            _ = read(wakeRead, &bytes, bytes.count)
            return .woken
        }
        return ready > 0 && descriptors[0].revents != 0 ? .events : .timedOut
    }

    /// Reads every pending event; a folder made or moved in is watched (with those under it).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watched, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)
                if mask & UInt32(IN_IGNORED) != 0 {
                    folders[watched] = nil
                } else if mask & UInt32(IN_Q_OVERFLOW) != 0 || name.isEmpty {
                    // Events lost, or the watched folder itself removed or moved.
                    unknown = true
                } else if let parent = folders[watched], !name.hasPrefix(".") {
                    let path = parent.isEmpty ? name : parent + "/" + name
                    if mask & UInt32(IN_ISDIR) != 0 {
                        // A folder made, moved or removed: what it holds is not told file by file.
                        unknown = true
                        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watch(path, depth: path.split(separator: "/").count) }
                    } else {
                        heard.insert(path)
                    }
                }
                offset = nameStart + length
            }
        }
    }
    #else
    init?(root: String) { nil }
    var isComplete: Bool { false }
    func wait(timeout: Duration) -> Change? { nil }
    func wait(timeout: Duration, first: (Change) -> Bool) -> (change: Change, settled: Bool)? { nil }
    func interrupt() {}
    #endif
}
