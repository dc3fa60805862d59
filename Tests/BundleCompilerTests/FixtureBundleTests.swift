import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// CatalogModelTests open bundles committed in `Tests/CatalogModelTests/Fixtures`, so that they
/// need no compiler; `scripts/build-test-fixtures.sh` builds them with `digno build`. Builds are
/// reproducible, so each must be, byte for byte, what the compiler builds now from its content
/// (the shipped one while `content/` is what it was built from).
@Suite struct FixtureBundleTests {
    static let committed = BundleBuildTests.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures")

    @Test(arguments: [("shipped", "content"), ("small", "Tests/BundleCompilerTests/Fixtures/valid")])
    func theCommittedBundleIsWhatTheCompilerBuildsNow(name: String, content: String) throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        // As `digno build --content <content> --output <output>` builds, the script's command.
        // The day judges promotions for warnings only: no byte of the bundle depends on it.
        let builder = BundleBuilder(contentFolder: BundleBuildTests.repository.appendingPathComponent(content).path, output: output, today: Day.today())
        _ = try builder.write(try builder.validate())
        let built = try Data(contentsOf: URL(fileURLWithPath: output))
        let committedPath = Self.committed.appendingPathComponent("\(name).sqlite").path
        let committed = try? Data(contentsOf: URL(fileURLWithPath: committedPath))
        if name == "shipped", let fixture = try? CatalogBundle(path: committedPath),
           try fixture.release.contentDigest != CatalogBundle(path: output).release.contentDigest {
            // Editors have changed content/ since the fixture was built. That must not fail the
            // tests of an editor's change; the small fixture, whose content only developers
            // change, still holds the compiler's output to the committed bytes.
            return
        }
        #expect(built == committed, """
            Tests/CatalogModelTests/Fixtures/\(name).sqlite is not what the compiler builds now from \(content); \
            run scripts/build-test-fixtures.sh and commit the bundles it writes
            """)
    }

    /// Schema 2 as the compiler writes it for apps in the field is, byte for byte, the bundle
    /// the compiler wrote before schema 3 (commit 6afe476), but for its pictures:
    /// `small-schema2.sqlite` is that compiler's bundle of the valid fixture, frozen, remade once
    /// when pictures became renditions (the images' bytes and ids, and the content digest that
    /// now covers the renditions' settings, are all that changed; every other row and the
    /// schema stayed as they were), and again, content digest only (checked table by table),
    /// when the fixture's files came to name the schema, and again, the images' bytes and ids and
    /// the content digest only (checked table by table), when pictures came to be decoded by their
    /// own libraries and passed through without a profile (renditions 3). The fixture has no other language; a catalogue with some
    /// is written in schema 2 as if it had none (the second half).
    @Test func schema2IsWhatTheCompilerWroteBeforeSchema3() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = BundleBuildTests.repository.appendingPathComponent("Tests/BundleCompilerTests/Fixtures/valid")
        let output = folder.appendingPathComponent("catalog.sqlite").path
        #expect(try Self.built(schema: 2, to: output) == Self.frozen(schema: 2), "schema 2 differs from what 6afe476 wrote (with renditions for pictures)")

        // The same content with Swedish texts beside the Finnish ones: the same schema 2 bundle
        // but for the content digest, which covers every file.
        let translated = folder.appendingPathComponent("translated")
        try FileManager.default.copyItem(at: valid, to: translated)
        let catalogFile = translated.appendingPathComponent("catalog.xml")
        let catalogText = try String(contentsOf: catalogFile, encoding: .utf8)
        try catalogText.replacingOccurrences(of: "<title>Tuotteet</title>", with: "<title>Tuotteet</title><title xml:lang=\"sv\">Produkter</title>")
            .replacingOccurrences(of: "<sections>", with: "<languages><language code=\"fi\"/><language code=\"sv\" fallback=\"fi\"/></languages>\n  <sections>")
            .write(to: catalogFile, atomically: true, encoding: .utf8)
        let second = folder.appendingPathComponent("translated.sqlite").path
        var translatedBuilder = BundleBuilder(contentFolder: translated.path, output: second, today: Day.today())
        translatedBuilder.schemaVersion = 2
        let report = try translatedBuilder.validate()
        #expect(report.isValid, "\(report.diagnostics)")
        _ = try translatedBuilder.write(report)
        let bundle = try CatalogBundle(path: second)
        #expect(bundle.release.schemaVersion == 2 && bundle.languages == ["fi"])
        #expect(try bundle.sections().map(\.title) == (try CatalogBundle(path: output).sections()).map(\.title))

        // Written beside schemas 4 and 3 by a default build (`writeAll`), derived from schema 4's
        // rows, schemas 2 and 3 are the same bytes as each written alone.
        let both = folder.appendingPathComponent("both.sqlite").path
        var bothBuilder = BundleBuilder(contentFolder: translated.path, output: both, today: Day.today())
        bothBuilder.olderSchemas = [3, 2]
        #expect(try bothBuilder.writeAll(report).map(\.schema) == [4, 3, 2])
        #expect(try Data(contentsOf: URL(fileURLWithPath: BundleSchema.path(forBundle: both, schema: 2))) == Data(contentsOf: URL(fileURLWithPath: second)))
        let alone = folder.appendingPathComponent("alone.sqlite").path
        var aloneBuilder = BundleBuilder(contentFolder: translated.path, output: alone, today: Day.today())
        aloneBuilder.schemaVersion = 3
        _ = try aloneBuilder.write(report)
        #expect(try Data(contentsOf: URL(fileURLWithPath: BundleSchema.path(forBundle: both, schema: 3))) == Data(contentsOf: URL(fileURLWithPath: alone)))
        // Schema 2 derived from schema 3 (a build of those two alone) too.
        let older = folder.appendingPathComponent("older.sqlite").path
        var olderBuilder = BundleBuilder(contentFolder: translated.path, output: older, today: Day.today())
        olderBuilder.schemaVersion = 3
        olderBuilder.olderSchemas = [2]
        _ = try olderBuilder.writeAll(report)
        #expect(try Data(contentsOf: URL(fileURLWithPath: BundleSchema.path(forBundle: older, schema: 2))) == Data(contentsOf: URL(fileURLWithPath: second)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: older)) == Data(contentsOf: URL(fileURLWithPath: alone)))
    }

    /// Schema 3 as the compiler writes it for apps in the field is, byte for byte, the bundle the
    /// compiler wrote before schema 4 (commit 6b4fcc7 and after, until the ladder): one rendition
    /// per picture in `images`, no `renditions`. `small-schema3.sqlite` is that bundle of the valid
    /// fixture, frozen when schema 4 came; the content digest, which covers the renditions'
    /// settings, is all that changed from the `small.sqlite` of then (checked table by table);
    /// remade, content digest only, when the fixture's files came to name the schema, and the
    /// images' bytes and ids and the content digest only (checked table by table) with renditions 3.
    @Test func schema3IsWhatTheCompilerWroteBeforeSchema4() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        #expect(try Self.built(schema: 3, to: output) == Self.frozen(schema: 3), "schema 3 differs from what the compiler wrote before schema 4")
    }

    /// The bundle of the valid fixture in `schema` alone, built at `output`.
    static func built(schema: Int, to output: String) throws -> Data {
        let valid = BundleBuildTests.repository.appendingPathComponent("Tests/BundleCompilerTests/Fixtures/valid")
        var builder = BundleBuilder(contentFolder: valid.path, output: output, today: Day.today())
        builder.schemaVersion = schema
        let manifest = try builder.write(try builder.validate())
        #expect(manifest.schemaVersion == schema)
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// The committed bundle of `schema` (`small-schema2.sqlite`, `small-schema3.sqlite`).
    static func frozen(schema: Int) throws -> Data {
        try Data(contentsOf: Self.committed.appendingPathComponent("small-schema\(schema).sqlite"))
    }
}
