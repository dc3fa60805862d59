import CatalogModel
import ChannelFormat
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChannelPublisher.Failure {
    /// A file of the channel folder that could not be written: its path and the system's reason.
    static func writing(_ error: DurableFileError) -> Self {
        .writing("cannot write '\(error.path)'", cause: ErrorCause(errno: error.code))
    }
}

extension ChannelPublisher {
    /// Runs `operation`, a failure of which is `Failure.writing`.
    func durably<Result>(_ operation: () throws(DurableFileError) -> Result) throws(Failure) -> Result {
        do { return try operation() } catch { throw .writing(error) }
    }

    /// Creates the folder at `relative` (a path of `ChannelLayout`) in the channel folder, and
    /// the channel folder, if missing.
    func makeFolder(_ relative: String) throws(Failure) {
        try durably { () throws(DurableFileError) in try DurableFile.makeFolder(path(relative)) }
    }

    /// Takes the channel folder's lock, waiting while another publish holds it: one publish at
    /// a time per channel folder.
    func lockFolder() throws(Failure) -> DurableFile.FolderLock {
        try durably { () throws(DurableFileError) in
            let lock = try DurableFile.FolderLock(channelFolder)
            try lock.lock()
            return lock
        }
    }

    /// Writes `bytes` at `relative` (from the channel folder) under a temporary name, flushed,
    /// given a later modification time than the file it replaces, renamed into place.
    func replaceAtomically(_ relative: String, with bytes: Data) throws(Failure) {
        let target = path(relative)
        do {
            let temporary = DurableFile.temporaryPath(for: target)
            try DurableFile.writeFlushed(bytes, to: temporary)
            Self.laterModificationTime(temporary, than: target)
            try DurableFile.move(temporary, to: target)
        } catch {
            throw .writing(error)
        }
    }

    /// Copies the bundle to its place under `bundles/`, unless the same bytes are there, and
    /// writes its gzip copy beside it (`<sha256>.sqlite.gz`) when that is missing or the bundle
    /// was copied again. Each is written under a temporary name, flushed and renamed.
    func copyIntoPlace(_ source: String, as file: ChannelHead.BundleFile) throws(Failure) {
        let target = path(file.path)
        let compressed = ChannelLayout.gzipPath(of: target)
        var copied = false
        if BundleFileDigest.sha256(path: target)?.hex != file.sha256 {
            try writeInPlace(target) { temporary throws(Failure) in
                do { try FileManager.default.copyItem(atPath: source, toPath: temporary) } catch { throw .writing("'\(source)' cannot be copied to '\(temporary)'", cause: ErrorCause(error)) }
            }
            guard BundleFileDigest.sha256(path: target)?.hex == file.sha256 else { throw .writing("'\(target)' is not the bundle's bytes after copying") }
            copied = true
        }
        if copied || DurableFile.size(compressed) == nil {
            try writeInPlace(compressed) { temporary throws(Failure) in try GzipCopy.write(target, to: temporary) }
        }
    }

    /// Writes `target` through `write` to its temporary name, then flushes and renames it.
    func writeInPlace(_ target: String, _ write: (String) throws(Failure) -> Void) throws(Failure) {
        let temporary = DurableFile.temporaryPath(for: target)
        do {
            try durably { () throws(DurableFileError) in try DurableFile.remove(temporary) }
            try write(temporary)
            try durably { () throws(DurableFileError) in
                try DurableFile.sync(temporary)
                try DurableFile.move(temporary, to: target)
            }
        } catch {
            try? DurableFile.remove(temporary)
            throw error
        }
    }

    /// Gives the new head a modification time at least a second after the old one's. Static
    /// hosts derive the ETag from it (nginx: the time in seconds and the size), and a client
    /// sends that ETag back: two heads of the same size published within a second would share
    /// one, and a client that fetched the first would be told "not modified" about the second.
    static func laterModificationTime(_ path: String, than previous: String) {
        var old = stat(), new = stat()
        guard stat(previous, &old) == 0, stat(path, &new) == 0 else { return }
        #if canImport(Darwin)
        let (oldSeconds, newSeconds) = (old.st_mtimespec.tv_sec, new.st_mtimespec.tv_sec)
        #else
        let (oldSeconds, newSeconds) = (old.st_mtim.tv_sec, new.st_mtim.tv_sec)
        #endif
        guard newSeconds <= oldSeconds else { return }
        var times = [timespec(tv_sec: oldSeconds + 1, tv_nsec: 0), timespec(tv_sec: oldSeconds + 1, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
