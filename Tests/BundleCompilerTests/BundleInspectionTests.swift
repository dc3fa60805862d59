@testable import BundleCompiler
import CatalogModel
import Foundation
import GRDB
import Testing

/// `digno inspect` finds each kind of damage done to a bundle after its build, says which, and
/// neither crashes nor hangs on any of them.
@Suite(.timeLimit(.minutes(10))) struct BundleInspectionTests {
    /// A fresh build of the shipped content, with its manifest beside it, in its own folder.
    static func built(releaseVersion: String? = nil) throws -> (folder: URL, bundle: String) {
        let folder = try BundleBuildTests.scratchFolder()
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        try BundleBuildTests.build(BundleBuildTests.shippedContent, to: bundle, releaseVersion: releaseVersion)
        return (folder, bundle)
    }

    /// Runs each step on its own read-write connection, foreign keys off, as a person editing
    /// the file with the `sqlite3` shell would. A step per connection, because a change made
    /// through `writable_schema` takes effect for the next connection only.
    static func edit(_ path: String, _ steps: [String]) throws {
        for step in steps {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: step) }
            try queue.close()
        }
    }

    /// Replaces a column's definition in the schema's text, through `writable_schema`.
    static func redefine(_ table: String, _ from: String, _ to: String) -> String {
        "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '\(from)', '\(to)') WHERE name = '\(table)'; PRAGMA writable_schema = OFF"
    }

    @Test func aSoundBundleBesideItsManifestPassesEveryCheck() throws {
        let (folder, bundle) = try Self.built()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inspection = try BundleInspection.inspect(bundle)
        #expect(inspection.problems == [])
        #expect(inspection.manifest == folder.appendingPathComponent("catalog.manifest.json").path)
        #expect(inspection.text.hasSuffix("checks: schema, integrity, CHECK constraints, column types, release information, foreign keys, relations, images, the app's reading, manifest: ok\n"))
        #expect(inspection.sha256 == BundleFileDigest.sha256(path: bundle)?.hex)
    }

    @Test(arguments: [
        // What SQLite's checks of a read-only file miss.
        (["PRAGMA ignore_check_constraints = ON; UPDATE products SET name = '' WHERE id = 'espresso'"],
         "integrity_check: CHECK constraint failed in products"),
        ([redefine("products", "name TEXT NOT NULL CHECK", "name TEXT CHECK"), "UPDATE products SET name = NULL WHERE id = 'espresso'",
          redefine("products", "name TEXT CHECK", "name TEXT NOT NULL CHECK")],
         "integrity_check: NULL value in products.name"),
        // Values of the wrong type; the first passes every CHECK constraint.
        (["UPDATE products SET name = X'41' WHERE id = 'espresso'"], "column types: products.name holds 1 value that is not text"),
        (["PRAGMA ignore_check_constraints = ON; UPDATE retailers SET latitude = 'north' WHERE rowid = 1"],
         "column types: retailers.latitude holds 1 value that is not real or NULL"),
        // The schema: nothing more, nothing less, nothing else.
        (["CREATE TABLE notes (text TEXT)"], "schema: an extra table 'notes', which a bundle does not have"),
        (["CREATE TRIGGER keep AFTER INSERT ON products BEGIN SELECT 1; END"], "schema: an extra trigger 'keep', which a bundle does not have"),
        (["CREATE VIEW loader AS SELECT load_extension('/tmp/evil.so') AS x"], "schema: an extra view 'loader', which a bundle does not have"),
        (["DROP TABLE recipe_images", """
          CREATE VIEW recipe_images AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
          SELECT 'cafe-latte' AS recipe_id, x AS position, '' AS image, '' AS alt FROM n
          """], "schema: 'recipe_images' is a view, not a table"),
        (["DROP INDEX recipe_products_by_product"], "schema: index 'recipe_products_by_product' is missing"),
        ([redefine("products", "summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 400)", "summary TEXT NOT NULL")],
         "schema: table 'products' is not defined as schema version 4 defines it"),
        (["PRAGMA schema_version = 99"], "schema: its schema cookie (PRAGMA schema_version) is 99, not the 40 a build writes"),
        // Release information.
        (["DELETE FROM bundle_info WHERE key = 'generator'"], "its release information has no generator"),
        (["UPDATE bundle_info SET value = '2026-02-30' WHERE key = 'release_date'"], "its release date '2026-02-30' is not a day (YYYY-MM-DD)"),
        // Values that are stored well but that the app cannot read.
        (["UPDATE products SET body_json = '{}' WHERE id = 'espresso'"], "the app cannot read it: "),
        // Any change at all, through the manifest beside the bundle.
        (["UPDATE products SET summary = 'Tummapaahteinen espressojauhe!' WHERE id = 'espresso'"], "manifest: the file's SHA-256 is "),
        // Values the compiler's own image check reads: text where the bytes belong.
        (["PRAGMA ignore_check_constraints = ON; UPDATE images SET bytes = 'not an image' WHERE rowid = 1"],
         "images whose bytes do not match their SHA-256: "),
        // Schema 4's renditions: a flipped byte, a rendition of no picture, a format no app decodes.
        (["UPDATE renditions SET bytes = zeroblob(byte_count) WHERE rowid = 1"], "renditions whose bytes do not match their SHA-256: "),
        (["UPDATE renditions SET image = '\(String(repeating: "0", count: 64))' WHERE rowid = 1"], "foreign_key_check: renditions row 1 → images"),
        (["PRAGMA ignore_check_constraints = ON; UPDATE renditions SET media_type = 'image/gif' WHERE rowid = 1"],
         "integrity_check: CHECK constraint failed in renditions"),
        // Schema 3's languages: a text in a language the bundle does not declare, no default
        // language, a translation into the default, of a text the bundle does not have, and a
        // language's list missing an entity.
        (["UPDATE translations SET language = 'de' WHERE kind = 'product' AND entity_id = 'espresso' AND field = 'summary' AND language = 'sv'"],
         "foreign_key_check: translations row ? → languages"),
        (["DELETE FROM languages WHERE code = 'fi'"], "no default language: 1"),
        (["UPDATE translations SET language = 'fi' WHERE kind = 'product' AND entity_id = 'espresso' AND field = 'summary' AND language = 'sv'"],
         "a translation into the default language: product espresso summary"),
        (["""
          UPDATE translations SET field = 'info' WHERE kind = 'retailer' AND field = 'hours' AND language = 'sv'
          AND entity_id = (SELECT id FROM retailers WHERE other_info IS NULL ORDER BY id LIMIT 1)
          """], "a translation of an entity or field the bundle does not have: retailer "),
        // Each kind's rows are read on their own: a picture, a line and an entity it lacks.
        (["DELETE FROM product_images WHERE product_id = 'espresso' AND position = 2"],
         "a translation of an entity or field the bundle does not have: product espresso picture:2"),
        (["UPDATE translations SET field = 'ingredient:99' WHERE kind = 'recipe' AND field = 'name' AND language = 'en'"
            + " AND entity_id = (SELECT id FROM recipes ORDER BY id LIMIT 1)"],
         "a translation of an entity or field the bundle does not have: recipe "),
        (["UPDATE translations SET entity_id = 'gone' WHERE kind = 'section' AND entity_id = 'home' AND language = 'sv'"],
         "a translation of an entity or field the bundle does not have: section gone title"),
        (["DELETE FROM list_positions WHERE kind = 'recipe' AND language = 'en' AND position = 1"],
         "a language whose lists do not hold every entity once: en"),
        // FTS5's tables, which SQLite 3.40's integrity check does not look into.
        (["DELETE FROM search_data WHERE id = (SELECT max(id) FROM search_data)"], "the search index search: "),
        (["DELETE FROM search_letters_data WHERE id = (SELECT max(id) FROM search_letters_data)"], "the search index search_letters: "),
        // The languages' search: an entity missing from a language, a row outside its
        // language's run of rowids.
        (["DELETE FROM search_translated_entries WHERE rowid = (SELECT max(rowid) FROM search_translated_entries)"],
         "a language whose search does not hold every entity once: en"),
        (["UPDATE search_letters_entries SET rowid = -1 WHERE rowid = 1"], "a language's search rows outside its run: -1"),
    ] as [([String], String)])
    func eachDamageIsFoundAndNamed(steps: [String], problem: String) throws {
        let (folder, bundle) = try Self.built()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Without its manifest, every edit would fail that check too: each damage must be found
        // by a check of its own.
        if !problem.hasPrefix("manifest:") { try FileManager.default.removeItem(at: folder.appendingPathComponent("catalog.manifest.json")) }
        try Self.edit(bundle, steps)
        // (A view that loops must not be read: the suite's time limit ends a hang.)
        let inspection = try BundleInspection.inspect(bundle)
        #expect(inspection.problems.contains { $0.hasPrefix(problem) }, "\(inspection.problems)")
        #expect(!inspection.isSound)
    }

    /// A bundle whose schema was changed, beside its own manifest: the manifest is its own
    /// (its release cannot be read, so the bytes are compared), not another bundle's.
    @Test func aDamagedBundleBesideItsOwnManifestIsNotCalledAnothers() throws {
        let (folder, bundle) = try Self.built()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.edit(bundle, ["CREATE TABLE notes (text TEXT)"])
        let inspection = try BundleInspection.inspect(bundle)
        #expect(inspection.problems.count == 3, "\(inspection.problems)")
        #expect(inspection.problems.first == "schema: an extra table 'notes', which a bundle does not have")
        #expect(inspection.problems.dropFirst().first == "the other checks were not run: the schema is not a bundle's, so no table can be read safely")
        #expect(inspection.problems.last?.hasPrefix("manifest: the file's SHA-256 is \(inspection.sha256)") == true)
    }

    /// A flipped letter inside a stored text breaks nothing SQLite can see: only the manifest's
    /// SHA-256 finds it.
    @Test func aFlippedByteInsideATextIsFoundOnlyByTheManifest() throws {
        let (folder, bundle) = try Self.built()
        defer { try? FileManager.default.removeItem(at: folder) }
        var data = try Data(contentsOf: URL(fileURLWithPath: bundle))
        let word = Data("Tummapaahteinen".utf8)
        let found = try #require(data.range(of: word))
        data[found.lowerBound] = UInt8(ascii: "D")
        try data.write(to: URL(fileURLWithPath: bundle))
        let inspection = try BundleInspection.inspect(bundle)
        #expect(inspection.problems.count == 1)
        #expect(inspection.problems.first?.hasPrefix("manifest: the file's SHA-256 is \(inspection.sha256) (\(inspection.bytes) bytes), not the manifest's ") == true)
        #expect(inspection.problems.first?.hasSuffix("bytes): its bytes changed after the build; build or copy it again") == true)
    }

    /// A publish interrupted between its two renames leaves the new bundle beside the previous
    /// release's manifest, or the other way round.
    @Test func aManifestOfAnotherBundleIsReported() throws {
        let (folder, bundle) = try Self.built()
        let (otherFolder, _) = try Self.built(releaseVersion: "2026.11.1")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: otherFolder)
        }
        let otherManifest = otherFolder.appendingPathComponent("catalog.manifest.json").path
        let inspection = try BundleInspection.inspect(bundle, manifest: otherManifest)
        #expect(inspection.manifest == otherManifest)
        #expect(inspection.problems.count == 1)
        #expect(inspection.problems.first?.hasPrefix("manifest: it belongs to another bundle (release 2026.11.1 of 2026-11-22, content digest ") == true)
        #expect(inspection.problems.first?.hasSuffix("as an interrupted publish or a copy from two releases leaves them; build or copy both files again") == true)
    }

    @Test func aManifestAskedForMustExistAndOneBesideIsOptional() throws {
        let (folder, bundle) = try Self.built()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: BundleInspection.Failure.missing("/nonexistent/catalog.manifest.json")) {
            try BundleInspection.inspect(bundle, manifest: "/nonexistent/catalog.manifest.json")
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("catalog.manifest.json"))
        let inspection = try BundleInspection.inspect(bundle)
        #expect(inspection.manifest == nil)
        #expect(inspection.problems == [])
        #expect(inspection.text.contains("manifest: none (only a manifest's SHA-256 finds a change inside a text or a number)\n"))
        #expect(inspection.text.hasSuffix("the app's reading: ok\n"))
        try Data("{\"format\": 1}".utf8).write(to: folder.appendingPathComponent("catalog.manifest.json"))
        #expect(try BundleInspection.inspect(bundle).problems == [
            "manifest: \(folder.appendingPathComponent("catalog.manifest.json").path) cannot be read: it is not a bundle manifest's JSON",
        ])
    }
}
