@testable import CatalogModel
import Foundation
import GRDB
import Testing

/// Opening a bundle: its release, and a typed error with a clear message for each kind of bad
/// file, never a crash.
@Suite struct CatalogBundleOpeningTests {
    @Test func opensTheShippedBundleAndReadsItsRelease() throws {
        let bundle = try CatalogBundle(path: BundleFixtures.shipped, trust: InMemoryTrustStore())
        #expect(bundle.release.brand == "Café Digno")
        #expect(bundle.release.releaseVersion == "2026.11.0")
        #expect(bundle.release.releaseDate == Day("2026-11-22"))
        #expect(bundle.release.schemaVersion == 4)
        #expect(bundle.release.contentDigest.count == 64)
        #expect(bundle.release.generator.hasPrefix("digno "))
    }

    /// A bundle of schema 2, as the compiler wrote it before the languages, still opens, and
    /// every screen of it reads.
    @Test func aBundleOfSchemaTwoStillReads() throws {
        let bundle = try CatalogBundle(path: BundleFixtures.smallSchema2, trust: InMemoryTrustStore())
        #expect(bundle.release.schemaVersion == 2)
        try bundle.readEveryScreen(on: bundle.release.releaseDate)
        #expect(try bundle.productRows().map(\.name) == (try CatalogBundle(path: BundleFixtures.small).productRows().map(\.name)))
    }

