import Foundation
import Testing

/// `digno validate` as a user and CI see it: output in each format and exit statuses.
@Suite struct ValidateCommandTests {
    /// A content folder with two errors and a warning, made from the valid fixture.
    func brokenContent() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-cli-\(UUID().uuidString)")
        let content = scratch.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        let product = content.appendingPathComponent("products/espresso.xml")
        var text = try String(contentsOf: product, encoding: .utf8)
        text = text.replacingOccurrences(of: "<name>Espresso</name>", with: "<name>Café Digno Espresso, tummapaahteinen ja täyteläinen kahvi</name>")
        text = text.replacingOccurrences(of: "recipe=\"cafe-latte\"", with: "recipe=\"cafe-lattee\"")
        try text.write(to: product, atomically: true, encoding: .utf8)
        try Data("x".utf8).write(to: content.appendingPathComponent("images/unused.png"))
        return content
    }

    @Test func validContentExitsZeroWithASummary() throws {
        let outcome = try DignoRunner.run(["validate", DignoRunner.fixtures.appendingPathComponent("valid").path, "--today", "2026-11-22"])
        #expect(outcome.status == 0)
        #expect(outcome.output == "0 errors, 0 warnings in 11 files\n")
        #expect(outcome.errors == "")
    }

    /// One mistake, one message: a language code mistyped in catalog.xml (`se` for `sv`, or
    /// the default's `fl` for `fi`, which the others fall back to) is one error at its line,
    /// not one per translated text, per untranslated file or per fallback.
    @Test(arguments: [
        ("<language code=\"sv\" fallback=\"fi\"/>", "<language code=\"se\" fallback=\"fi\"/>",
         "catalog.xml:7:5: error: no text is translated into 'se', but ",
         "texts are translated into 'sv', which catalog.xml does not declare; write code=\"sv\" here [language-declaration]"),
        ("<language code=\"fi\"/>", "<language code=\"fl\"/>",
         "catalog.xml:6:5: error: the default language is 'fl', but 'sv' and 'en' fall back to 'fi', ",
         "which catalog.xml does not declare; write code=\"fi\" here [language-declaration]"),
    ])
    func aMistypedLanguageCodeIsOneErrorAtItsLine(written: String, mistyped: String, start: String, end: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = scratch.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
        let catalog = content.appendingPathComponent("catalog.xml")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        #expect(text.contains(written))
        try text.replacingOccurrences(of: written, with: mistyped).write(to: catalog, atomically: true, encoding: .utf8)
        let outcome = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: scratch)
        #expect(outcome.status == 1)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(start) == true && lines.first?.hasSuffix(end) == true, "\(outcome.output)")
        #expect(lines.dropFirst().first?.hasPrefix("1 error, 0 warnings in ") == true, "\(outcome.output)")
    }

    @Test func textFormatPrintsOneLinePerProblem() throws {
        let content = try brokenContent()
        defer { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
        let outcome = try DignoRunner.run(["validate", "content", "--today", "2026-11-22"], in: content.deletingLastPathComponent())
        #expect(outcome.status == 1)
        #expect(outcome.output == """
            images/unused.png: warning: images/unused.png is not used by any content; remove it or refer to it with src="images/unused.png" [image-unused]
            products/espresso.xml:3:3: error: name is 57 characters; the limit is 50 [name-too-long]
            products/espresso.xml:7:14: error: link names recipe 'cafe-lattee', which does not exist; use the id of a file in recipes/ (did you mean 'cafe-latte'?) [unknown-recipe]
            2 errors, 1 warning in 12 files

            """)
    }

    @Test func githubFormatPrintsAnnotations() throws {
        let content = try brokenContent()
        defer { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
        let outcome = try DignoRunner.run(["validate", "content", "--format", "github", "--today", "2026-11-22"], in: content.deletingLastPathComponent())
        #expect(outcome.status == 1)
        #expect(outcome.output == """
            ::warning file=content/images/unused.png,title=image-unused::images/unused.png is not used by any content; remove it or refer to it with src="images/unused.png"
            ::error file=content/products/espresso.xml,line=3,col=3,title=name-too-long::name is 57 characters; the limit is 50
            ::error file=content/products/espresso.xml,line=7,col=14,title=unknown-recipe::link names recipe 'cafe-lattee', which does not exist; use the id of a file in recipes/ (did you mean 'cafe-latte'?)
            2 errors, 1 warning in 12 files

            """)
    }

    @Test func jsonFormatPrintsTheDocumentedReport() throws {
        let content = try brokenContent()
        defer { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
        let outcome = try DignoRunner.run(["validate", "content", "--format", "json", "--today", "2026-11-22"], in: content.deletingLastPathComponent())
        #expect(outcome.status == 1)
        #expect(outcome.output == """
            {
              "content" : "content",
              "coverage" : [

              ],
              "diagnostics" : [
                {
                  "code" : "image-unused",
                  "column" : null,
                  "entity" : null,
                  "file" : "images/unused.png",
                  "line" : null,
                  "message" : "images/unused.png is not used by any content; remove it or refer to it with src=\\"images/unused.png\\"",
                  "severity" : "warning"
                },
                {
                  "code" : "name-too-long",
                  "column" : 3,
                  "entity" : {
                    "id" : "espresso",
                    "kind" : "product"
                  },
                  "file" : "products/espresso.xml",
                  "line" : 3,
                  "message" : "name is 57 characters; the limit is 50",
                  "severity" : "error"
                },
                {
                  "code" : "unknown-recipe",
                  "column" : 14,
                  "entity" : {
                    "id" : "espresso",
                    "kind" : "product"
                  },
                  "file" : "products/espresso.xml",
                  "line" : 7,
                  "message" : "link names recipe 'cafe-lattee', which does not exist; use the id of a file in recipes/ (did you mean 'cafe-latte'?)",
                  "severity" : "error"
                }
              ],
              "errors" : 2,
              "files" : 12,
              "format" : "digno-validation-report",
              "uncounted" : [

              ],
              "valid" : false,
              "version" : 1,
              "warnings" : 1
            }

            """)
        let decoded = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        #expect(decoded?["valid"] as? Bool == false)
    }

    @Test func insideAContentFolderItIsTheFolder() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-inside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let content = scratch.appendingPathComponent("brand")
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        for folder in [content, content.appendingPathComponent("products")] {
            let outcome = try DignoRunner.run(["validate", "--today", "2026-11-22"], in: folder)
            #expect(outcome.status == 0 && outcome.output == "0 errors, 0 warnings in 11 files\n", "\(outcome.output)\(outcome.errors)")
        }
        // Elsewhere, with no content/ here, the message names the folder looked for.
        let elsewhere = try DignoRunner.run(["validate"], in: scratch)
        #expect(elsewhere.status == 2)
        #expect(elsewhere.errors == "error: content folder 'content' does not exist; give the folder holding catalog.xml\n")
    }

    @Test func warningsAloneExitZero() throws {
        let content = try brokenContent()
        defer { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
        let validProduct = DignoRunner.fixtures.appendingPathComponent("valid/products/espresso.xml")
        try Data(contentsOf: validProduct).write(to: content.appendingPathComponent("products/espresso.xml"))
        let outcome = try DignoRunner.run(["validate", content.path, "--today", "2026-11-22"])
        #expect(outcome.status == 0)
        #expect(outcome.output.hasSuffix("[image-unused]\n0 errors, 1 warning in 12 files\n"))
    }

    @Test func theFolderMayBeGivenWithContentAsForBuild() throws {
        let valid = DignoRunner.fixtures.appendingPathComponent("valid").path
        let outcome = try DignoRunner.run(["validate", "--content", valid, "--today", "2026-11-22"])
        #expect(outcome.status == 0)
        #expect(outcome.output == "0 errors, 0 warnings in 11 files\n")
        // The same folder both ways is allowed; two different ones are a usage error.
        #expect(try DignoRunner.run(["validate", valid, "--content", valid, "--today", "2026-11-22"]).status == 0)
        let twoFolders = try DignoRunner.run(["validate", valid, "--content", "/elsewhere"])
        #expect(twoFolders.status == 2)
        #expect(twoFolders.output == "")
        #expect(twoFolders.errors.contains("two content folders given ('\(valid)' and --content '/elsewhere'); give one"))
        // One folder written two ways is one folder.
        let sameFolder = try DignoRunner.run(["validate", valid, "--content", valid + "/./"])
        #expect(sameFolder.status == 0, "\(sameFolder.errors)")
    }

    @Test func aMissingFolderIsAnIOErrorWithStatusTwo() throws {
        let outcome = try DignoRunner.run(["validate", "/nonexistent/content"])
        #expect(outcome.status == 2)
        #expect(outcome.output == "")
        #expect(outcome.errors == "error: content folder '/nonexistent/content' does not exist; give the folder holding catalog.xml\n")
    }

    @Test func aBadOptionIsAUsageErrorWithStatusTwo() throws {
        let outcome = try DignoRunner.run(["validate", "--format", "xml"])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("The value 'xml' is invalid for '--format <format>'"))
        let badDay = try DignoRunner.run(["validate", "--today", "2026-02-30"])
        #expect(badDay.status == 2)
    }

    @Test func noCommandIsAUsageErrorWithStatusTwo() throws {
        // A CI step whose subcommand went missing must fail, not pass having checked nothing.
        let outcome = try DignoRunner.run([])
        #expect(outcome.status == 2)
        #expect(outcome.output == "")
        #expect(outcome.errors.hasPrefix("Error: Name a command: init, build, validate, schema, lsp, inspect, show, diff, translations, site, preview, studio, keygen, publish, root, rotate-key or update.\n"))
        #expect(outcome.errors.contains("See 'digno --help'"))
        #expect(try DignoRunner.run(["--help"]).status == 0)
        let version = try DignoRunner.run(["--version"])
        #expect(version.status == 0)
        // digno 0.2.0 (bundle schema 4, SQLite 3.40.1, libxml2 2.9.14)
        // pictures: libvips 8.14.1, libjpeg-turbo 2.1.5, …; renditions 2: icon 60×60, …
        #expect(version.output.wholeMatch(of: /digno \d+\.\d+\.\d+ \(bundle schema 4, SQLite 3\.\d+\.\d+, libxml2 2\.\d+\.\d+\)\npictures: libvips 8\.\d+\.\d+, libjpeg-turbo [\d.]+, libpng [\d.]+, zlib [\d.]+, libwebp [\d.]+, libheif [\d.]+, lcms2 [\d.]+; renditions 3: [^\n]+\n/) != nil, "\(version.output)")
    }

    @Test func aMistypedCommandGetsTheNearestOne() throws {
        let typo = try DignoRunner.run(["valdate", "content"])
        #expect(typo.status == 2)
        #expect(typo.output == "")
        #expect(typo.errors == """
            Error: 'valdate' is not a command; did you mean 'validate'?
            Usage: digno <subcommand>
              See 'digno --help' for more information.

            """)
        let far = try DignoRunner.run(["deploy"])
        #expect(far.status == 2)
        #expect(far.errors.hasPrefix("Error: 'deploy' is not a command; the commands are init, build, validate, schema, lsp, inspect, show, diff, translations, site, preview, studio, keygen, publish, root, rotate-key or update\n"))
        #expect(try DignoRunner.run(["biuld"]).errors.hasPrefix("Error: 'biuld' is not a command; did you mean 'build'?\n"))
        // A content folder with no command before it.
        let folderAlone = try DignoRunner.run(["content"])
        #expect(folderAlone.status == 2)
        #expect(folderAlone.errors.hasPrefix("Error: 'content' is a content folder; name a command first: digno validate content, or digno build content\n"))
    }

    /// `--since` names a bundle; anything else is a usage error, before the content is read.
    @Test func sinceAFileThatIsNotABundleIsStatusTwo() throws {
        let outcome = try DignoRunner.run(["validate", "content", "--since", "/nonexistent/catalog.sqlite"], in: DignoRunner.repository)
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("error: --since: no bundle at '/nonexistent/catalog.sqlite'"), "\(outcome.errors)")
    }

    @Test func helpDescribesTheCommand() throws {
        let outcome = try DignoRunner.run(["validate", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output == """
            OVERVIEW: Check a content folder and report every problem.

            Exit status: 0 when the content is valid (warnings allowed), 1 when it has
            errors, 2 for usage or I/O errors.

            USAGE: digno validate [<folder>] [--content <folder>] [--format <format>] [--docs-url <url>] [--today <day>] [--require-language <code> ...] [--since <bundle>]

            ARGUMENTS:
              <folder>                The content folder (default: content).

            OPTIONS:
              --content <folder>      The content folder, as a named option.
              --format <format>       Output format: text, json, github (GitHub Actions
                                      annotations) or sarif (SARIF 2.1.0, for code
                                      scanning). (values: text, json, github, sarif;
                                      default: text)
              --docs-url <url>        With --format sarif: the address of digno's docs/
                                      folder, to link each rule to DIAGNOSTICS.md there.
              --today <day>           Judge promotions against this day (YYYY-MM-DD)
                                      instead of today.
              --require-language <code>
                                      Make a missing translation into this language an
                                      error, not a warning (repeatable).
              --since <bundle>        Warn of translations whose Finnish text changed since
                                      this release's bundle while they did not.
              --version               Show the version.
              -h, --help              Show help information.


            """)
    }
}
