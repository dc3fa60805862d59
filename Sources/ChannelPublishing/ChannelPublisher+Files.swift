import CatalogModel
import ChannelFormat

extension ChannelPublisher.Failure {
    /// A file of the channel folder that could not be written: its path and the system's reason.
    static func writing(_ error: DurableFileError) -> Self {
        .writing("cannot write '\(error.path)': \(error.reason)")
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
}