    @Test func aMissingFileIsReported() {
        #expect(throws: CatalogBundleError.fileMissing(path: "/nonexistent/catalog.sqlite")) {
            try CatalogBundle(path: "/nonexistent/catalog.sqlite")
        }
        #expect(CatalogBundleError.fileMissing(path: "x.sqlite").description == "no bundle at 'x.sqlite'")
    }

    @Test func aFileThatIsNotSQLiteIsNotABundle() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { $0 = Data("<catalog/>\n".utf8) }
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: BundleFailure(.notSQLite, "it is not an SQLite database"))) {
            try CatalogBundle(path: path)
        }
    }

    @Test func anotherApplicationsDatabaseIsNotABundle() throws {
        let path = BundleFixtures.folder.appendingPathComponent("foreign-\(UUID().uuidString).sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); PRAGMA application_id = 42") }
        try queue.close()
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: BundleFailure(.applicationID, "its application id is 0x2A, not a Café Digno bundle's 0x43444247 ('CDBG')"))) {
            try CatalogBundle(path: path)
        }
    }

    @Test func anOlderSchemaIsRefused() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 1") }
        try queue.close()
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: BundleFailure(.olderSchema, "its schema version 1 is older than any this library reads"))) {
            try CatalogBundle(path: path)
        }
    }

    @Test func aNewerSchemaIsRefusedWithItsOwnError() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        let queue = try DatabaseQueue(path: path)
        let newer = CatalogBundle.supportedSchemaVersion + 1
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = \(newer)") }
        try queue.close()
        #expect(throws: CatalogBundleError.newerSchema(path: path, found: newer, supported: CatalogBundle.supportedSchemaVersion)) {
            try CatalogBundle(path: path)
        }
        #expect(CatalogBundleError.newerSchema(path: "b", found: 2, supported: 1).description
                    == "'b' has schema version 2, newer than the 1 this app reads; update the app")
    }

    /// The page size a bundle file's header states (bytes 16 and 17, big-endian).
    static func pageSize(of data: Data) -> Int {
        Int(data[data.startIndex + 16]) << 8 | Int(data[data.startIndex + 17])
    }

    @Test func aTruncatedBundleIsDamaged() throws {
        let pageSize = Self.pageSize(of: try Data(contentsOf: URL(fileURLWithPath: BundleFixtures.small)))
        for keep in [50, pageSize, pageSize + 5_000] {
            let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { $0 = $0.prefix(keep) }
            do {
                _ = try CatalogBundle(path: path, trust: InMemoryTrustStore())
                Issue.record("a bundle cut to \(keep) bytes opened")
            } catch {
                guard case .damaged = error else { Issue.record("cut to \(keep) bytes: \(error)"); continue }
            }
        }
    }

    /// SQLite reads the pages missing from a file cut short as zeros, and its checks can pass:
    /// the header's page count says the file is not whole.
    @Test(arguments: [-1, -100, 1, 4096])
    func aBundleCutShortOrAddedToIsDamagedBeforeSQLiteOpensIt(change: Int) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: BundleFixtures.small))
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { data in
            data = change < 0 ? data.dropLast(-change) : data + Data(count: change)
        }
        let expected = "it is \(original.count + change) bytes, but its header says \(original.count) (\(original.count / Self.pageSize(of: original)) pages of \(Self.pageSize(of: original))): "
            + "the file was cut short or added to, as by an interrupted copy; copy or build it again"
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.size, expected))) { try CatalogBundle(path: path, trust: InMemoryTrustStore()) }
    }

    /// Opening a database in WAL mode creates files beside it, even read-only; a bundle is
    /// never in WAL mode, so such a file is refused before it is opened.
    @Test func aFileInWALModeIsRefusedWithoutCreatingFilesBesideIt() throws {
        let folder = BundleFixtures.folder.appendingPathComponent("wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        try FileManager.default.copyItem(atPath: BundleFixtures.small, toPath: path)
        let queue = try DatabaseQueue(path: path)
        _ = try queue.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["catalog.sqlite"])
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.journalMode, "it is in WAL mode; a bundle is in rollback-journal (DELETE) mode and never changes"))) {
            try CatalogBundle(path: path, trust: InMemoryTrustStore())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["catalog.sqlite"])
    }

    /// A journal beside a bundle: a program was changing it and stopped.
    @Test func aBundleWithAJournalBesideItIsDamaged() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        try Data("a hot journal".utf8).write(to: URL(fileURLWithPath: path + "-journal"))
        defer { try? FileManager.default.removeItem(atPath: path + "-journal") }
        // SQLite too refuses a hot journal read-only, but with no word of the journal.
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.journal, "a journal file is beside it (\"-journal\"): a program was changing it and stopped; build or copy the bundle again"))) {
            try CatalogBundle(path: path, trust: InMemoryTrustStore())
        }
        // An empty one is not hot: nothing is rolled back.
        try Data().write(to: URL(fileURLWithPath: path + "-journal"))
        #expect(throws: Never.self) { try CatalogBundle(path: path, trust: InMemoryTrustStore()) }
    }

    /// A folder or a named pipe where the bundle should be; opening a pipe would wait forever.
    @Test func somethingThatIsNotAFileIsNotABundle() throws {
        let folder = BundleFixtures.folder.appendingPathComponent("not-a-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CatalogBundleError.notABundle(path: folder.path, reason: BundleFailure(.notAFile, "it is a folder; give the bundle file, such as dist/catalog.sqlite"))) {
            try CatalogBundle(path: folder.path)
        }
        let pipe = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(throws: CatalogBundleError.notABundle(path: pipe, reason: BundleFailure(.notAFile, "it is a named pipe, not a file"))) {
            try CatalogBundle(path: pipe)
        }
        // A link to a bundle is the bundle.
        let link = folder.appendingPathComponent("current.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: BundleFixtures.small)
        #expect(throws: Never.self) { try CatalogBundle(path: link, trust: InMemoryTrustStore()) }
    }

    @Test func flippedBytesAreFoundByTheFirstCheck() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: BundleFixtures.small))
        let pageSize = Self.pageSize(of: original)
        // Damage every page after the first, leaving the header and schema page readable.
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { data in
            for offset in stride(from: pageSize + 100, to: data.count, by: 512) { data[offset] ^= 0xFF }
        }
        #expect(original.count > 2 * pageSize)
        do {
            let bundle = try CatalogBundle(path: path, trust: InMemoryTrustStore())
            Issue.record("a corrupted bundle opened: \(bundle.release)")
        } catch {
            guard case .damaged = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func theQuickCheckRunsOncePerFile() throws {
        let store = InMemoryTrustStore()
        let bundle = try CatalogBundle(path: BundleFixtures.small, trust: store)
        let size = try #require((try FileManager.default.attributesOfItem(atPath: BundleFixtures.small))[.size] as? Int)
        #expect(store.isVerified("\(bundle.release.contentDigest):\(size)"))
    }

    @Test func aWriteThroughTheLibrarysConnectionFails() throws {
        let bundle = try CatalogBundle(path: BundleFixtures.small)
        #expect(throws: DatabaseError.self) {
            try bundle.database.writeWithoutTransaction { try $0.execute(sql: "DELETE FROM products") }
        }
        let count = try bundle.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM products") }
        #expect(count == 2)
    }
}
