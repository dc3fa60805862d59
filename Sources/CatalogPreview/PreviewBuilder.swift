import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogSite
import Foundation

/// One build of the content for the preview: validated exactly as `digno validate` does, and
/// patched into the preview's own bundle in its scratch folder (never `dist/`;
/// `PatchableBundle`), which is opened as an app opens a bundle.
package struct PreviewBuilder: Sendable {
    let contentFolder: String
    let scratch: URL
    /// The day promotions are judged against (warnings only), asked at each build.
    let day: @Sendable () -> Day?
    /// The release `--compare` names, to find outdated translations against: its catalogue and
    /// version, read once.
    var since: (catalog: Catalog, release: String)? = nil
    /// Told each check's report, valid or not (`PreviewServer.Options.reported`).
    var reported: @Sendable (ValidationReport) -> Void = { _ in }
    /// The files each build parsed, for the next: a save parses the files it changed.
    let loadCache = LoadCache()
    /// The preview's bundle, patched at each build that validates.
    let bundle: PatchableBundle
    /// The photos saved since the first build whose renditions are still to be made: built with
    /// their stand-ins meanwhile, and made by the server on a thread of its own.
    let deferral = RenditionDeferral()

    init(contentFolder: String, scratch: URL, day: @escaping @Sendable () -> Day?) {
        self.contentFolder = contentFolder
        self.scratch = scratch
        self.day = day
        bundle = PatchableBundle(folder: scratch.path)
    }

    enum Outcome: Sendable {
        /// The content built: the bundle at `path`, patched or written whole as `written` says
        /// (`.unchanged`: nothing it holds changed). `notes` are its warnings and its
        /// translations' status; `warnings` the report as `digno validate` prints it when it has
        /// any, for the terminal (empty when none).
        case built(CatalogBundle, path: String, written: PatchableBundle.Outcome, notes: BuildNotes = BuildNotes(), warnings: String = "")
        /// It did not: the problems, as the error panel shows them and as `digno validate`
        /// prints them.
        case failed(DiagnosticsPanel, text: String)
    }

    /// Validates the content and, when it is valid, patches the preview's bundle with it.
    /// `changed`: the files changed on disk since the last build, as the kernel told it; the
    /// others are taken as the last build read them (`ContentValidator.changedOnDisk`).
    /// `defers`: a picture whose renditions are not in the cache is built with its stand-in and
    /// left to `deferral` (every build but the first, which makes them all).
    func build(changed: Set<String>? = nil, defers: Bool = false) -> Outcome {
        build(check(changed: changed, defers: defers))
    }

    /// A check of the content, the first half of a build: its report when it validates, else
    /// what the build shows. Made while the preview waits for a save's quiet spell, and used
    /// when nothing changed meanwhile.
    enum Checked: Sendable {
        case valid(ValidationReport)
        case failed(Outcome)
    }

    /// Validates the content, as `build` does, without patching anything.
    func check(changed: Set<String>? = nil, defers: Bool = false) -> Checked {
        // The output is a build's; the preview's is the patched bundle, so none is written there.
        var builder = BundleBuilder(contentFolder: contentFolder, output: scratch.appendingPathComponent("unused.sqlite").path, today: day())
        builder.since = since
        builder.loadCache = loadCache
        builder.changedOnDisk = changed
        builder.deferral = defers ? deferral : nil
        let report: ValidationReport
        do {
            report = try builder.validate()
        } catch {
            return .failed(.failed(Self.panel(failure: "\(error)"), text: "error: \(error)\n"))
        }
        reported(report)
        guard report.exitStatus == 0 else {
            return .failed(.failed(Self.panel(report), text: ReportFormat.text.render(report, contentFolder: contentFolder)))
        }
        return .valid(report)
    }

    /// The second half of a build: patches the preview's bundle with a valid check's report.
    func build(_ checked: Checked) -> Outcome {
        let report: ValidationReport
        switch checked {
        case .failed(let outcome): return outcome
        case .valid(let valid): report = valid
        }
        do {
            let written = try bundle.patch(to: report)
            let path = bundle.path
            let opened = try CatalogBundle(patchedAt: path)
            return .built(
                opened, path: path, written: written, notes: notes(report, languages: opened.languages),
                warnings: report.warningCount == 0 ? "" : ReportFormat.text.render(report, contentFolder: contentFolder))
        } catch {
            return .failed(Self.panel(failure: "\(error)"), text: "error: \(error)\n")
        }
    }

    /// The report's problems, each worded as `digno validate` prints it.
    static func panel(_ report: ValidationReport) -> DiagnosticsPanel {
        DiagnosticsPanel(
            summary: .counts(errors: report.errorCount, warnings: report.warningCount, files: report.fileCount),
            problems: report.diagnostics.map(entry),
            hasLastGood: false, defaultLanguage: report.catalog?.languages.defaultLanguage.rawValue ?? "fi")
    }

    /// A build's warnings, for the panel over its pages (nil when there are none), and its
    /// translations' status, for the translation page.
    func notes(_ report: ValidationReport, languages: [String]) -> BuildNotes {
        let warnings = report.warningCount == 0 ? nil : Self.panel(report)
        let translationCodes: Set<DiagnosticCode> = [.translationMissing, .translationOutdated]
        let status = TranslationStatus(
            languages: report.coverage.map { coverage in
                let links = SiteLinks(style: .server, languageFolder: coverage.language.rawValue == languages.first ? nil : coverage.language.rawValue)
                return TranslationStatus.Language(
                    code: coverage.language.rawValue, coverage: coverage.summary,
                    entries: report.diagnostics.filter { translationCodes.contains($0.code) && $0.language == coverage.language }.map { diagnostic in
                        TranslationStatus.Entry(
                            problem: Self.entry(diagnostic), href: diagnostic.entity.map { links.path(of: Self.screen(showing: $0)) } ?? links.path(of: .home))
                    })
            },
            comparedWith: since.map(\.release))
        return BuildNotes(warnings: warnings, translations: status, standIns: report.standIns)
    }

    /// The screen an entity's texts show on: its own, or for a retailer, a section, a
    /// promotion, the home and the company, the screen that shows them.
    package static func screen(showing entity: EntityReference) -> Route {
        switch entity.kind {
        case .product: .product(ProductID(rawValue: entity.id))
        case .recipe: .recipe(RecipeID(rawValue: entity.id))
        case .retailer: .retailers
        case .section: SectionKind(rawValue: entity.id).map(Route.root(of:)) ?? .home
        case .company: .company
        default: .home
        }
    }

    /// A problem as the panels word it, as `digno validate` prints it.
    static func entry(_ diagnostic: Diagnostic) -> DiagnosticsPanel.Entry {
        DiagnosticsPanel.Entry(place: ReportFormat.place(of: diagnostic), severity: diagnostic.severity.rawValue,
                               message: diagnostic.message, code: diagnostic.code.rawValue)
    }

    /// A build that failed before any file was checked (the folder is gone, a disk is full).
    static func panel(failure: String) -> DiagnosticsPanel {
        DiagnosticsPanel(
            summary: .failed,
            problems: [DiagnosticsPanel.Entry(place: "", severity: "error", message: failure, code: "")],
            hasLastGood: false)
    }
}
