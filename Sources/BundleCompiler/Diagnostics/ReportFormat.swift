import CatalogModel
import Foundation

/// How `digno validate` prints a report.
package enum ReportFormat: String, CaseIterable, Sendable {
    /// One line per problem, the way compilers print: `file:line:column: severity: message [code]`,
    /// then a summary line.
    case text
    /// A JSON document (docs/DIAGNOSTICS.md, "The JSON report").
    case json
    /// GitHub Actions workflow commands, so problems appear as annotations on the changed lines.
    case github
    /// SARIF 2.1.0, for code scanning (`SARIFReport`).
    case sarif

    /// The report in this format. `contentFolder` is how the user named the content folder; the
    /// GitHub format prefixes paths with it so that annotations land on repository files.
    /// `documentation`, a base address of docs/, links SARIF's rules to their documentation.
    package func render(_ report: ValidationReport, contentFolder: String, documentation: String? = nil) -> String {
        switch self {
        case .text: Self.text(report)
        case .json: Self.json(report, contentFolder: contentFolder)
        case .github: Self.github(report, contentFolder: contentFolder)
        case .sarif: SARIFReport.render(report, contentFolder: contentFolder, documentation: documentation)
        }
    }

    static func text(_ report: ValidationReport) -> String {
        var lines = report.diagnostics.map { diagnostic in
            let place = place(of: diagnostic)
            return (place.isEmpty ? "" : place + " ") + "\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
        }
        lines.append(summary(report))
        lines += coverage(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where a problem is, as the text format starts its line: `products/espresso.xml:12:5:`,
    /// `products:` for a folder, empty for none. `digno preview`'s error panel words it the same.
    package static func place(of diagnostic: Diagnostic) -> String {
        // A file's name is shown as the message shows text: its invisible characters as codes.
        var place = diagnostic.file.map { $0.showingInvisibles + ":" } ?? ""
        if diagnostic.file != nil, let line = diagnostic.line {
            place += "\(line):" + (diagnostic.column.map { "\($0):" } ?? "")
        }
        return place
    }

    /// Each language's coverage, `sv: 130 of 130 texts, 100 %`, and, while files with errors
    /// are left out of the counts, which.
    static func coverage(_ report: ValidationReport) -> [String] {
        guard !report.coverage.isEmpty else { return [] }
        let left = report.uncounted
        guard !left.isEmpty else { return report.coverage.map(\.summary) }
        let named = left.prefix(3).map(\.showingInvisibles).joined(separator: ", ") + (left.count > 3 ? " and \(left.count - 3) more" : "")
        return report.coverage.map(\.summary)
            + ["(not counting the texts of \(left.count == 1 ? "a file" : "\(left.count) files") with errors: \(named))"]
    }

    /// `2 errors, 1 warning in 61 files`.
    package static func summary(_ report: ValidationReport) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "\(count(report.errorCount, "error")), \(count(report.warningCount, "warning")) in \(count(report.fileCount, "file"))"
    }

    static func github(_ report: ValidationReport, contentFolder: String) -> String {
        let prefix = contentFolder.hasSuffix("/") ? contentFolder : contentFolder + "/"
        var lines = report.diagnostics.map { diagnostic in
            var properties: [String] = []
            if let file = diagnostic.file { properties.append("file=" + escapeProperty(prefix + file)) }
            if let line = diagnostic.line { properties.append("line=\(line)") }
            if let column = diagnostic.column { properties.append("col=\(column)") }
            properties.append("title=" + escapeProperty(diagnostic.code.rawValue))
            return "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(escapeData(diagnostic.message))"
        }
        lines.append(summary(report))
        lines += coverage(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// GitHub's escaping for a workflow command's message.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for a workflow command's property value.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    static func json(_ report: ValidationReport, contentFolder: String) -> String {
        let document = JSONReport(
            format: "digno-validation-report", version: 1, content: contentFolder, valid: report.isValid,
            errors: report.errorCount, warnings: report.warningCount, files: report.fileCount,
            diagnostics: report.diagnostics.map(JSONReport.Entry.init),
            coverage: report.coverage.map { JSONReport.Coverage(language: $0.language.rawValue, translated: $0.translated, total: $0.total) },
            uncounted: report.coverage.isEmpty ? [] : report.uncounted)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The JSON report's shape; docs/DIAGNOSTICS.md documents every key.
struct JSONReport: Encodable {
    var format: String
    var version: Int
    var content: String
    var valid: Bool
    var errors: Int
    var warnings: Int
    var files: Int
    var diagnostics: [Entry]
    /// Each declared language but the default: how many of the texts are translated into it.
    var coverage: [Coverage]
    /// The files with errors whose texts `coverage` leaves out.
    var uncounted: [String]

    struct Coverage: Encodable {
        var language: String
        var translated: Int
        var total: Int
    }

    struct Entry: Encodable {
        var severity: String
        var code: String
        var file: String?
        var line: Int?
        var column: Int?
        var entity: Entity?
        var message: String

        struct Entity: Encodable {
            var kind: String
            var id: String?
        }

        init(_ diagnostic: Diagnostic) {
            severity = diagnostic.severity.rawValue
            code = diagnostic.code.rawValue
            file = diagnostic.file
            line = diagnostic.line
            column = diagnostic.column
            entity = diagnostic.entity.map { Entity(kind: $0.kind.rawValue, id: $0.id.isEmpty ? nil : $0.id) }
            message = diagnostic.message
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(severity, forKey: .severity)
            try container.encode(code, forKey: .code)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(entity, forKey: .entity)
            try container.encode(message, forKey: .message)
        }

        enum CodingKeys: String, CodingKey {
            case severity, code, file, line, column, entity, message
        }
    }
}
