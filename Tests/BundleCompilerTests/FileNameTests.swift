@testable import BundleCompiler
import CatalogContent
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
        #expect(report.diagnostics.map(\.code.rawValue) == ["invalid-file-name"])
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
        #expect(report.diagnostics.map(\.code.rawValue) == ["invalid-file-name"])
        #expect(report.diagnostics.first?.message.hasSuffix(", for example 'espresso.xml'") == true)
    }

    /// A name already taken in the folder is not suggested: renaming Espresso.xml to
    /// espresso.xml would have replaced the other file.
    @Test func aTakenNameIsNotSuggested() throws {
        let report = try validate { content in
            try FileManager.default.copyItem(at: content.appendingPathComponent("products/espresso.xml"), to: content.appendingPathComponent("products/Espresso.xml"))
            try FileManager.default.copyItem(at: content.appendingPathComponent("products/espresso.xml"), to: content.appendingPathComponent("products/espresso.XML"))
        }
        #expect(report.diagnostics.map(\.message) == [
            "file name 'Espresso' is not a valid id; use lower-case letters, digits and single hyphens, at most 64 characters (espresso.xml is taken)",
            "file name 'espresso.XML' does not end in lower-case .xml; rename it to <id>.xml (espresso.xml is taken)",
        ])
        // Nor a name two files would be given.
        let two = try validate { content in
            let espresso = content.appendingPathComponent("products/espresso.xml")
            try FileManager.default.copyItem(at: espresso, to: content.appendingPathComponent("products/Cafe-Mocha.xml"))
            try FileManager.default.copyItem(at: espresso, to: content.appendingPathComponent("products/cafe-mocha.XML"))
        }
        #expect(two.diagnostics.map(\.message) == [
            "file name 'Cafe-Mocha' is not a valid id; use lower-case letters, digits and single hyphens, at most 64 characters (cafe-mocha.xml would fit more than one file)",
            "file name 'cafe-mocha.XML' does not end in lower-case .xml; rename it to <id>.xml (cafe-mocha.xml would fit more than one file)",
        ])
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
        #expect(report.diagnostics.map(\.code.rawValue) == ["schema-invalid"])
    }

    /// Two image names that are one text in two spellings ("é" composed, and "e" with a
    /// combining accent): Swift's strings take them for one path, so one file's picture was
    /// shown for the other's, with no word said.
    #if os(Linux)  // Linux file systems keep both names; APFS takes them for one.
    @Test func imageNamesThatLookTheSameAreAnError() throws {
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        let report = try validate { content in
            let images = content.appendingPathComponent("images")
            try FileManager.default.copyItem(at: images.appendingPathComponent("picture.png"), to: images.appendingPathComponent(composed))
            try FileManager.default.copyItem(at: images.appendingPathComponent("icon.png"), to: images.appendingPathComponent(decomposed))
        }
        let clash = report.diagnostics.filter { $0.code.rawValue == "invalid-file-name" }
        #expect(clash.count == 1)
        #expect(clash.first?.message.contains("have names that look the same but are written differently") == true)
        #expect(!report.isValid)
    }
    #endif

    /// An image that is a link to nothing says so, rather than suggesting its own name.
    @Test func anImageThatIsABrokenLinkSaysSo() throws {
        let report = try validate { content in
            let picture = content.appendingPathComponent("images/picture.png")
            try FileManager.default.removeItem(at: picture)
            try FileManager.default.createSymbolicLink(atPath: picture.path, withDestinationPath: "nowhere.png")
        }
        let messages = report.diagnostics.filter { $0.code.rawValue == "broken-link" }.map(\.message)
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0 == "image 'images/picture.png' is a symbolic link to 'nowhere.png', which does not exist; point the link at the image, or put the image file itself in its place" })
        #expect(!report.diagnostics.contains { $0.message.contains("did you mean 'images/picture.png'") })
    }
}
