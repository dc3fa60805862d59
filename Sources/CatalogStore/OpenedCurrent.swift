import CatalogModel
import ChannelFormat
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bundle a store last opened for `current()`, with the stamps of the files it was opened
/// from.
final class OpenedCurrent: Sendable {
    private let entry = LockedValue<(stamps: [FileStamp?], bundleStamp: FileStamp?, current: BundleStore.Current)?>(nil)

    /// The bundle kept, if the store's files are still `stamps`' and its own file unchanged.
    func current(stamps: [FileStamp?]) -> BundleStore.Current? {
        guard let entry = entry.current, entry.stamps == stamps,
              entry.bundleStamp != nil, FileStamp(entry.current.bundle.path) == entry.bundleStamp else { return nil }
        return entry.current
    }

    func keep(_ current: BundleStore.Current, stamps: [FileStamp?]) {
        let bundleStamp = FileStamp(current.bundle.path)
        entry.withLock { $0 = (stamps, bundleStamp, current) }
    }
}
