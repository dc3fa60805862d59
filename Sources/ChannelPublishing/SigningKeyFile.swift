import CatalogModel
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A channel's private signing key on disk, as `digno keygen` writes it and `digno publish`
/// reads it: a line that says what the file is, then the key's 32 bytes in base64; or, written
/// with a passphrase (a root key, kept offline), an encrypted PKCS#8 PEM file (`PKCS8Key`),
/// which OpenSSL and Python's `cryptography` read too (and a PKCS#8 PEM file they wrote is
/// read). Readable by its owner only (mode 0600): a key others can read is refused, as ssh
/// refuses one.
package enum SigningKeyFile {
    /// The first line.
    static let heading = "digno signing key (ed25519). Keep it secret: whoever has it can publish releases."

    package enum Failure: CausedError, Equatable, CustomStringConvertible {
        case exists(String)
        case unreadable(String, cause: ErrorCause)
        case notAKey(String)
        case readableByOthers(String, mode: String)
        case writing(String, cause: ErrorCause)
        /// An encrypted key with no passphrase given, or one that does not open it.
        case passphrase(String, reason: String)
        /// The key is encrypted, and the passphrase given does not open it.
        case wrongPassphrase(String)

        package var description: String {
            switch self {
            case .exists(let path): "'\(path)' exists; digno keygen never replaces a key: choose another file"
            case .unreadable(let path, let cause): "cannot read the key '\(path)': \(cause)"
            case .notAKey(let path): "'\(path)' is not a signing key written by digno keygen"
            case .readableByOthers(let path, let mode):
                "the key '\(path)' can be read by others (mode \(mode)); make it its owner's only: chmod 600 \(path)"
            case .writing(let path, let cause): "cannot write the key '\(path)': \(cause)"
            case .passphrase(let path, let reason): "cannot open the key '\(path)': \(reason)"
            case .wrongPassphrase(let path): "cannot open the key '\(path)': the passphrase does not open it"
            }
        }

        /// The system's error, for a key file that cannot be read or written.
        package var cause: ErrorCause? {
            switch self {
            case .unreadable(_, let cause), .writing(_, let cause): cause
            case .exists, .notAKey, .readableByOthers, .passphrase, .wrongPassphrase: nil
            }
        }
    }

    /// Writes `key` into a new file at `path`, mode 0600, flushed to the disk. Never replaces a
    /// file that is there.
    package static func write(_ key: Curve25519.Signing.PrivateKey, to path: String, passphrase: String? = nil) throws(Failure) {
        let text: String
        if let passphrase {
            do { text = try PKCS8Key.pem(key, passphrase: passphrase) } catch { throw .writing(path, cause: ErrorCause(error)) }
        } else {
            text = heading + "\n" + key.rawRepresentation.base64EncodedString() + "\n"
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .exists(path) }
            throw .writing(path, cause: ErrorCause(errno: errno))
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        // The mode asked for above is cut by the umask, never widened; set it exactly.
        guard fchmod(descriptor, 0o600) == 0,
              bytes.withUnsafeBytes({ posixWrite(descriptor, $0.baseAddress, $0.count) }) == bytes.count,
              fsync(descriptor) == 0
        else {
            let cause = ErrorCause(errno: errno)
            unlink(path)
            throw .writing(path, cause: cause)
        }
    }

    /// The key in the file at `path`, if only its owner can read it; `passphrase` is asked
    /// only for an encrypted one (nil: none can be given).
    package static func read(_ path: String, passphrase: (() throws -> String)? = nil) throws(Failure) -> Curve25519.Signing.PrivateKey {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(path, cause: ErrorCause(errno: errno)) }
        let permissions = info.st_mode & 0o777
        guard permissions & 0o077 == 0 else { throw .readableByOthers(path, mode: String(permissions, radix: 8)) }
        guard info.st_size < 4096 else { throw .notAKey(path) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw .unreadable(path, cause: ErrorCause(error)) }
        let text = String(decoding: data, as: UTF8.self)
        if PKCS8Key.isPEM(text) {
            if PKCS8Key.isEncrypted(text), passphrase == nil {
                throw .passphrase(path, reason: "it is encrypted; give its passphrase (--passphrase-file, DIGNO_PASSPHRASE, or on a terminal)")
            }
            do {
                return try PKCS8Key.key(text, passphrase: passphrase ?? { "" })
            } catch let failure as PKCS8Key.Failure {
                if failure == .wrongPassphrase { throw .wrongPassphrase(path) }
                throw .passphrase(path, reason: failure.description)
            } catch {
                throw .passphrase(path, reason: "\(error)")
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == heading, let raw = Data(base64Encoded: String(lines[1])), raw.count == 32,
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw .notAKey(path) }
        return key
    }
}

/// POSIX `write`, which the `write` function above hides.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}
