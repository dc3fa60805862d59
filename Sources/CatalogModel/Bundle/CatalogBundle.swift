import Foundation
import GRDB

/// A compiled Café Digno bundle, opened read-only: the source of every screen of the app.
///
/// The file is treated as untrusted, as SQLite's security guidance advises for databases from
/// elsewhere: `trusted_schema` off, `cell_size_check` on, no memory mapping. Before anything
/// else is read, its identity (application id and schema version) and its whole schema are
/// checked: `sqlite_schema` must be exactly what `schema.sql` creates, with no extra table,
/// view, trigger or index. Then its release information, and a `quick_check` the first time a
/// file is opened (remembered in a ``BundleTrustStore`` by the bundle's content digest and size).
/// Every value is read as what it may be, and every read runs under a bound on SQLite's work,
/// so a damaged or hostile bundle gives ``CatalogBundleError/damaged(path:reason:)``, never a crash or a hang.
/// Reads are safe from several threads at once.
public final class CatalogBundle: Sendable {
    /// The newest schema version this library reads, and the one the compiler writes.
    public static let supportedSchemaVersion = 4
    /// Every schema version this library reads: 2 (the default language only), 3 (every
    /// language the catalogue declares, schema 2's tables and the languages' own) and 4 (schema
    /// 3's, and each picture's renditions at every screen scale).
    public static let readableSchemaVersions: ClosedRange<Int> = 2...4
    /// The `application_id` of a Café Digno bundle: 'CDBG' in ASCII.
    package static let applicationID: Int32 = 0x4344_4247

    /// The bundle's path.
    public let path: String
    /// The bundle's release.
    public let release: ReleaseInfo
    /// The languages the bundle holds, its default first, such as `["fi", "sv", "en"]`. A
    /// bundle of schema 2 holds Finnish alone.
    public var languages: [String] { declaredLanguages.map(\.code) }
    /// The language the screens are read in: the default, or the one `reading(in:)` chose.
    public var language: String { textReading.language }
    let database: DatabasePool
    /// The bound every read runs under.
    let bound: QueryBound
    /// The languages, with their fallbacks.
    package let declaredLanguages: [BundleLanguage]
    /// How texts are read: the language, and the chain to the default.
    package let textReading: TextReading

    /// Opens the bundle at `path`. Throws a ``CatalogBundleError`` for a missing file, a file
    /// that is not a bundle, a bundle from a newer schema, or a damaged bundle.
    ///
    /// - Parameters:
    ///   - path: The bundle file, or a symbolic link to it.
    ///   - expectedSHA256: The SHA-256 of the file in hexadecimal, as the bundle's manifest gives
    ///     it (`bundle.sha256`). When given, every byte of the file is read and hashed before it
    ///     is opened, and a file that differs is `damaged`: this finds any change to the file,
    ///     where the other checks find only what breaks SQLite's structure or the bundle's
    ///     shape. It costs a read of the whole file (0.16 s for the 172 MB bundle of
    ///     100,000 entities on the development machine, a third of `sha256sum`'s time), so an
    ///     app does it once, after a download or at first launch.
    ///   - trust: Where the files that passed their `quick_check` are remembered.
    public convenience init(
        path: String, expectedSHA256: String? = nil, trust: any BundleTrustStore = InMemoryTrustStore.shared
    ) throws(CatalogBundleError) {
        try self.init(path: path, expectedSHA256: expectedSHA256, trust: trust, bound: .standard)
    }

    /// Opens the database at `path` that a preview patches while it is read (`PatchableBundle`
    /// in the compiler): in WAL mode, so that a patch never waits for a page being read nor a
    /// read for a patch. Its identity and schema are checked as a bundle's; its header, which
    /// WAL mode changes, and its `quick_check` are not: the compiler wrote it a moment ago and
    /// it is never published.
    package convenience init(patchedAt path: String) throws(CatalogBundleError) {
        try self.init(path: path, expectedSHA256: nil, trust: InMemoryTrustStore.shared, bound: .standard, patched: true)
    }

    init(path: String, expectedSHA256: String?, trust: any BundleTrustStore, bound: QueryBound, patched: Bool = false) throws(CatalogBundleError) {
        self.path = path
        self.bound = bound
        switch patched ? (BundleFileCheck.size(at: path) == nil ? .missing : nil) : BundleFileCheck.failure(at: path) {
        case .missing: throw .fileMissing(path: path)
        case .notAFile(let reason): throw .notABundle(path: path, reason: reason)
        case .notSQLite: throw .notABundle(path: path, reason: BundleFailure(.notSQLite, "it is not an SQLite database"))
        case .damaged(let reason): throw .damaged(path: path, reason: reason)
        case nil: break
        }
        if let expectedSHA256 {
            try BundleFileDigest.verify(path: path, expected: expectedSHA256)
        }
        // The bundle's size, a link followed: with the digest, the file's identity for the trust store.
        let size = BundleFileCheck.size(at: path) ?? 0
        do {
            database = try DatabasePool(path: path, configuration: Self.configuration(label: "CatalogBundle"))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notABundle(path: path, reason: BundleFailure(error))
        } catch {
            // The header said SQLite, so a file that will not open is a damaged one.
            throw .damaged(path: path, reason: BundleFailure(error))
        }
        let database = database
        (release, declaredLanguages) = try Self.read(database, path: path, bound: bound) { db in
            // Identity and schema first: until they hold, no query of a table can be trusted to
            // do what it says.
            let version = try Self.checkIdentity(db, path: path)
            let differences = try BundleSchemaDefinition.differences(in: db, version: version, limit: 3)
            guard differences.isEmpty else {
                throw CatalogBundleError.damaged(path: path, reason: BundleFailure(.schema, "its schema is not a bundle's: " + differences.joined(separator: "; ")))
            }
            let release = try ReleaseInfo(db, schemaVersion: version)
            let identity = "\(release.contentDigest):\(size)"
            if !patched, !trust.isVerified(identity) {
                let result = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard result == ["ok"] else {
                    throw CatalogBundleError.damaged(path: path, reason: BundleFailure(.integrity, result.prefix(3).map(\.showingInvisibles).joined(separator: "; ")))
                }
                trust.markVerified(identity)
            }
            return (release, try BundleLanguage.read(db, schemaVersion: version))
        }
        textReading = TextReading(defaultOf: declaredLanguages)
    }

