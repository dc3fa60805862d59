import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// Every failure case in `Fixtures/invalid` gives exactly the report in its `expected.txt`:
/// code, file, line, column and message of each problem, and the summary line.
@Test(arguments: Fixtures.invalidCases)
func invalidContentIsReportedExactly(_ name: String) throws {
    let content = try Fixtures.makeContent(case: name)
    defer { Fixtures.remove(content) }
    let report = try Fixtures.validate(content)
    let text = ReportFormat.text.render(report, contentFolder: "content")
    if ProcessInfo.processInfo.environment["DIGNO_RECORD_FIXTURES"] == "1" {
        try text.write(to: Fixtures.invalid.appendingPathComponent(name).appendingPathComponent("expected.txt"), atomically: true, encoding: .utf8)
    }
    #expect(text == (try Fixtures.expected(name)))
}

@Test func theValidFixtureHasNoProblems() throws {
    let report = try Fixtures.validate(Fixtures.valid)
    #expect(report.diagnostics == [])
    #expect(report.isValid)
    #expect(report.fileCount == 11)
    let catalog = try #require(report.catalog)
    #expect(catalog.products.map(\.id) == ["espresso", "ground-coffee"])
    #expect(catalog.recipes.map(\.id).sorted() == ["cafe-au-lait", "cafe-latte"])
}

@Test func theShippedContentValidatesWithoutErrorsOrWarnings() throws {
    let content = Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("content")
    let report = try ContentValidator(contentFolder: content.path, today: Day("2026-11-22")).validate()
    #expect(report.diagnostics == [])
    let catalog = try #require(report.catalog)
    #expect(catalog.products.count == 3)
    #expect(catalog.recipes.count == 13)
    #expect(catalog.retailers.count == 5)
}
