@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// A check with a focus (`ContentValidator.focus`, a form's check as typed in `digno studio`)
/// finds at each focused entity exactly what the whole check finds there: the catalogue's
/// rules across entities and the pictures' checks, a missing picture's suggestion among the
/// images nothing else uses included.
@Suite struct FocusedCheckTests {
    @Test func aFocusedCheckFindsWhatTheWholeCheckFindsAtItsEntity() throws {
        let content = try Fixtures.makeContent()
        defer { Fixtures.remove(content) }
        let cache = LoadCache(racyWindow: 0)
        // An image nothing uses: a missing picture's likeliest meaning, which a focused check
        // knows only by looking at every other entity's pictures.
        try FileManager.default.copyItem(at: content.appendingPathComponent("images/picture.png"),
                                         to: content.appendingPathComponent("images/picture2.png"))
        let edits: [(file: String, of: String, with: String)] = [
            ("products/espresso.xml", "images/picture.png", "images/pictures.png"),
            ("recipes/cafe-latte.xml", "src=\"images/picture.png\"", "src=\"images\\picture.png\""),
            ("products/ground-coffee.xml", "<name>Ground Coffee</name>", "<name>espresso</name>"),
            ("recipes/cafe-au-lait.xml", "product=\"ground-coffee\"", "product=\"ground-cofee\""),
            ("products/ground-coffee.xml", "src=\"images/icon.png\"", "src=\"images/picture.png\""),
        ]
        var found = Set<DiagnosticCode>()
        for (step, edit) in edits.enumerated() {
            let url = content.appendingPathComponent(edit.file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(edit.of), "step \(step)")
            try text.replacingOccurrences(of: edit.of, with: edit.with).write(to: url, atomically: true, encoding: .utf8)
            var wholeCheck = ContentValidator(contentFolder: content.path, today: Fixtures.today)
            wholeCheck.makesRenditions = false
            let whole = try wholeCheck.validate()
            found.formUnion(whole.diagnostics.map(\.code))
            var entities: [EntityReference] = []
            try #require(whole.catalog).forEachEntity { reference, _ in entities.append(reference) }
            for entity in entities {
                var focused = ContentValidator(contentFolder: content.path, today: Fixtures.today)
                focused.makesRenditions = false
                focused.cache = cache
                focused.focus = [entity]
                let atIt = try focused.validate().diagnostics.filter { $0.entity == entity }
                #expect(atIt == whole.diagnostics.filter { $0.entity == entity }, "step \(step), \(entity)")
            }
        }
        #expect(found.isSuperset(of: [.imageMissing, .duplicateName, .unknownProduct, .iconNotSquare]), "\(found)")
        // The missing picture's suggestion is the image nothing else uses.
        var wholeCheck = ContentValidator(contentFolder: content.path, today: Fixtures.today)
        wholeCheck.makesRenditions = false
        let missing = try wholeCheck.validate().diagnostics.filter { $0.code == .imageMissing }.map(\.message)
        #expect(missing.contains { $0.contains("images/pictures.png") && $0.contains("picture2.png") }, "\(missing)")
    }
}
