import Foundation

/// Remembers which bundle files passed their `quick_check`, so that the check runs once per
/// file rather than at every launch. A file is named by its content digest and size. An app
/// can keep the store in its preferences.
public protocol BundleTrustStore: Sendable {
    /// Whether the bundle file so named has been checked.
    func isVerified(_ identity: String) -> Bool
    /// Records that the bundle file so named passed its check.
    func markVerified(_ identity: String)
}

/// A trust store that lasts as long as the process.
public final class InMemoryTrustStore: BundleTrustStore, Sendable {
    /// The process-wide store, the default.
    public static let shared = InMemoryTrustStore()
    private let verified = LockedValue<Set<String>>([])

    /// An empty store.
    public init() {}

    public func isVerified(_ identity: String) -> Bool {
        verified.withLock { $0.contains(identity) }
    }

    public func markVerified(_ identity: String) {
        verified.withLock { _ = $0.insert(identity) }
    }
}

/// A trust store kept in a file, so that a bundle's `quick_check` runs once per file rather
/// than once per launch (186 ms at 100,000 entities, seconds on a cold cache). `BundleStore`
/// keeps one in its folder. The file holds one identity a line, the last 64 marked; it is read
/// once, under a 64 KiB cap, and written anew (flushed, then renamed, its folder made if
/// missing) at each new mark. A file
/// that is missing, too large or holds anything but identities is taken as empty (the checks
/// run again, and the next mark writes it anew); a mark that cannot be written is kept in
/// memory.
///
/// Trusting a file by its content digest and size skips only the structural check: the bytes
/// of an installed bundle are checked against their signed SHA-256 by `BundleStore` (at its
/// first update, and when the app reports damage), and every value is still read as untrusted.
public final class FileTrustStore: BundleTrustStore, Sendable {
    /// The file.
    public let path: String
    /// The identities, oldest first; the file is written while they are held.
    private let identities: LockedValue<[String]>

    /// How many identities the file keeps: a store holds two bundles and a seed.
    static let capacity = 64
    static let sizeLimit = 64 << 10

    /// The store kept in the file at `path`, read now.
    public init(path: String) {
        self.path = path
        identities = LockedValue(Self.read(path))
    }

    public func isVerified(_ identity: String) -> Bool {
        identities.withLock { $0.contains(identity) }
    }

    public func markVerified(_ identity: String) {
        guard Self.isIdentity(identity) else { return }
        let path = path
        identities.withLock { identities in
            guard !identities.contains(identity) else { return }
            identities = Array((identities + [identity]).suffix(Self.capacity))
            let text = identities.map { $0 + "\n" }.joined()
            let temporary = DurableFile.temporaryPath(for: path)
            do {
                try DurableFile.makeFolder(DurableFile.split(path).folder)
                try DurableFile.writeFlushed(Array(text.utf8), to: temporary)
                try DurableFile.move(temporary, to: path)
            } catch {
                try? DurableFile.remove(temporary)
            }
        }
    }

    /// The identities in the file, none when it is missing, too large or not all identities.
    private static func read(_ path: String) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: sizeLimit + 1), data.count <= sizeLimit else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.allSatisfy(isIdentity) else { return [] }
        return Array(lines.suffix(capacity))
    }

    /// Whether `text` is an identity as `CatalogBundle` names a file: a SHA-256 content digest
    /// in lowercase hex, a colon and a size.
    static func isIdentity(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, String(parts[0]).isSHA256Hex, !parts[1].isEmpty, parts[1].utf8.count <= 19 else { return false }
        return parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
