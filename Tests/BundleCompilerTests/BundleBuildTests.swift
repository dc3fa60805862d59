@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import GRDB
import Testing

/// `digno build`'s guarantees: the schema is schema.sql, builds are reproducible, the bundle
/// is read-only and described by its manifest, and a damaged one is never published.
@Suite struct BundleBuildTests {
    static let repository = Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shippedContent = repository.appendingPathComponent("content").path

    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @discardableResult
    static func build(_ content: String, to output: String, releaseVersion: String? = nil) throws -> Manifest {
        let builder = BundleBuilder(contentFolder: content, output: output, releaseVersion: releaseVersion, today: Fixtures.today)
        return try builder.write(try builder.validate())
    }

    @Test func theBundleSchemaIsSchemaSQL() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        try Self.build(Self.shippedContent, to: bundle)
        let reference = try DatabaseQueue()
        let schemaFile = try String(contentsOf: Self.repository.appendingPathComponent("schema.sql"), encoding: .utf8)
        let languagesFile = try String(contentsOf: Self.repository.appendingPathComponent("schema-3.sql"), encoding: .utf8)
        let renditionsFile = try String(contentsOf: Self.repository.appendingPathComponent("schema-4.sql"), encoding: .utf8)
        try reference.write { try $0.execute(sql: schemaFile + "\n" + languagesFile + "\n" + renditionsFile) }
        let query = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_%' ORDER BY type, name"
        let expected = try reference.read { try Row.fetchAll($0, sql: query) }
        let actual = try DatabaseQueue(path: bundle, configuration: Self.readOnly).read { try Row.fetchAll($0, sql: query) }
        #expect(actual == expected)
        #expect(BundleSchema.sql == schemaFile)
        #expect(BundleSchema.languagesSQL == languagesFile)
        #expect(BundleSchema.renditionsSQL == renditionsFile)
    }

    static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    @Test func buildsAreByteIdenticalFromAnyFolder() throws {
        let first = try Self.scratchFolder(), second = try Self.scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        // The second build reads a copy of the content whose files were written in reverse
        // order, with Windows line endings and old Mac ones (CR alone), from another folder.
        let copy = second.appendingPathComponent("content")
        try FileManager.default.copyItem(atPath: Self.shippedContent, toPath: copy.path)
        let xmlFiles = try FileManager.default.subpathsOfDirectory(atPath: copy.path).filter { $0.hasSuffix(".xml") }
        for (index, path) in xmlFiles.reversed().enumerated() {
            let url = copy.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            try FileManager.default.removeItem(at: url)
            try text.replacingOccurrences(of: "\n", with: index.isMultiple(of: 2) ? "\r\n" : "\r").write(to: url, atomically: false, encoding: .utf8)
        }
        let one = try Self.build(Self.shippedContent, to: first.appendingPathComponent("out/catalog.sqlite").path)
        let two = try Self.build(copy.path, to: second.appendingPathComponent("catalog.sqlite").path)
        #expect(one == two)
        let bytesOne = try Data(contentsOf: first.appendingPathComponent("out/catalog.sqlite"))
        let bytesTwo = try Data(contentsOf: second.appendingPathComponent("catalog.sqlite"))
        #expect(bytesOne == bytesTwo)
        #expect(try Data(contentsOf: first.appendingPathComponent("out/catalog.manifest.json"))
                    == Data(contentsOf: second.appendingPathComponent("catalog.manifest.json")))
    }

    @Test func theManifestDescribesTheBundle() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite")
        let manifest = try Self.build(Self.shippedContent, to: output.path, releaseVersion: "2026.11.1")
        let decoded = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("catalog.manifest.json")))
        #expect(decoded == manifest)
        #expect(manifest.format == "cafe-digno-bundle")
        #expect(manifest.schemaVersion == 4)
        #expect(manifest.releaseVersion == "2026.11.1")
        #expect(manifest.releaseDate == "2026-11-22")
        #expect(manifest.counts == ["products": 3, "recipes": 13, "retailers": 5, "promotions": 1, "images": 62])
        let bytes = try Data(contentsOf: output)
        #expect(manifest.bundle.bytes == bytes.count)
        #expect(manifest.bundle.file == "catalog.sqlite")
        let info = try DatabaseQueue(path: output.path, configuration: Self.readOnly).read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info").map { ($0[0] as String, $0[1] as String) })
        }
        #expect(info["release_version"] == "2026.11.1")
        #expect(info["content_digest"] == manifest.contentDigest)
        #expect(info["schema_version"] == "4")
    }

    /// `--release-version` accepts exactly what `catalog.xml` may hold: the rule is the
    /// schema's own pattern, and libxml2 (validating `catalog.xml`) and Swift agree on it.
    @Test func aReleaseVersionOverrideFollowsTheSchemasPattern() throws {
        let schema = try String(contentsOf: Self.repository.appendingPathComponent("Sources/BundleCompiler/Schema/content.xsd"), encoding: .utf8)
        let releaseType = try #require(schema.range(of: #"<xs:simpleType name="ReleaseVersion">"#))
        let typeEnd = try #require(schema.range(of: "</xs:simpleType>", range: releaseType.upperBound..<schema.endIndex))
        #expect(schema[releaseType.upperBound..<typeEnd.lowerBound].contains(#"<xs:pattern value="\#(BundleBuilder.releaseVersionPattern)"/>"#))
        let samples = [
            ("2026.11.0", true), ("2026.1.12", true), ("2026.1.9999", true), ("1999.12.1", true), ("2026.12.10", true),
            ("2026.13.0", false), ("2026.0.1", false), ("2026.00.1", false), ("26.11.0", false), ("2026.11", false),
            // One spelling per version: no leading zeros.
            ("2026.01.12", false), ("2026.11.00", false), ("2026.11.01", false), ("2026.10.0", true), ("0026.11.0", false),
            ("2026.11.0.1", false), ("2026.11.-1", false), ("2026.11.00000", false), (" 2026.11.0", false),
            ("２０２６.11.0", false), ("2026.١١.0", false), ("next", false), ("", false),
        ]
        for (version, valid) in samples {
            #expect(BundleBuilder.isReleaseVersion(version) == valid, "\(version)")
            let content = try Fixtures.makeContent { folder in
                let file = folder.appendingPathComponent("catalog.xml")
                let text = try String(contentsOf: file, encoding: .utf8)
                try text.replacingOccurrences(of: #"version="2026.11.0""#, with: "version=\"\(version)\"").write(to: file, atomically: true, encoding: .utf8)
            }
            defer { Fixtures.remove(content) }
            let schemaAccepts = try !Fixtures.validate(content).diagnostics.contains { $0.code.rawValue == "schema-invalid" }
            #expect(schemaAccepts == valid, "\(version)")
        }
    }

    @Test func theBundleIsReadOnlyShaped() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        try Self.build(Fixtures.valid.path, to: output)
        let queue = try DatabaseQueue(path: output, configuration: Self.readOnly)
        let pragmas = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int32.fetchOne(db, sql: "PRAGMA application_id"),
             try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "PRAGMA freelist_count"),
             try Int.fetchOne(db, sql: "PRAGMA page_size"))
        }
        #expect(pragmas.0 == "delete")
        #expect(pragmas.1 == BundleSchema.applicationID)
        #expect(pragmas.2 == BundleSchema.version)
        #expect(pragmas.3 == 0)
        #expect(pragmas.4 == BundleSchema.pageSize)  // not the scratch database's larger pages
        #expect(throws: DatabaseError.self) {
            try queue.writeWithoutTransaction { try $0.execute(sql: "DELETE FROM products") }
        }
        try queue.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["catalog.manifest.json", "catalog.sqlite"])
    }

    /// A row breaking a constraint is the compiler's defect; a full disk is the output's.
    @Test func writingFailuresNameTheirCause() {
        let unique = SQLiteInsert.Failure(code: 2067, message: "UNIQUE constraint failed: products.position", sql: "INSERT …")
        let full = SQLiteInsert.Failure(code: 13, message: "database or disk is full", sql: "INSERT …")
        // SQLite's extended result code kept as the cause, its words after the advice.
        func expect(_ error: any Error, _ reason: String, _ code: String, defect: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
            let built = BundleWriter.buildError(error, writing: "x")
            #expect(built.cause?.code == code, sourceLocation: sourceLocation)
            let cause = ErrorCause(code: code, message: (error as? DatabaseError)?.message ?? (error as? SQLiteInsert.Failure)?.message ?? "")
            #expect(built == (defect ? .bundleCheckFailed(reason, cause: cause) : .output(path: "x", reason: reason, cause: cause)), sourceLocation: sourceLocation)
        }
        expect(unique, "a row breaks a constraint", "sqlite:2067", defect: true)
        expect(full, "the disk is full; free some space and build again", "sqlite:13")
        expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "CHECK constraint failed"), "a row breaks a constraint", "sqlite:275", defect: true)
        expect(DatabaseError(resultCode: .SQLITE_IOERR_WRITE, message: "disk I/O error"), "the disk reported an error; check the disk and build again", "sqlite:778")
        expect(DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "unable to open database file", sql: "VACUUM INTO ?"),
               "a file cannot be created in its folder; check that the folder is writable", "sqlite:14")
        expect(DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked"), "SQLite failed (error 5)", "sqlite:5")
        #expect("\(BundleWriter.buildError(full, writing: "dist/.b.partial"))"
            == "cannot write 'dist/.b.partial': the disk is full; free some space and build again (database or disk is full)")
    }

    @Test func stagesAreReportedInOrder() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        let builder = BundleBuilder(contentFolder: Fixtures.valid.path, output: output, today: Fixtures.today)
        var stages: [String] = []
        _ = try builder.write(try builder.validate { stages.append($0) }) { stages.append($0) }
        #expect(stages == [
            "listing \(Fixtures.valid.path)", "parsing 8 files", "checking the catalogue and its images", "reading images and ordering the lists", "writing 2 products, 2 recipes, 1 retailer and the search index",
            "compacting into \(output)", "sealing \(output)", "publishing",
        ])
    }

    /// The checks run before publishing find each kind of damage they name.
    @Test(arguments: [
        ("DELETE FROM recipe_products WHERE product_id = 'espresso'", "a product no recipe uses: espresso"),
        ("DELETE FROM search_entries WHERE entity_id = 'espresso'", "not one search entry per product, recipe and retailer"),
        ("UPDATE search_entries SET entity_id = 'gone' WHERE entity_id = 'espresso'", "a search entry for an unknown entity: product gone"),
        ("DELETE FROM search_docsize WHERE id = 1", "a search entry without indexed text: 1"),
        ("PRAGMA user_version = 7", "user_version is 7"),
        // An older schema's bundle is derived by dropping tables; the language rules, which a
        // missing table would fail, are not run on it again.
        ("DROP TABLE list_positions", "schema 4: table 'list_positions' is missing"),
        ("CREATE TABLE notes (text TEXT)", "schema 4: an extra table 'notes', which a bundle does not have"),
        // Each older schema's copy of the languages' search indexes is made on its own.
        ("INSERT INTO search_translated (search_translated) VALUES ('delete-all')",
         "a language's search entry without indexed text, or text without an entry"),
        ("DELETE FROM search_letters_docsize WHERE id = 1", "a language's search entry without indexed text, or text without an entry: 1"),
        // A flipped bit inside an image passes every check of SQLite's.
        ("UPDATE images SET bytes = zeroblob(byte_count) WHERE rowid = 1", "images whose bytes do not match their SHA-256: "),
        ("UPDATE renditions SET bytes = zeroblob(byte_count) WHERE rowid = 1", "renditions whose bytes do not match their SHA-256: "),
        // The scratch database does not test CHECK constraints as rows go in; the finished
        // bundle's integrity check must.
        ("PRAGMA ignore_check_constraints = ON; UPDATE products SET body_json = '{' WHERE id = 'espresso'; PRAGMA ignore_check_constraints = OFF",
         "integrity_check: CHECK constraint failed in products"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE retailers SET latitude = 91 WHERE rowid = 1; PRAGMA ignore_check_constraints = OFF",
         "integrity_check: CHECK constraint failed in retailers"),
    ])
    func theChecksFindDamage(damage: String, problem: String) throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        try Self.build(Self.shippedContent, to: output)
        let queue = try DatabaseQueue(path: output)
        try queue.writeWithoutTransaction { db in
            #expect(try BundleChecks.problems(in: db) == [])
            try db.execute(sql: damage)
            // The checks an older schema's derived bundle gets: all but the language rules that
            // read the rows the newest bundle's check has read.
            let found = try BundleChecks.integrityProblems(in: db) + BundleChecks.ruleProblems(in: db, languages: false)
                + BundleChecks.languageProblems(in: db, searchOnly: true)
            #expect(found.contains { $0.hasPrefix(problem) }, "\(found)")
        }
        try queue.close()
    }
}
