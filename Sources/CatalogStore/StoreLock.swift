import CatalogModel

/// An exclusive lock on the store's folder, one updater at a time, across processes and within
/// one: CatalogModel's `DurableFile.FolderLock`, waited for without blocking a thread.
final class StoreLock: Sendable {
    private let lock: DurableFile.FolderLock

    /// Waits for the lock, polling, so that a waiting task never blocks a thread of the
    /// cooperative pool; gives up if the task is cancelled.
    init(_ folder: String) async throws(BundleStoreError) {
        do { lock = try DurableFile.FolderLock(folder) } catch { throw StoreFiles.failure(error) }
        while true {
            let taken: Bool
            do { taken = try lock.tryLock() } catch { throw StoreFiles.failure(error) }
            if taken { return }
            do { try await Task.sleep(nanoseconds: 20_000_000) } catch { throw .cancelled }
        }
    }
}
