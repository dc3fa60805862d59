@testable import CatalogSite
import Testing

/// The preview panels' own words in the page's language, counted as each language counts.
struct PanelStringsTests {
    @Test func countsAreWordedAsEachLanguageCountsThem() {
        let one = DiagnosticsPanel.Summary.counts(errors: 1, warnings: 1, files: 1)
        let many = DiagnosticsPanel.Summary.counts(errors: 2, warnings: 0, files: 61)
        #expect(PanelStrings.finnish.summary(one) == "1 virhe, 1 varoitus 1 tiedostossa")
        #expect(PanelStrings.finnish.summary(many) == "2 virhettä, 0 varoitusta 61 tiedostossa")
        #expect(PanelStrings.swedish.summary(one) == "1 fel, 1 varning i 1 fil")
        #expect(PanelStrings.swedish.summary(many) == "2 fel, 0 varningar i 61 filer")
        #expect(PanelStrings.english.summary(one) == "1 error, 1 warning in 1 file")
        #expect(PanelStrings.english.summary(many) == "2 errors, 0 warnings in 61 files")
    }

    @Test func aRegionalOrUnknownLanguageGetsTheNearestWords() {
        #expect(PanelStrings.for("sv-AX").language == "sv")
        #expect(PanelStrings.for("fi").language == "fi")
        #expect(PanelStrings.for("de").language == "en", "a language with no words of its own gets English's")
    }

    @Test func thePanelSaysWhatIsUnderItOnlyWhenSomethingIs() {
        let panel = DiagnosticsPanel(summary: .failed, problems: [.init(place: "", severity: "warning", message: "m", code: "")], hasLastGood: false)
        let view = DiagnosticsPanelView(panel, words: .swedish, isError: true)
        #expect(view.title == "Innehållet har fel: bygget misslyckades")
        #expect(view.advice == "Rätta filerna och spara: appen kommer tillbaka av sig själv.")
        #expect(view.problems.map(\.severityLabel) == ["varning"])
        var built = panel
        built.hasLastGood = true
        #expect(DiagnosticsPanelView(built, words: .english, isError: true).advice.hasPrefix("Under this panel is the last version that built. "))
    }
}
