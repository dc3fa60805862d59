import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Testing

/// `digno validate --since BUNDLE`: a translation whose Finnish text changed since a release
/// while it did not is a warning at the translation, the change shown word by word.
@Suite struct OutdatedTranslationTests {
    /// The valid fixture in Finnish and Swedish, Espresso's summary and Café Latte's method
    /// and first line translated.
    static func bilingual(_ content: URL) throws {
        try replace(in: content.appendingPathComponent("catalog.xml"), "<sections>",
                    with: "<languages><language code=\"fi\"/><language code=\"sv\" fallback=\"fi\"/></languages>\n  <sections>")
        try replace(in: content.appendingPathComponent("products/espresso.xml"), "</summary>",
                    with: "</summary>\n  <summary xml:lang=\"sv\">Mörkrostat malet espresso</summary>")
        try replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "Café Digno Espressoa</ingredient>",
                    with: "Café Digno Espressoa</ingredient>\n    <ingredient xml:lang=\"sv\">1–2 shots Café Digno Espresso</ingredient>")
        try replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "</method>",
                    with: "</method>\n  <method xml:lang=\"sv\"><p>Brygg espresson och skumma mjölken.</p></method>")
    }

    static func replace(in file: URL, _ old: String, with new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old), "\(file.lastPathComponent): no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func aTranslationLeftAsItWasWhileItsFinnishChangedIsAWarning() throws {
        let content = try Fixtures.makeContent(Self.bilingual)
        defer { Fixtures.remove(content) }
        let bundle = content.deletingLastPathComponent().appendingPathComponent("catalog.sqlite").path
        let builder = BundleBuilder(contentFolder: content.path, output: bundle, releaseVersion: "2026.11.0", today: Fixtures.today)
        _ = try builder.write(try builder.validate())
        let earlier = try CatalogBundle(path: bundle, trust: InMemoryTrustStore())

        // The Finnish summary and method change; the summary's translation is left, the
        // method's is changed too; the first line changes in both.
        try Self.replace(in: content.appendingPathComponent("products/espresso.xml"), "<summary>Tummapaahteinen espressojauhe</summary>",
                         with: "<summary>Tummapaahteinen hienojakoinen espressojauhe</summary>")
        try Self.replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "Valmista espresso ja vaahdota maito.",
                         with: "Valmista espresso ja vaahdota kylmä maito.")
        try Self.replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "Brygg espresson och skumma mjölken.",
                         with: "Brygg espresson och skumma den kalla mjölken.")
        try Self.replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "1–2 annosta Café Digno Espressoa",
                         with: "2 annosta Café Digno Espressoa")
        try Self.replace(in: content.appendingPathComponent("recipes/cafe-latte.xml"), "1–2 shots Café Digno Espresso",
                         with: "2 shots Café Digno Espresso")

        let report = try ContentValidator(contentFolder: content.path, today: Fixtures.today,
                                          since: (try earlier.catalog(), earlier.release.releaseVersion)).validate()
        let outdated = report.diagnostics.filter { $0.code == .translationOutdated }
        #expect(outdated.map { "\($0.file ?? ""):\($0.line ?? 0): \($0.message)" } == [
            "products/espresso.xml:6: sv: summary changed in fi since 2026.11.0 (Tummapaahteinen {+hienojakoinen+} espressojauhe), "
                + "and this translation did not; check that it still says the same",
        ])
        #expect(report.isValid)

        // Without --since, nothing is outdated.
        let plain = try ContentValidator(contentFolder: content.path, today: Fixtures.today).validate()
        #expect(!plain.diagnostics.contains { $0.code == .translationOutdated })
    }

    @Test func aChangeIsShownByItsChangedWordsWithTheirNeighbours() {
        #expect(Catalog.shownChange(from: "Sekoita kuuma kahvi ja kuumennettu maito mukiin", to: "Sekoita kuuma kahvi sekä kuumennettu maito mukiin")
            == "Sekoita kuuma kahvi [-ja-] {+sekä+} kuumennettu maito mukiin")
        #expect(Catalog.shownChange(from: "yksi kaksi kolme neljä viisi a seitsemän kahdeksan yhdeksän kymmenen",
                                    to: "yksi kaksi kolme neljä viisi b seitsemän kahdeksan yhdeksän kymmenen")
            == "… kolme neljä viisi [-a-] {+b+} seitsemän kahdeksan yhdeksän …")
        #expect(Catalog.shownChange(from: "a", to: "b") == "[-a-] {+b+}")
    }
}
