import CatalogModel
import ChannelFormat
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file is at a path: its device, inode, size and modification time (`lstat`); nil when
/// there is none. A file replaced by a rename is another file.
struct FileStamp: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init?(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(truncatingIfNeeded: status.st_size)
        #if canImport(Darwin)
        seconds = status.st_mtimespec.tv_sec
        nanoseconds = status.st_mtimespec.tv_nsec
        #else
        seconds = status.st_mtim.tv_sec
        nanoseconds = status.st_mtim.tv_nsec
        #endif
    }
}
