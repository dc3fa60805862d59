@testable import BundleCompiler
import Foundation
import GRDB
import Testing

/// The bundle's search index: what it finds, and that its copy from the second scratch database
/// is sound.
@Suite struct BundleSearchTests {
    @Test func searchFoldsAccentsAndMatchesPrefixes() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        try BundleBuildTests.build(BundleBuildTests.shippedContent, to: output)
        let queue = try DatabaseQueue(path: output, configuration: BundleBuildTests.readOnly)
        func search(_ query: String) throws -> [String] {
            try queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT e.kind, e.entity_id FROM search JOIN search_entries e ON e.rowid = search.rowid
                    WHERE search MATCH ? ORDER BY rank, e.entity_id
                    """, arguments: [query])
                    .map { "\($0["kind"] as String)/\($0["entity_id"] as String)" }
            }
        }
        #expect(try search("name:capp*") == ["recipe/cappuccino"])
        // Five recipes and two retailers are named Café …
        #expect(try search("name:cafe").sorted() == [
            "recipe/cafe-au-lait", "recipe/cafe-de-mumma", "recipe/cafe-latte", "recipe/cafe-mocha", "recipe/cafe-naranja",
            "retailer/cafe-kahvila", "retailer/cafe-mansku",
        ].sorted())
        // No stemming: Finnish inflections are reached by prefix ("kardemummaa").
        #expect(try search("kardemumma") == [])
        #expect(try search("kardemumm*") == ["recipe/cafe-de-mumma"])
        #expect(try search("jaalatte") == ["recipe/tiramisu-jaalatte"])
        #expect(try search("mannerheimintie") == ["retailer/cafe-mansku"])
    }

    /// The search index is built in a second scratch database and its tables copied over:
    /// FTS5's own integrity check must find the copy sound.
    @Test func theSearchIndexPassesFTS5sIntegrityCheck() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        try BundleBuildTests.build(BundleBuildTests.shippedContent, to: output)
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: output, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO search (search, rank) VALUES ('integrity-check', 1)")
            let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_entries")
            let entities = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM recipes) + (SELECT count(*) FROM retailers)")
            #expect(entries == entities)
            // The build's memory budget for FTS5 stays out of the bundle.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_config WHERE k = 'hashsize'") == 0)
        }
        // A damaged copy fails the check: the test can fail.
        try queue.write { db in try db.execute(sql: "DELETE FROM search_data WHERE id = (SELECT max(id) FROM search_data)") }
        #expect(throws: (any Error).self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO search (search, rank) VALUES ('integrity-check', 1)") }
        }
        try queue.close()
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".catalog.sqlite.scratch-search").path))
    }
}
