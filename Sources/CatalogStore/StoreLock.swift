import CatalogModel

/// An exclusive lock on the store's folder, one updater at a time, across processes and within
/// one: CatalogModel's `DurableFile.FolderLock`, waited for without blocking a thread.
final class StoreLock: Sendable {
    private let lock: DurableFile.FolderLock

    /// How long an update waits for another one to finish: two minutes. The other one installs
    /// what there is to install; this one gives up with `busy` rather than wait without end
    /// behind a host that trickles.
    static let waitLimit: Duration = .seconds(120)

    /// Waits for the lock, polling, so that a waiting task never blocks a thread of the
    /// cooperative pool; gives up if the task is cancelled, or with `busy` after `waitLimit`.
    init(_ folder: String, waitLimit: Duration = StoreLock.waitLimit) async throws(BundleStoreError) {
        do { lock = try DurableFile.FolderLock(folder) } catch { throw StoreFiles.failure(error) }
        let deadline = ContinuousClock.now + waitLimit
        while true {
            let taken: Bool
            do { taken = try lock.tryLock() } catch { throw StoreFiles.failure(error) }
            if taken { return }
            guard ContinuousClock.now < deadline else { throw .busy }
            do { try await Task.sleep(nanoseconds: 20_000_000) } catch { throw .cancelled }
        }
    }
}
