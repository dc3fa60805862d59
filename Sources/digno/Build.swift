import ArgumentParser
import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate the content and compile it into a read-only SQLite bundle.",
        discussion: """
            Writes nothing if the content has any error. Otherwise writes the bundle and, \
            beside it, its manifest (catalog.manifest.json for catalog.sqlite), replacing the \
            previous ones atomically (every schema's, or none if writing one fails). The bundle is of the newest schema (4: every language, \
            and each picture's renditions at every screen scale); the bundle of each older schema --schema names is written beside it \
            for the apps in the field that read only that one (catalog.schema-3.sqlite: one rendition per picture; \
            catalog.schema-2.sqlite: the default language alone too). By default 4, 3 and 2. \
            Exit status: 0 built, 1 content errors, 2 usage or I/O errors.
            """)

    @OptionGroup var folder: ContentFolderArguments

    @Option(help: ArgumentHelp("The bundle to write.", valueName: "file"))
    var output = "dist/catalog.sqlite"

    @Option(help: ArgumentHelp("The release version, overriding catalog.xml's (year.month.patch).", valueName: "version"),
            transform: ReleaseVersionArgument.parse)
    var releaseVersion: String?

    @Option(name: .customLong("schema"), help: ArgumentHelp(
        "A bundle schema to write (repeatable): 4 (every language, every rendition), 3 (one rendition per picture) and 2 (the default language alone too), for apps that read only it. By default all three.",
        valueName: "version"))
    var schemas: [Int] = BundleSchema.writableVersions

    @Flag(help: "Print only problems, no summary.")
    var quiet = false

    /// The schemas to write, newest first: the newest at `--output`, each other beside it.
    var schemaOrder: [Int] { Array(Set(schemas)).sorted(by: >) }

    func validate() throws {
        for schema in schemas where !BundleSchema.writableVersions.contains(schema) {
            let versions = BundleSchema.writableVersions.map(String.init)
            throw ValidationError("--schema \(schema) is not one digno writes; give \(versions.dropLast().joined(separator: ", ")) or \(versions.last ?? "")")
        }
    }

    func run() throws {
        let started = ContinuousClock.now
        var builder = BundleBuilder(contentFolder: folder.contentFolder, output: output, releaseVersion: releaseVersion, today: Day.today())
        builder.schemaVersion = schemaOrder[0]
        builder.olderSchemas = Array(schemaOrder.dropFirst())
        let progress = ProgressLine(enabled: !quiet)
        defer { progress.finish() }
        try builder.checkOptions()
        let report = try builder.validate(progress: progress.update)
        if !report.diagnostics.isEmpty || !report.isValid {
            progress.writeAbove(ReportFormat.text.render(report, contentFolder: folder.contentFolder))
        }
        guard report.exitStatus == 0 else {
            throw CommandFailed(description: "nothing was written; fix the errors above", exitStatus: report.exitStatus)
        }
        // Every schema's bundle or none (BundleBuilder.writeAll).
        let written = try builder.writeAll(report, progress: progress.update)
        let total = ContinuousClock.now - started
        let lines = written.enumerated().map { index, entry in
            index == 0 ? BuildSummary.line(entry, elapsed: total - written.dropFirst().map(\.elapsed).reduce(.zero, +))
                : BuildSummary.olderSchemaLine(entry)
        }
        progress.finish()
        if !quiet { for line in lines + [report.picturesSummary] { print(line) } }
    }
}

/// The lines a build ends with: one per bundle, with its bytes and its pictures' share.
enum BuildSummary {
    static func line(_ written: BundleBuilder.Written, elapsed: Duration) -> String {
        let manifest = written.manifest
        // The bundle's images are its pictures, each once (two files of the same bytes are one),
        // as the pictures' line counts them.
        let counts = [("products", "products"), ("recipes", "recipes"), ("retailers", "retailers"), ("images", "pictures")]
            .map { "\(manifest.counts[$0.0] ?? 0) \($0.1)" }.joined(separator: ", ")
        return "built \(written.output) \(manifest.releaseVersion) (schema \(manifest.schemaVersion), the seed to ship in an app): \(counts); "
            + "\(bytes(written)) in \(elapsed.milliseconds) ms"
    }

    /// The line for a bundle of an older schema written beside the newest one.
    static func olderSchemaLine(_ written: BundleBuilder.Written) -> String {
        let schema = written.manifest.schemaVersion
        return "built \(written.output) for apps that read schema \(schema) (\(olderSchemaHolds[schema] ?? "an older schema")); "
            + "\(bytes(written)) in \(written.elapsed.milliseconds) ms"
    }

    /// What a bundle of each older schema holds, against the newest.
    static let olderSchemaHolds = [
        3: "one rendition per picture",
        2: "the default language alone, one rendition per picture",
    ]

    /// "983040 bytes (pictures 4 %)": the bundle's size and its pictures' share of it.
    static func bytes(_ written: BundleBuilder.Written) -> String {
        let total = written.manifest.bundle.bytes
        return "\(total) bytes (pictures \(total > 0 ? written.pictureBytes * 100 / total : 0) %)"
    }
}
