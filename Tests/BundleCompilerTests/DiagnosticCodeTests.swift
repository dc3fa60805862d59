import CatalogContent
import CatalogModel
import Foundation
import Testing

/// One registry of codes, `DiagnosticCode`, for the compiler's problems and the catalogue
/// rules', and docs/DIAGNOSTICS.md's table lists exactly its codes, each once.
@Suite struct DiagnosticCodeTests {
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/DIAGNOSTICS.md")

    /// The codes in the first column of the table that starts `| code | severity | what |`.
    static func documentedCodes() throws -> [String] {
        let lines = try String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "| code | severity | what |"))
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.flatMap { row in
            let first = row.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            return first.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    @Test func theGuideListsEveryCodeOnce() throws {
        let documented = try Self.documentedCodes()
        #expect(documented.count == Set(documented).count, "a code listed twice")
        #expect(Set(documented) == Set(DiagnosticCode.allCases.map(\.rawValue)))
    }

    @Test func eachCodeIsSpelledOnce() {
        #expect(Set(DiagnosticCode.allCases.map(\.rawValue)).count == DiagnosticCode.allCases.count)
        #expect(DiagnosticCode.duplicateID.description == "duplicate-id")
    }
}
