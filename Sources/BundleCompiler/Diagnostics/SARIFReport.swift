import CatalogContent
import CatalogModel
import Foundation

/// `digno validate --format sarif`: the report as SARIF 2.1.0 (OASIS), which GitHub code
/// scanning and other CI readers take in thousands where workflow annotations stop at ten.
/// Every rule is listed, in DiagnosticCode's order (a rule's index never depends on what was
/// found), with docs/DIAGNOSTICS.md's words; paths are relative to the repository holding the
/// content folder, or else the working directory (`%SRCROOT%`), so the same content gives the
/// same bytes on any machine; a folder outside both is located by absolute `file://` URIs.
struct SARIFReport: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, runs
    }

    struct Run: Encodable {
        var tool: Tool
        var originalUriBaseIds: [String: ArtifactLocation]?
        var results: [Result]
        var columnKind = "unicodeCodePoints"
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "digno"
        var version: String
        var semanticVersion: String
        var informationUri: String?
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var helpUri: String?
        var help: Text
        var defaultConfiguration: Configuration
    }

    struct Text: Encodable {
        var text: String
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]?
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int?
    }

    /// The report of the content folder at `contentFolder` as SARIF; `documentation`, a base
    /// address of docs/ (a repository's `…/blob/<commit>/docs`), links each rule to
    /// DIAGNOSTICS.md there.
    static func render(_ report: ValidationReport, contentFolder: String, documentation: String?) -> String {
        let rules = RuleDocumentation.shared.rules
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.code, $0) })
        let base = base(of: contentFolder)
        let helpURI = documentation.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "DIAGNOSTICS.md" }
        let results = report.diagnostics.map { diagnostic in
            Result(
                ruleId: diagnostic.code.rawValue, ruleIndex: index[diagnostic.code] ?? -1,
                level: diagnostic.severity == .error ? "error" : "warning",
                message: Text(text: diagnostic.message),
                locations: diagnostic.file.map { file in
                    [Location(physicalLocation: PhysicalLocation(
                        artifactLocation: base.location(of: file),
                        region: diagnostic.line.map { Region(startLine: $0, startColumn: diagnostic.column) }))]
                })
        }
        let driver = Driver(
            version: CompilerVersion.number, semanticVersion: CompilerVersion.number,
            informationUri: documentation,
            rules: rules.map { rule in
                Rule(id: rule.code.rawValue, name: ruleName(rule.code),
                     shortDescription: Text(text: rule.summary), fullDescription: Text(text: rule.description),
                     helpUri: helpURI, help: Text(text: rule.description),
                     defaultConfiguration: Configuration(level: rule.severity.hasPrefix("error") ? "error" : "warning"))
            })
        let document = SARIFReport(runs: [Run(tool: Tool(driver: driver), originalUriBaseIds: nil, results: results)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `name-too-long` as SARIF's rule names are written: `NameTooLong`.
    static func ruleName(_ code: DiagnosticCode) -> String {
        code.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A path as a URI reference: each character outside a path's own percent-encoded.
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";:@")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// Where the report's paths start from.
    enum Base: Equatable {
        /// `%SRCROOT%`, which code scanning takes to be the repository's root (the working
        /// directory of a checkout): the content folder's path from it, with a final `/`
        /// (`content/`), or empty.
        case sourceRoot(String)
        /// Nowhere a reader knows: the content folder's absolute path, with a final `/`, for
        /// `file://` URIs with no base.
        case absolute(String)

        /// A file of the content folder (`products/espresso.xml`) as SARIF locates it.
        func location(of file: String) -> ArtifactLocation {
            switch self {
            case .sourceRoot(let prefix): ArtifactLocation(uri: SARIFReport.uri(prefix + file), uriBaseId: "%SRCROOT%")
            case .absolute(let prefix): ArtifactLocation(uri: "file://" + SARIFReport.uri(prefix + file), uriBaseId: nil)
            }
        }
    }

    /// The content folder's place: its path from the root of the git repository that holds it;
    /// with no repository around it, its path from the working directory if it is inside it
    /// (both `%SRCROOT%`); else its absolute path. A path with `%SRCROOT%` that is absolute is
    /// one code scanning cannot place.
    static func base(of contentFolder: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> Base {
        func withSlash(_ path: String) -> String { path.isEmpty || path.hasSuffix("/") ? path : path + "/" }
        guard let real = FileSystem.realPath(contentFolder) else {
            return contentFolder.hasPrefix("/") ? .absolute(withSlash(contentFolder)) : .sourceRoot(withSlash(contentFolder))
        }
        var folder = real
        var inside: [String] = []
        while true {
            if FileSystem.entryType(folder + "/.git") != nil {
                return .sourceRoot(withSlash(inside.reversed().joined(separator: "/")))
            }
            guard let slash = folder.lastIndex(of: "/"), folder != "/" else { break }
            inside.append(String(folder[folder.index(after: slash)...]))
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
        if let working = FileSystem.realPath(workingDirectory) {
            if real == working { return .sourceRoot("") }
            let root = working == "/" ? "/" : working + "/"
            if real.hasPrefix(root) { return .sourceRoot(withSlash(String(real.dropFirst(root.count)))) }
        }
        return .absolute(withSlash(real))
    }
}
