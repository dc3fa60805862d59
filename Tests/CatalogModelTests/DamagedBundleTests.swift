@testable import CatalogModel
import Foundation
import GRDB
import Testing

/// A bundle is untrusted input: whatever is wrong with one, opening it and reading every screen
/// gives `CatalogBundleError`, never a crash or a hang.
@Suite struct DamagedBundleTests {
    /// A copy of the small bundle, changed by SQL: each step on its own read-write connection,
    /// foreign keys off (a change through `writable_schema` takes effect for the next one).
    static func edited(_ steps: [String]) throws -> String {
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        for step in steps {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: step) }
            try queue.close()
        }
        return path
    }

    /// Replaces a column's definition in the schema's text, through `writable_schema`, so
    /// that a value the schema forbids can be stored and the schema then put back as it was.
    static func redefine(_ table: String, _ from: String, _ to: String) -> String {
        "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '\(from)', '\(to)') WHERE name = '\(table)'; PRAGMA writable_schema = OFF"
    }

    /// Reads every screen and every image.
    static func readEverything(_ bundle: CatalogBundle) throws(CatalogBundleError) {
        try bundle.readEveryScreen(on: Day("2026-11-22")!)
    }

    @Test(arguments: [
        // Release information, read before anything else of the tables.
        ([redefine("bundle_info", "value TEXT NOT NULL", "value TEXT"), "UPDATE bundle_info SET value = NULL WHERE key = 'brand'",
          redefine("bundle_info", "value TEXT", "value TEXT NOT NULL")],
         "its column 'value' holds NULL, not text"),
        (["UPDATE bundle_info SET value = '2026-02-30' WHERE key = 'release_date'"], "its release date '2026-02-30' is not a day (YYYY-MM-DD)"),
        (["DELETE FROM bundle_info WHERE key = 'content_digest'"], "its release information has no content_digest"),
        (["UPDATE bundle_info SET value = '2' WHERE key = 'schema_version'"], "its release information's schema version '2' is not the file's, 4"),
        // The schema, checked before any table is read.
        (["CREATE VIEW loader AS SELECT load_extension('/tmp/evil.so') AS x"],
         "its schema is not a bundle's: an extra view 'loader', which a bundle does not have"),
        (["CREATE TRIGGER keep AFTER INSERT ON products BEGIN SELECT 1; END"],
         "its schema is not a bundle's: an extra trigger 'keep', which a bundle does not have"),
        (["DROP TABLE products", """
          CREATE VIEW products AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
          SELECT 'p' || x AS id, x AS position, 'name' AS name, 'summary' AS summary, '' AS icon, '[]' AS body_json, 'text' AS body_text FROM n
          """], "its schema is not a bundle's: 'products' is a view, not a table; index 'sqlite_autoindex_products_1' is missing; index 'sqlite_autoindex_products_2' is missing"),
        (["DROP INDEX retailer_products_by_product"], "its schema is not a bundle's: index 'retailer_products_by_product' is missing"),
    ] as [([String], String)])
    func aDamagedBundleDoesNotOpen(steps: [String], reason: String) throws {
        let path = try Self.edited(steps)
        let code: BundleFailure.Code = reason.hasPrefix("its schema is not") ? .schema : .value
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(code, reason, column: Self.column(in: reason)))) {
            try CatalogBundle(path: path, trust: InMemoryTrustStore())
        }
    }

    /// The column a value's failure names (`its column 'name' holds …`), which the failure keeps.
    static func column(in reason: String) -> String? {
        reason.firstMatch(of: /^its column '([a-z_]+)'/).map { String($0.1) }
    }

    /// Values that SQLite's `quick_check` of a read-only file does not test, or that changed
    /// after a file passed it (the trust store remembers a file by its digest and size): the
    /// bundle opens, and the screen that reads the value fails with what is wrong. CHECK
    /// constraints are off while the values are written.
    @Test(arguments: [
        (["UPDATE retailers SET latitude = 'north', longitude = 24.9 WHERE rowid = 1"], "its column 'latitude' holds text, not a number or NULL"),
        // SQLite would read these as text, and GRDB a real number as an integer cut short.
        (["UPDATE retailers SET name = X'41' WHERE rowid = 1"], "its column 'name' holds bytes (a BLOB), not text"),
        (["UPDATE images SET width = 1.5"], "its column 'width' holds a real number, not an integer"),
        (["UPDATE retailers SET latitude = 95, longitude = 24.9 WHERE rowid = 1"], "its column 'latitude' holds 95.0 with longitude 24.9, not a place on Earth"),
        (["UPDATE retailers SET latitude = NULL, longitude = 24.9 WHERE rowid = 1"], "its column 'latitude' holds NULL with longitude 24.9, not a place on Earth"),
        ([redefine("products", "name TEXT NOT NULL CHECK", "name TEXT CHECK"), "UPDATE products SET name = NULL",
          redefine("products", "name TEXT CHECK", "name TEXT NOT NULL CHECK")],
         "its column 'name' holds NULL, not text"),
        (["UPDATE products SET body_json = '{}'"], "its column 'body_json' holds text that is not rich text as a bundle stores it"),
        // More combining marks in a row than stream-safe text allows, in text and in rich text
        // (as JSON escapes, which no byte scan of the column would see).
        (["UPDATE products SET name = 'a\(String(repeating: "\u{301}", count: 31))' WHERE position = 1"],
         "its column 'name' holds text with 31 combining marks in a row, more than the 30 of stream-safe text"),
        (["UPDATE products SET body_json = '[{\"p\":[\"a\(String(repeating: "\\u0301", count: 31))\"]}]'"],
         "its column 'body_json' holds text that is not rich text as a bundle stores it"),
        // Runs of 20 in a paragraph's inline runs, 40 in a row once drawn.
        (["UPDATE products SET body_json = '[{\"p\":[\"a\(String(repeating: "\u{301}", count: 20))\",{\"em\":[\"\(String(repeating: "\u{301}", count: 20))\"]}]}]'"],
         "its column 'body_json' holds rich text with 40 combining marks in a row, more than the 30 of stream-safe text"),
        (["UPDATE products SET icon = 'icon.png'"], "its column 'icon' holds 'icon.png', not an image's SHA-256"),
        (["UPDATE products SET id = 'Espresso/../x' WHERE position = 1"],
         "its column 'id' holds 'Espresso/../x', not an id such as cafe-latte"),
        (["UPDATE sections SET id = 'settings' WHERE position = 5"], "its column 'id' holds 'settings', not one of the five sections"),
        (["UPDATE images SET media_type = 'image/gif'"], "its column 'media_type' holds 'image/gif', not image/png, image/jpeg or image/webp"),
    ] as [([String], String)])
    func aWrongValueIsADamagedBundleNotACrash(steps: [String], reason: String) throws {
        let path = try Self.edited(steps.map { "PRAGMA ignore_check_constraints = ON; " + $0 })
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.value, reason, column: Self.column(in: reason)))) {
            try Self.readEverything(try CatalogBundle(path: path, trust: TrustingStore()))
        }
    }

    /// A NULL where the schema says NOT NULL is found by the first open's `quick_check`.
    @Test func aNullInANotNullColumnFailsTheFirstCheck() throws {
        let path = try Self.edited([Self.redefine("products", "name TEXT NOT NULL CHECK", "name TEXT CHECK"), "UPDATE products SET name = NULL WHERE position = 1",
                                    Self.redefine("products", "name TEXT CHECK", "name TEXT NOT NULL CHECK")])
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.integrity, "NULL value in products.name"))) {
            try CatalogBundle(path: path, trust: InMemoryTrustStore())
        }
    }

    /// A query that would run forever is stopped at the bound, and the bundle says why.
    @Test func aQueryThatLoopsIsStopped() throws {
        let bound = QueryBound(instructions: 2_000_000)
        let bundle = try CatalogBundle(path: BundleFixtures.small, expectedSHA256: nil, trust: InMemoryTrustStore(), bound: bound)
        #expect {
            try bundle.read { db in
                try Int.fetchOne(db, sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n")
            }
        } throws: { error in
            // SQLite's own code for the interrupted statement is kept: SQLITE_INTERRUPT, 9.
            (error as? CatalogBundleError) == .damaged(path: BundleFixtures.small, reason: BundleFailure(
                .queryBound, "a query did not finish within 2 million steps: the bundle's schema or data makes it loop", sqliteCode: 9))
        }
        // The bound is per read: the next one runs.
        #expect(try bundle.productRows().count == 2)
        // And the standard bound leaves room for every read of a real bundle.
        try Self.readEverything(try CatalogBundle(path: BundleFixtures.shipped, trust: InMemoryTrustStore()))
    }

    /// The deep check: the whole file against the SHA-256 its manifest gives.
    @Test func theFileIsCheckedAgainstAnExpectedSHA256() throws {
        let sha256 = try #require(BundleFileDigest.sha256(path: BundleFixtures.small)).hex
        #expect(throws: Never.self) { try CatalogBundle(path: BundleFixtures.small, expectedSHA256: sha256.uppercased(), trust: InMemoryTrustStore()) }
        // A letter changed inside a stored text: SQLite's checks cannot see it.
        var changed = ""
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { data in
            if let found = data.range(of: Data("Tummapaahteinen".utf8)) { data[found.lowerBound] = UInt8(ascii: "D") }
        }
        changed = try #require(BundleFileDigest.sha256(path: path)).hex
        #expect(changed != sha256)
        #expect(throws: Never.self) { try Self.readEverything(try CatalogBundle(path: path, trust: InMemoryTrustStore())) }
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.digest, "its SHA-256 is \(changed), not the expected \(sha256): the file changed after it was built"))) {
            try CatalogBundle(path: path, expectedSHA256: sha256, trust: InMemoryTrustStore())
        }
    }

    /// The bundle fuzz target's seed is a sound bundle of the current schema, so that its
    /// mutations start from one (docs/FUZZING.md says how to make it again).
    @Test(arguments: ["valid-512", "translated-512"])
    func theFuzzSeedBundleReads(_ name: String) throws {
        let seed = BundleFixtures.repository.appendingPathComponent("Fuzz/Corpus/bundle/\(name).sqlite").path
        let bundle = try CatalogBundle(path: seed, trust: InMemoryTrustStore())
        #expect(bundle.release.schemaVersion == CatalogBundle.supportedSchemaVersion, "remake the seeds as docs/FUZZING.md says")
        try Self.readEverything(bundle)
    }

    /// Pages zeroed, swapped or with bits flipped, as a failing flash chip leaves them
    /// (`PageDamage`): every copy either reads or gives `CatalogBundleError`. A crash would end
    /// the test run. `digno inspect`'s reading of the same copies is BundleCompilerTests'
    /// DamagedPageInspectionTests.
    @Test func zeroedSwappedAndFlippedPagesNeverCrash() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: BundleFixtures.small))
        var outcomes: [String: Int] = [:], zeroedPages = 0
        try PageDamage.forEachCopy(of: original) { copy, surelyDamaged in
            let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { $0 = copy }
            defer { try? FileManager.default.removeItem(atPath: path) }
            if surelyDamaged { zeroedPages += 1 }
            do {
                try Self.readEverything(try CatalogBundle(path: path, trust: InMemoryTrustStore()))
                outcomes["read", default: 0] += 1
            } catch {
                outcomes["refused", default: 0] += 1
            }
        }
        // Every zeroed page at least is refused by the library too.
        #expect(zeroedPages == original.count / CatalogBundleOpeningTests.pageSize(of: original))
        #expect(outcomes["refused", default: 0] >= zeroedPages)
    }

    /// A page damaged after the file passed its check (the trust store remembers it): SQLite's
    /// own code for what it met is kept, not only its words, so that an app or a test tells a
    /// corrupt file from a value that is wrong.
    @Test func sqlitesCodeIsKeptWithTheDamage() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: BundleFixtures.small))
        let pageSize = CatalogBundleOpeningTests.pageSize(of: original)
        // The products table's root page, found in the schema: its header made garbage.
        let root = try DatabaseQueue(path: BundleFixtures.small).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = 'products'")
        }
        let page = try #require(root)
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { data in
            let start = (page - 1) * pageSize
            data.replaceSubrange(start..<(start + 12), with: Data(repeating: 0xEE, count: 12))
        }
        let failure = try #require(#expect(throws: CatalogBundleError.self) {
            try Self.readEverything(try CatalogBundle(path: path, trust: TrustingStore()))
        }?.failure)
        #expect(failure.code == .sqlite && failure.sqliteCode.map { $0 & 0xFF } == 11, "SQLITE_CORRUPT: \(failure)")
    }
}

/// A trust store that takes every file for checked, as one does for a file that passed its
/// check and was damaged later.
struct TrustingStore: BundleTrustStore {
    func isVerified(_ identity: String) -> Bool { true }
    func markVerified(_ identity: String) {}
}
