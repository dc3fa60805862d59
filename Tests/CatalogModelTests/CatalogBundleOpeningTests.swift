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
        #expect(bundle.release.schemaVersion == 2)
        #expect(bundle.release.contentDigest.count == 64)
        #expect(bundle.release.generator.hasPrefix("digno "))
    }

    @Test func aMissingFileIsReported() {
        #expect(throws: CatalogBundleError.fileMissing(path: "/nonexistent/catalog.sqlite")) {
            try CatalogBundle(path: "/nonexistent/catalog.sqlite")
        }
        #expect(CatalogBundleError.fileMissing(path: "x.sqlite").description == "no bundle at 'x.sqlite'")
    }

    @Test func aFileThatIsNotSQLiteIsNotABundle() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { $0 = Data("<catalog/>\n".utf8) }
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: "it is not an SQLite database")) {
            try CatalogBundle(path: path)
        }
    }

    @Test func anotherApplicationsDatabaseIsNotABundle() throws {
        let path = BundleFixtures.folder.appendingPathComponent("foreign-\(UUID().uuidString).sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); PRAGMA application_id = 42") }
        try queue.close()
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: "its application id is 42, not a Café Digno bundle's 1128546887")) {
            try CatalogBundle(path: path)
        }
    }

    @Test func anOlderSchemaIsRefused() throws {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 1") }
        try queue.close()
        #expect(throws: CatalogBundleError.notABundle(path: path, reason: "its schema version 1 is older than any this library reads")) {
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
