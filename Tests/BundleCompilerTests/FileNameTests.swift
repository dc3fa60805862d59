@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// Wrongly named content files: one error each, a suggestion only when it is itself a valid
/// name, and no cascade of problems about what the unread file would have held.
@Suite struct FileNameTests {
    func validate(_ changes: (URL) throws -> Void) throws -> ValidationReport {
        let content = try Fixtures.makeContent(changes)
        defer { Fixtures.remove(content) }
        return try Fixtures.validate(content)
    }

    func rename(_ content: URL, _ from: String, _ to: String) throws {
        try FileManager.default.moveItem(at: content.appendingPathComponent(from), to: content.appendingPathComponent(to))
    }

    /// Before, espresso.XML was a warning and ignored: every reference to espresso was then
    /// unknown, or, had none existed, the product would have gone missing from the bundle.
    @Test func anUpperCaseExtensionIsAnErrorWithTheRightName() throws {
        let report = try validate { try rename($0, "products/espresso.xml", "products/espresso.XML") }
        #expect(report.diagnostics.map(\.code) == ["invalid-file-name"])
        #expect(report.diagnostics.first?.message == "file name 'espresso.XML' does not end in lower-case .xml; rename it to espresso.xml")
    }

    /// The unread file's images are not called unused: which it uses is unknown.
    @Test func anInvalidNameReportsNothingAboutWhatTheFileHolds() throws {
        let report = try validate { content in
            // A picture only this product uses.
            try FileManager.default.copyItem(at: content.appendingPathComponent("images/picture.png"), to: content.appendingPathComponent("images/own.png"))
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("src=\"images/picture.png\""))
            try text.replacingOccurrences(of: "src=\"images/picture.png\"", with: "src=\"images/own.png\"").write(to: url, atomically: true, encoding: .utf8)
            try rename(content, "products/espresso.xml", "products/Espresso.xml")
        }
        #expect(report.diagnostics.map(\.code) == ["invalid-file-name"])
        #expect(report.diagnostics.first?.message.hasSuffix(", for example 'espresso.xml'") == true)
    }

    @Test func aSuggestedNameKeepsWholeWordsWithinTheLimit() {
        let long = "Kahvi " + String(repeating: "pitkä sana ", count: 8)
        let suggestion = ContentTree.slug(from: long)
        #expect(suggestion == "kahvi-pitka-sana-pitka-sana-pitka-sana-pitka-sana-pitka-sana")
        #expect(isValidSlug(suggestion))
        #expect(ContentTree.slug(from: String(repeating: "a", count: 70)) == String(repeating: "a", count: 64))
        #expect(ContentTree.slug(from: "Café Latte") == "cafe-latte")
    }

    /// An id the schema refuses gets the schema's error only: "rename the file to espresso .xml"
    /// (with an invisible no-break space) suggested an invalid name.
    @Test(arguments: ["espresso\u{A0}", " espresso", "espresso\u{200B}", "Espresso"])
    func anInvalidDeclaredIDIsTheSchemasToReport(id: String) throws {
        let report = try validate { content in
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "<product id=\"espresso\"", with: "<product id=\"\(id)\"").write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(report.diagnostics.map(\.code) == ["schema-invalid"])
    }
}
