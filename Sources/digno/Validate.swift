import ArgumentParser
import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

extension ReportFormat: ExpressibleByArgument {}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a content folder and report every problem.",
        discussion: """
            Exit status: 0 when the content is valid (warnings allowed), 1 when it has errors, \
            2 for usage or I/O errors.
            """)

    @OptionGroup var folder: ContentFolderArguments

    @Option(help: "Output format: text, json, github (GitHub Actions annotations) or sarif (SARIF 2.1.0, for code scanning).")
    var format: ReportFormat = .text

    @Option(name: .customLong("docs-url"),
            help: ArgumentHelp("With --format sarif: the address of digno's docs/ folder, to link each rule to DIAGNOSTICS.md there.", valueName: "url"))
    var documentation: String?

    @Option(help: ArgumentHelp("Judge promotions against this day (YYYY-MM-DD) instead of today.", valueName: "day"))
    var today: Day?

    @Option(name: .customLong("require-language"),
            help: ArgumentHelp("Make a missing translation into this language an error, not a warning (repeatable).", valueName: "code"),
            transform: LanguageCode.argument)
    var requiredLanguages: [LanguageCode] = []

    @Option(help: ArgumentHelp("Warn of translations whose Finnish text changed since this release's bundle while they did not.", valueName: "bundle"))
    var since: String?

    func run() throws {
        let earlier = try since.map(Self.earlierRelease)
        let validator = ContentValidator(contentFolder: folder.contentFolder, today: today ?? Day.today(),
                                         requiredLanguages: Set(requiredLanguages), since: earlier)
        let report = try validator.validate()
        print(format.render(report, contentFolder: folder.contentFolder, documentation: documentation), terminator: "")
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// The catalogue and release of the bundle `--since` names, or exit status 2 saying why
    /// (`digno validate` and `digno translations export`).
    static func earlierRelease(_ path: String) throws(CommandFailed) -> (catalog: Catalog, release: String) {
        do {
            let bundle = try CatalogBundle(path: path, trust: InMemoryTrustStore())
            return (try bundle.catalog(), bundle.release.releaseVersion)
        } catch {
            throw .failed("--since: \(error)")
        }
    }
}

extension Day: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
