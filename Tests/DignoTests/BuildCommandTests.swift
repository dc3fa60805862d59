import Foundation
import GRDB
import Testing

/// `digno build` and `digno inspect` as a user sees them.
@Suite struct BuildCommandTests {
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-cli-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func buildWritesTheBundlesAndManifestsAndSaysSoALineEach() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        let outcome = try DignoRunner.run(["build", "--content", valid, "--output", "out/catalog.sqlite"], in: folder)
        #expect(outcome.status == 0)
        #expect(outcome.errors == "")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first?.hasPrefix("built out/catalog.sqlite 2026.11.0 (schema 4, the seed to ship in an app): 2 products, 2 recipes, 1 retailers, 3 pictures; ") == true)
        #expect(lines.dropFirst().first?.hasPrefix("built out/catalog.schema-3.sqlite for apps that read schema 3 (one rendition per picture); ") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix(
            "built out/catalog.schema-2.sqlite for apps that read schema 2 (the default language alone, one rendition per picture); ") == true)
        #expect(lines.prefix(3).allSatisfy { $0.hasSuffix(" ms") })
        // Three pictures: an icon (a PNG at 180 and WebPs at 60, 120 and 180, if it is that
        // large), all smaller than their boxes here, so fewer sizes.
        #expect(lines.last?.wholeMatch(of: /pictures: 3 in \d+ renditions, \d+ bytes \(\d made, \d from the cache\); 3 smaller than their use's largest rendition, not enlarged/) != nil)
        // Schema 4 at --output, and schemas 3 and 2 beside it for the apps in the field, each with its manifest.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
                    == ["catalog.manifest.json", "catalog.schema-2.manifest.json", "catalog.schema-2.sqlite", "catalog.schema-3.manifest.json",
                        "catalog.schema-3.sqlite", "catalog.sqlite"])
        for (file, schema) in [("catalog.manifest.json", 4), ("catalog.schema-3.manifest.json", 3), ("catalog.schema-2.manifest.json", 2)] {
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/" + file))) as? [String: Any]
            #expect(manifest?["schemaVersion"] as? Int == schema, "\(file)")
        }
        // One schema alone, when asked.
        let only = try DignoRunner.run(["build", "--content", valid, "--output", "only/catalog.sqlite", "--schema", "4"], in: folder)
        #expect(only.status == 0 && only.output.split(separator: "\n").count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("only").path).sorted()
                    == ["catalog.manifest.json", "catalog.sqlite"])
        let unknown = try DignoRunner.run(["build", "--content", valid, "--output", "x/catalog.sqlite", "--schema", "1"], in: folder)
        #expect(unknown.status == 2 && unknown.errors.contains("--schema 1 is not one digno writes; give 4, 3 or 2"))
        let quiet = try DignoRunner.run(["build", "--content", valid, "--output", "out/catalog.sqlite", "--quiet"], in: folder)
        #expect(quiet.status == 0)
        #expect(quiet.output == "")

        let inspect = try DignoRunner.run(["inspect", "out/catalog.sqlite"], in: folder)
        #expect(inspect.status == 0)
        #expect(inspect.output.hasPrefix("file: out/catalog.sqlite ("))
        #expect(inspect.output.contains("release: 2026.11.0 of 2026-11-01\nschema version: 4\n"))
        #expect(inspect.output.contains("counts: 3 images, 2 products, 1 promotions, 2 recipe_products, 2 recipes, 3 renditions, 2 retailer_products, 1 retailers\n"))
        #expect(inspect.output.contains("\nmanifest: out/catalog.manifest.json\n"))
        #expect(inspect.output.hasSuffix("checks: schema, integrity, CHECK constraints, column types, release information, foreign keys, relations, images, the app's reading, manifest: ok\n"))
        let json = try DignoRunner.run(["inspect", "out/catalog.sqlite", "--format", "json"], in: folder)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect((decoded?["problems"] as? [String]) == [])
        #expect((decoded?["info"] as? [String: String])?["release_version"] == "2026.11.0")
    }

    @Test func buildWithContentErrorsWritesNothingAndExitsOne() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        try FileManager.default.removeItem(at: content.appendingPathComponent("retailers/deling-group.xml"))
        let outcome = try DignoRunner.run(["build"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.output == "")
        #expect(outcome.errors == """
            retailers: error: there are no retailers; add at least one file retailers/<id>.xml [no-retailers]
            1 error, 0 warnings in 10 files
            error: nothing was written; fix the errors above

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("dist").path))
    }

    /// catalog.xml's budget holds every bundle a build writes: one over it fails the build
    /// with status 1, names its bytes and its pictures' share, and writes nothing, the previous
    /// release left as it was; a budget it fits passes; a size that is not one is the schema's.
    @Test func aBundleOverTheBudgetIsNotWritten() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        let catalog = content.appendingPathComponent("catalog.xml")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        func budget(_ size: String) throws {
            try text.replacingOccurrences(of: "date=\"2026-11-01\"/>", with: "date=\"2026-11-01\"/>\n  <budget bundle=\"\(size)\"/>")
                .write(to: catalog, atomically: true, encoding: .utf8)
        }
        try budget("2 MB")
        let fits = try DignoRunner.run(["build"], in: folder)
        #expect(fits.status == 0, "\(fits.errors)")
        let before = try Data(contentsOf: folder.appendingPathComponent("dist/catalog.sqlite"))

        try budget("200 kB")
        let over = try DignoRunner.run(["build", "--release-version", "2026.11.1"], in: folder)
        #expect(over.status == 1)
        #expect(over.errors.wholeMatch(of: /error: 'dist\/catalog.sqlite' would be \d+ bytes, over the budget of 200 kB \(200000 bytes\) that catalog.xml sets; its pictures take \d+ bytes \(\d+ %\): remove or replace large ones, or raise <budget bundle="…"\/>; nothing was written\n/) != nil,
                "\(over.errors)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("dist/catalog.sqlite")) == before)

        try budget("2 MiB")
        let unreadable = try DignoRunner.run(["validate", "content"], in: folder)
        #expect(unreadable.status == 1)
        // At the attribute (`  <budget bundle=`).
        #expect(unreadable.output.hasPrefix("catalog.xml:5:11: error: "), "\(unreadable.output)")
        #expect(unreadable.output.contains("[schema-invalid]"))
    }

    @Test func theFolderMayBeGivenAsForValidate() throws {
        // `digno build content`, as `digno validate content` is written.
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        let outcome = try DignoRunner.run(["build", valid, "--output", "out/catalog.sqlite", "--quiet"], in: folder)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/catalog.sqlite").path))
        let twoFolders = try DignoRunner.run(["build", valid, "--content", "/elsewhere", "--output", "out/catalog.sqlite"], in: folder)
        #expect(twoFolders.status == 2)
        #expect(twoFolders.errors.hasPrefix("Error: two content folders given ('\(valid)' and --content '/elsewhere'); give one\n"))
    }

    @Test func aBadReleaseVersionIsRefused() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        let outcome = try DignoRunner.run(["build", "--content", valid, "--release-version", "next"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.errors.hasPrefix("Error: The value 'next' is invalid for '--release-version <version>': not year.month.patch, such as 2026.11.0\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("dist").path))
        let month13 = try DignoRunner.run(["build", "--content", valid, "--release-version", "2026.13.0"], in: folder)
        #expect(month13.status == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("dist").path))
    }

    @Test func inspectingSomethingElseFailsClearly() throws {
        let outcome = try DignoRunner.run(["inspect", "Package.swift"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.hasPrefix("error: 'Package.swift' is not a readable Café Digno bundle: "))
        let missing = try DignoRunner.run(["inspect", "no-such.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.errors == "error: 'no-such.sqlite' does not exist\n")
        let folder = try DignoRunner.run(["inspect", "."])
        #expect(folder.status == 1)
        #expect(folder.errors == "error: '.' is not a readable Café Digno bundle: it is a folder; give the bundle file, such as dist/catalog.sqlite\n")
    }

    /// A bundle cut short passes SQLite's own checks (the missing pages read as zeros); inspect
    /// says so from the header, and leaves nothing beside the file.
    @Test func inspectingABundleCutShortSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        #expect(try DignoRunner.run(["build", "--content", valid, "--output", "catalog.sqlite", "--quiet", "--schema", "3"], in: folder).status == 0)
        let bundle = folder.appendingPathComponent("catalog.sqlite")
        let whole = try Data(contentsOf: bundle)
        #expect(try DignoRunner.run(["inspect", "catalog.sqlite"], in: folder).status == 0)
        try whole.dropLast(100).write(to: bundle)
        let outcome = try DignoRunner.run(["inspect", "catalog.sqlite"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.errors.hasPrefix("error: 'catalog.sqlite' is not a readable Café Digno bundle: it is \(whole.count - 100) bytes, but its header says \(whole.count)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["catalog.manifest.json", "catalog.sqlite"])
    }
}

/// The bundle does not depend on the time zone, the locale or the working folder.
@Test func buildIsTheSameUnderAnyTimeZoneAndLocale() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-cli-env-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let content = DignoRunner.repository.appendingPathComponent("content").path
    var outputs: [Data] = []
    for (index, environment) in [["TZ": "UTC", "LC_ALL": "C"], ["TZ": "Pacific/Kiritimati", "LC_ALL": "fi_FI.UTF-8", "LANG": "fi_FI.UTF-8"]].enumerated() {
        let process = Process()
        process.executableURL = DignoRunner.executable
        process.arguments = ["build", "--content", content, "--output", "out-\(index)/catalog.sqlite", "--quiet"]
        process.currentDirectoryURL = folder
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        outputs.append(try Data(contentsOf: folder.appendingPathComponent("out-\(index)/catalog.sqlite")))
        outputs.append(try Data(contentsOf: folder.appendingPathComponent("out-\(index)/catalog.manifest.json")))
    }
    #expect(outputs[0] == outputs[2])
    #expect(outputs[1] == outputs[3])
}

/// A build killed while it writes leaves the previous bundle and manifest byte for byte; the
/// next build removes what the killed one left behind.
@Test func aKilledBuildLeavesThePreviousBundle() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-cli-kill-\(UUID().uuidString)")
    let content = folder.appendingPathComponent("content")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
    let first = try DignoRunner.run(["build", "--quiet"], in: folder)
    #expect(first.status == 0)
    let bundle = folder.appendingPathComponent("dist/catalog.sqlite")
    let manifest = folder.appendingPathComponent("dist/catalog.manifest.json")
    let bundleBefore = try Data(contentsOf: bundle), manifestBefore = try Data(contentsOf: manifest)

    // Enough entities that writing takes a while: each extra product has a recipe of its own.
    for index in 0..<4000 {
        try Data("""
            <product id="p\(index)"><name>Tuote \(index)</name><icon src="images/icon.png"/><summary>Kuvaus \(index)</summary>
            <body><p>Teksti \(index) kahvista ja maidosta.</p></body><images><image src="images/picture.png" alt="Kuva"/></images></product>
            """.utf8).write(to: content.appendingPathComponent("products/p\(index).xml"))
        try Data("""
            <recipe id="r\(index)"><name>Resepti \(index)</name><icon src="images/icon.png"/><summary>Kuvaus \(index)</summary>
            <ingredients><ingredient product="p\(index)">1 annos</ingredient></ingredients>
            <method><p>Valmista \(index).</p></method><images><image src="images/picture.png" alt="Kuva"/></images></recipe>
            """.utf8).write(to: content.appendingPathComponent("recipes/r\(index).xml"))
    }
    let process = Process()
    process.executableURL = DignoRunner.executable
    process.arguments = ["build", "--quiet"]
    process.currentDirectoryURL = folder
    try process.run()
    let scratch = folder.appendingPathComponent("dist/.catalog.sqlite.scratch").path
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: scratch) && process.isRunning && Date() < deadline { usleep(2_000) }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(try Data(contentsOf: bundle) == bundleBefore)
    #expect(try Data(contentsOf: manifest) == manifestBefore)

    let again = try DignoRunner.run(["build", "--quiet"], in: folder)
    #expect(again.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("dist").path).sorted()
                == ["catalog.manifest.json", "catalog.schema-2.manifest.json", "catalog.schema-2.sqlite", "catalog.schema-3.manifest.json",
                    "catalog.schema-3.sqlite", "catalog.sqlite"])
    #expect(try Data(contentsOf: bundle) != bundleBefore)
}

/// A hand-edited bundle neither crashes nor hangs `digno inspect` or `digno show`: each says
/// what is wrong and exits with status 1.
@Suite struct DamagedBundleCommandTests {
    static func damaged(_ steps: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        #expect(try DignoRunner.run(["build", "--content", valid, "--output", "catalog.sqlite", "--quiet", "--schema", "3"], in: folder).status == 0)
        for step in steps {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let queue = try DatabaseQueue(path: folder.appendingPathComponent("catalog.sqlite").path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: step) }
            try queue.close()
        }
        return folder
    }

    @Test func aValueOfTheWrongTypeIsReportedNotACrash() throws {
        let folder = try Self.damaged(["PRAGMA ignore_check_constraints = ON; UPDATE retailers SET latitude = 'north', longitude = 24.9"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let show = try DignoRunner.run(["show", "catalog.sqlite", "cafedigno://retailers"], in: folder)
        #expect(show.status == 1)
        #expect(show.errors.hasSuffix("is damaged (its column 'latitude' holds text, not a number or NULL); download or install the bundle again\n"))
        let inspect = try DignoRunner.run(["inspect", "catalog.sqlite"], in: folder)
        #expect(inspect.status == 1)
        #expect(inspect.output.contains("\n  column types: retailers.latitude holds 1 value that is not real or NULL\n"))
        #expect(inspect.output.contains("\n  manifest: the file's SHA-256 is "))
    }

    @Test func aTableReplacedByAViewThatLoopsIsRefusedAtOnce() throws {
        let folder = try Self.damaged(["DROP TABLE products", """
            CREATE VIEW products AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
            SELECT 'p' || x AS id, x AS position, 'name' AS name, 'summary' AS summary, '' AS icon, '[]' AS body_json, 'text' AS body_text FROM n
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let show = try DignoRunner.run(["show", "catalog.sqlite", "cafedigno://products"], in: folder)
        #expect(show.status == 1)
        #expect(show.errors.contains("is damaged (its schema is not a bundle's: 'products' is a view, not a table;"))
        let inspect = try DignoRunner.run(["inspect", "catalog.sqlite"], in: folder)
        #expect(inspect.status == 1)
        #expect(inspect.output.contains("\n  schema: 'products' is a view, not a table\n"))
        #expect(inspect.output.contains("\n  the other checks were not run: the schema is not a bundle's, so no table can be read safely\n"))
    }
}
