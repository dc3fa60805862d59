#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder's entry as `readdir` gives it. Its name is read through a pointer to the entry's
/// own bytes, up to the NUL that ends it: never as the whole array `d_name` declares (256
/// bytes), a copy of which read past a short entry at the end of the system's buffer, into a
/// page that is not mapped (a crash of `digno studio` as it began watching a folder).
package enum DirectoryEntry {
    /// `body` with the name of `entry`, as the C calls take it.
    package static func withName<T>(of entry: UnsafeMutablePointer<dirent>, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return try body(UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }

    /// `body` with the bytes of `entry`'s name, in place (a name that is not UTF-8 as it is).
    package static func withBytes<T>(of entry: UnsafeMutablePointer<dirent>, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try withName(of: entry) { name in try body(UnsafeRawBufferPointer(start: name, count: strlen(name))) }
    }

    /// The name of `entry`, its bytes read as UTF-8.
    package static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withBytes(of: entry) { String(decoding: $0, as: UTF8.self) }
    }
}
