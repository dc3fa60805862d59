import Foundation
import GRDB

/// A compiled Café Digno bundle, opened read-only: the source of every screen of the app.
///
/// The file is treated as untrusted, as SQLite's security guidance advises for databases from
/// elsewhere: `trusted_schema` off, `cell_size_check` on, no memory mapping, and a
/// `quick_check` the first time a file is opened (remembered in a `BundleTrustStore` by the
/// bundle's content digest). Reads are safe from several threads at once.
public final class CatalogBundle: Sendable {
    /// The schema version this library reads.
    public static let supportedSchemaVersion = 2
    /// The `application_id` of a Café Digno bundle: 'CDBG' in ASCII.
    public static let applicationID: Int32 = 0x4344_4247

    /// The bundle's path.
    public let path: String
    /// The bundle's release.
    public let release: ReleaseInfo
    let database: DatabasePool

    /// Opens the bundle at `path`. Throws a `CatalogBundleError` for a missing file, a file
    /// that is not a bundle, a bundle from a newer schema, or a damaged bundle.
    public init(path: String, trust: any BundleTrustStore = InMemoryTrustStore.shared) throws(CatalogBundleError) {
        self.path = path
        switch BundleFileCheck.problem(at: path) {
        case .missing: throw .fileMissing(path: path)
        case .notAFile(let reason): throw .notABundle(path: path, reason: reason)
        case .notSQLite: throw .notABundle(path: path, reason: "it is not an SQLite database")
        case .damaged(let reason): throw .damaged(path: path, reason: reason)
        case nil: break
        }
        // The bundle's size, a link followed: with the digest, the file's identity for the trust store.
        let size = BundleFileCheck.size(at: path) ?? 0
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "CatalogBundle"
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
        }
        do {
            database = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notABundle(path: path, reason: Self.reason(error))
        } catch {
            // The header said SQLite, so a file that will not open is a damaged one.
            throw .damaged(path: path, reason: Self.reason(error))
        }
        do {
            release = try database.read { db throws(CatalogBundleError) in
                try Self.checkIdentity(db, path: path)
                let release = try Self.releaseInfo(db, path: path)
                let identity = "\(release.contentDigest):\(size)"
                if !trust.isVerified(identity) {
                    let result = (try? String.fetchAll(db, sql: "PRAGMA quick_check")) ?? ["quick_check could not run"]
                    guard result == ["ok"] else { throw .damaged(path: path, reason: result.prefix(3).joined(separator: "; ")) }
                    trust.markVerified(identity)
                }
                return release
            }
        } catch let error as CatalogBundleError {
            throw error
        } catch {
            throw .damaged(path: path, reason: Self.reason(error))
        }
    }

    private static func checkIdentity(_ db: Database, path: String) throws(CatalogBundleError) {
        let applicationID: Int32
        let version: Int
        do {
            applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        } catch {
            throw .damaged(path: path, reason: reason(error))
        }
        guard applicationID == Self.applicationID else {
            throw .notABundle(path: path, reason: "its application id is \(hex(applicationID)), not a Café Digno bundle's \(hex(Self.applicationID)) ('CDBG')")
        }
        guard version <= supportedSchemaVersion else {
            throw .newerSchema(path: path, found: version, supported: supportedSchemaVersion)
        }
        guard version == supportedSchemaVersion else {
            throw .notABundle(path: path, reason: "its schema version \(version) is older than any this library reads")
        }
    }

    private static func releaseInfo(_ db: Database, path: String) throws(CatalogBundleError) -> ReleaseInfo {
        do {
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info")
            var info: [String: String] = [:]
            for row in rows { info[row[0]] = row[1] }
            guard let version = info["release_version"], let dateText = info["release_date"], let date = Day(dateText),
                let digest = info["content_digest"]
            else {
                throw CatalogBundleError.damaged(path: path, reason: "its release information is incomplete")
            }
            return ReleaseInfo(
                brand: info["brand"] ?? "", releaseVersion: version, releaseDate: date,
                schemaVersion: Int(info["schema_version"] ?? "") ?? 0, contentDigest: digest, generator: info["generator"] ?? "")
        } catch let error as CatalogBundleError {
            throw error
        } catch {
            throw .damaged(path: path, reason: reason(error))
        }
    }

    /// An application id as SQLite's documentation and the README write it, such as 0x43444247.
    public static func hex(_ id: Int32) -> String {
        "0x" + String(UInt32(bitPattern: id), radix: 16, uppercase: true)
    }

    /// A short reason from an SQLite error.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        return "\(error)"
    }

    /// Runs a read, turning any SQLite failure into `damaged`: a sound bundle answers every
    /// query of this library.
    func read<T>(_ body: (Database) throws -> T) throws(CatalogBundleError) -> T {
        do {
            return try database.read(body)
        } catch let error as CatalogBundleError {
            throw error
        } catch {
            throw .damaged(path: path, reason: Self.reason(error))
        }
    }
}

/// What release a bundle holds.
public struct ReleaseInfo: Hashable, Sendable, Codable {
    /// The brand, "Café Digno".
    public var brand: String
    /// The release version, such as `2026.11.0`.
    public var releaseVersion: String
    /// The release date.
    public var releaseDate: Day
    /// The bundle's schema version.
    public var schemaVersion: Int
    /// SHA-256 of the content the bundle was built from.
    public var contentDigest: String
    /// The compiler and SQLite version that built it.
    public var generator: String
}

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
public final class InMemoryTrustStore: BundleTrustStore, @unchecked Sendable {
    /// The process-wide store, the default.
    public static let shared = InMemoryTrustStore()
    private let lock = NSLock()
    private var verified: Set<String> = []

    /// An empty store.
    public init() {}

    public func isVerified(_ identity: String) -> Bool {
        lock.withLock { verified.contains(identity) }
    }

    public func markVerified(_ identity: String) {
        lock.withLock { _ = verified.insert(identity) }
    }
}