    private init(_ bundle: CatalogBundle, reading: TextReading) {
        path = bundle.path
        release = bundle.release
        database = bundle.database
        bound = bundle.bound
        declaredLanguages = bundle.declaredLanguages
        textReading = reading
    }

    /// The same bundle, its screens read in the best language it has for a reader who prefers
    /// `preferredLanguages`, best first, as `Locale.preferredLanguages` gives them: the first
    /// one the bundle holds, whole or by its language alone (`sv-FI` reads `sv`), or else the
    /// default. Each text not translated into that language falls back along the chain the
    /// catalogue declares, text by text, and each record's `languages` names the texts that
    /// did. Lists are in that language's alphabetical order after the editor's positions.
    ///
    /// The bundle returned shares this one's file and readers: making one costs nothing, so an
    /// app makes it again when the reader's languages change.
    public func reading(in preferredLanguages: [String]) -> CatalogBundle {
        let best = BundleLanguage.lookup(preferredLanguages, among: languages) ?? textReading.defaultLanguage
        return CatalogBundle(self, reading: TextReading(best, in: declaredLanguages))
    }

    /// How a bundle is opened, by this library and by `digno inspect`: read-only, and with
    /// SQLite's settings for a database from elsewhere
    /// (https://www.sqlite.org/security.html#untrusted_sqlite_database_files).
    package static func configuration(label: String) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = label
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
        }
        return configuration
    }

    /// Checks the application id and schema version, before anything else is read; the
    /// schema version, one this library reads.
    @discardableResult
    package static func checkIdentity(_ db: Database, path: String) throws(CatalogBundleError) -> Int {
        let applicationID: Int32
        let version: Int
        do {
            applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        } catch {
            throw .damaged(path: path, reason: BundleFailure(error))
        }
        guard applicationID == Self.applicationID else {
            throw .notABundle(path: path, reason: BundleFailure(.applicationID, "its application id is \(hex(applicationID)), not a Café Digno bundle's \(hex(Self.applicationID)) ('CDBG')"))
        }
        guard version <= supportedSchemaVersion else {
            throw .newerSchema(path: path, found: version, supported: supportedSchemaVersion)
        }
        guard readableSchemaVersions.contains(version) else {
            throw .notABundle(path: path, reason: BundleFailure(.olderSchema, "its schema version \(version) is older than any this library reads"))
        }
        return version
    }

    /// An application id as SQLite's documentation and docs/BUNDLE-FORMAT.md write it, such as 0x43444247.
    package static func hex(_ id: Int32) -> String {
        "0x" + String(UInt32(bitPattern: id), radix: 16, uppercase: true)
    }

    /// Runs a read under the bound, turning any failure into `damaged`: a sound bundle answers
    /// every query of this library.
    package func read<T>(_ body: (Database) throws -> T) throws(CatalogBundleError) -> T {
        try Self.read(database, path: path, bound: bound, body)
    }

    /// Runs a query on the calling thread.
    package func read<T>(_ query: BundleQuery<T>) throws(CatalogBundleError) -> T {
        try read(query.body)
    }

    /// Runs a query on one of GRDB's reader threads, suspending the caller meanwhile. When the
    /// caller's task is cancelled, GRDB does not start the read, or interrupts it: that is
    /// `.cancelled`, never damage (the interrupt is the same SQLite error as the bound's).
    package func read<T>(_ query: BundleQuery<T>) async throws(CatalogBundleError) -> T {
        let bound = bound
        do {
            return try await database.read { db in try bound.run(db, query.body) }
        } catch let error as CatalogBundleError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw .cancelled }
            throw .damaged(path: path, reason: BundleFailure(error, bound: bound))
        }
    }

    private static func read<T>(_ database: DatabasePool, path: String, bound: QueryBound, _ body: (Database) throws -> T) throws(CatalogBundleError) -> T {
        do {
            return try database.read { db in try bound.run(db, body) }
        } catch let error as CatalogBundleError {
            throw error
        } catch {
            throw .damaged(path: path, reason: BundleFailure(error, bound: bound))
        }
    }
}
