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
            previous ones atomically. Exit status: 0 built, 1 content errors, 2 usage or I/O errors.
            """)

    @OptionGroup var folder: ContentFolderArguments

    @Option(help: ArgumentHelp("The bundle to write.", valueName: "file"))
    var output = "dist/catalog.sqlite"

    @Option(help: ArgumentHelp("The release version, overriding catalog.xml's (year.month.patch).", valueName: "version"))
    var releaseVersion: String?

    @Flag(help: "Print only problems, no summary.")
    var quiet = false

    func validate() throws {
        if let releaseVersion, !BundleBuilder.isReleaseVersion(releaseVersion) {
            throw ValidationError("release version '\(releaseVersion)' is not year.month.patch, such as 2026.11.0")
        }
    }

    func run() throws {
        let started = ContinuousClock.now
        let builder = BundleBuilder(contentFolder: folder.contentFolder, output: output, releaseVersion: releaseVersion, today: Day.today())
        let progress = ProgressLine(enabled: !quiet)
        defer { progress.finish() }
        let report: ValidationReport
        do {
            try builder.checkOptions()
            report = try builder.validate(progress: progress.update)
        } catch {
            progress.finish()
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if !report.diagnostics.isEmpty || !report.isValid {
            progress.writeAbove(ReportFormat.text.render(report, contentFolder: folder.contentFolder))
        }
        guard report.exitStatus == 0 else {
            progress.finish()
            FileHandle.standardError.write(Data("error: nothing was written; fix the errors above\n".utf8))
            throw ExitCode(report.exitStatus)
        }
        do {
            let manifest = try builder.write(report, progress: progress.update)
            progress.finish()
            if !quiet {
                let elapsed = ContinuousClock.now - started
                print(BuildSummary.line(manifest: manifest, output: output, elapsed: elapsed))
            }
        } catch {
            progress.finish()
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

/// The one line a build ends with.
enum BuildSummary {
    static func line(manifest: Manifest, output: String, elapsed: Duration) -> String {
        let counts = ["products", "recipes", "retailers", "images"].map { "\(manifest.counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
        return "built \(output) \(manifest.releaseVersion): \(counts); \(manifest.bundle.bytes) bytes in \(elapsed.milliseconds) ms"
    }
}
