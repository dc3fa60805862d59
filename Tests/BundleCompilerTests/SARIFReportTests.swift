@testable import BundleCompiler
import CatalogContent
import Foundation
import Testing

/// The SARIF report's own parts; Tests/Editors reads whole reports with a SARIF library.
@Suite struct SARIFReportTests {
    @Test func everyCodeIsARuleWithDIAGNOSTICSmdsWords() throws {
        let rules = RuleDocumentation.shared.rules
        #expect(rules.map(\.code) == DiagnosticCode.allCases)
        for rule in rules {
            #expect(!rule.summary.isEmpty && !rule.description.contains("`"), "\(rule.code)")
        }
        let tooLarge = try #require(RuleDocumentation.shared.rule(.fileTooLarge))
        #expect(tooLarge.summary == "a content file over 4 MiB")
        #expect(RuleDocumentation.shared.rule(.summaryTooLong)?.summary == "over the field's limit")
    }

    @Test func namesAndPaths() {
        #expect(SARIFReport.ruleName(.schemaReferenceMissing) == "SchemaReferenceMissing")
        #expect(SARIFReport.uri("content/images/kahvi ä#1.png") == "content/images/kahvi%20%C3%A4%231.png")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-sarif-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("site/content")
        try? FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let real = FileSystem.realPath(content.path) ?? content.path
        // No repository: from the working directory when the folder is inside it; else an
        // absolute file:// URI with no base (never an absolute path on %SRCROOT%).
        #expect(SARIFReport.base(of: content.path, workingDirectory: "/nonexistent-\(UUID().uuidString)") == .absolute(real + "/"))
        #expect(SARIFReport.base(of: content.path, workingDirectory: folder.path) == .sourceRoot("site/content/"))
        #expect(SARIFReport.base(of: content.path, workingDirectory: content.path) == .sourceRoot(""))
        let outside = SARIFReport.Base.absolute(real + "/").location(of: "products/kahvi ä.xml")
        #expect(outside.uri == "file://" + SARIFReport.uri(real) + "/products/kahvi%20%C3%A4.xml" && outside.uriBaseId == nil)
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(SARIFReport.base(of: content.path, workingDirectory: "/") == .sourceRoot("site/content/"))
        #expect(SARIFReport.base(of: folder.path) == .sourceRoot(""))
    }
}
