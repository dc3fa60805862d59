import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogSite
import Foundation

/// One build of the content for the preview: validated exactly as `digno validate` does,
/// written into the preview's scratch folder (never `dist/`), and opened as an app opens a
/// bundle.
struct PreviewBuilder: Sendable {
    let contentFolder: String
    let scratch: URL
    /// The day promotions are judged against (warnings only), asked at each build.
    let day: @Sendable () -> Day?

    enum Outcome: Sendable {
        /// The content built; `sha256` is the bundle's, which is the same for the same content.
        case built(CatalogBundle, path: String, sha256: String)
        /// It did not: the problems, as the error panel shows them and as `digno validate`
        /// prints them.
        case failed(DiagnosticsPanel, text: String)
    }

    /// Builds the content as build number `number`, into `catalog-NUMBER.sqlite` in the scratch
    /// folder.
    func build(number: Int) -> Outcome {
        let output = bundlePath(number: number)
        let builder = BundleBuilder(contentFolder: contentFolder, output: output, today: day())
        let report: ValidationReport
        do {
            report = try builder.validate()
        } catch {
            return .failed(Self.panel(failure: "\(error)"), text: "error: \(error)\n")
        }
        guard report.exitStatus == 0 else {
            return .failed(Self.panel(report), text: ReportFormat.text.render(report, contentFolder: contentFolder))
        }
        do {
            let manifest = try builder.write(report)
            let bundle = try CatalogBundle(path: output)
            return .built(bundle, path: output, sha256: manifest.bundle.sha256)
        } catch {
            return .failed(Self.panel(failure: "\(error)"), text: "error: \(error)\n")
        }
    }

    func bundlePath(number: Int) -> String {
        scratch.appendingPathComponent("catalog-\(number).sqlite").path
    }

    /// A build's files: the bundle and the manifest beside it.
    static func files(ofBundle path: String) -> [String] {
        [path, Manifest.path(forBundle: path)]
    }

    /// The report's problems, each worded as `digno validate` prints it.
    static func panel(_ report: ValidationReport) -> DiagnosticsPanel {
        DiagnosticsPanel(
            summary: ReportFormat.summary(report),
            problems: report.diagnostics.map { diagnostic in
                DiagnosticsPanel.Entry(
                    place: ReportFormat.place(of: diagnostic), severity: diagnostic.severity.rawValue,
                    message: diagnostic.message, code: diagnostic.code.rawValue)
            },
            hasLastGood: false)
    }

    /// A build that failed before any file was checked (the folder is gone, a disk is full).
    static func panel(failure: String) -> DiagnosticsPanel {
        DiagnosticsPanel(
            summary: "the build failed",
            problems: [DiagnosticsPanel.Entry(place: "", severity: "error", message: failure, code: "")],
            hasLastGood: false)
    }
}
