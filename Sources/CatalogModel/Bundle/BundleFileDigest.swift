import Crypto
import Foundation

/// The SHA-256 of a whole bundle file, read in pieces: what the manifest's `bundle.sha256`
/// states, and the only check that finds every change to a file (a flipped bit inside a text
/// leaves SQLite's structure whole, and no page of a bundle carries a checksum).
package enum BundleFileDigest {
    /// The SHA-256 of the file at `path`, in lowercase hexadecimal, and its size in bytes; nil
    /// when it cannot be read. `read`, if given, is told the bytes read so far after each MiB.
    package static func sha256(path: String, read: ((Int) -> Void)? = nil) -> (hex: String, bytes: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes = 0
        do {
            // nil, or no bytes, at the end of the file.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
                bytes += chunk.count
                read?(bytes)
            }
        } catch {
            return nil
        }
        return (hasher.finalize().hexString, bytes)
    }

    /// Throws `damaged` unless the file's SHA-256 is `expected` (hexadecimal, either case).
    static func verify(path: String, expected: String) throws(CatalogBundleError) {
        guard let found = sha256(path: path) else { throw .damaged(path: path, reason: BundleFailure(.unreadable, "it could not be read to the end")) }
        guard found.hex == expected.lowercased() else {
            throw .damaged(path: path, reason: BundleFailure(.digest, "its SHA-256 is \(found.hex), not the expected \(expected.lowercased().showingInvisibles): "
                + "the file changed after it was built"))
        }
    }
}
