import CatalogModel

// What `digno preview` adds to the pages, as plain values for the templates (problems.mustache,
// notice.mustache, preview-head.mustache). Like PageView, no field is optional.

/// The problems of the latest build, each as `digno validate` words it. The panel's own words
/// are in the page's language (`PanelStrings`); the problems' messages are the validator's, in
/// English, as `digno validate` and `digno lsp` give them.
package struct DiagnosticsPanel: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// `products/espresso.xml:12:5:`, or empty for a problem that concerns no file.
        package var place: String
        /// `error` or `warning`.
        package var severity: String
        package var message: String
        /// The stable code, such as `schema-invalid`; empty for a build that failed before
        /// checking (the folder is gone).
        package var code: String

        package init(place: String, severity: String, message: String, code: String) {
            self.place = place
            self.severity = severity
            self.message = message
            self.code = code
        }
    }

    /// What the panel's heading counts.
    package enum Summary: Sendable, Equatable {
        /// The build checked the files: `2 errors, 0 warnings in 61 files`.
        case counts(errors: Int, warnings: Int, files: Int)
        /// It failed before checking any file (the folder is gone, a disk is full).
        case failed
    }

    package var summary: Summary
    package var problems: [Entry]
    /// Whether the last version that built is shown under the panel.
    package var hasLastGood: Bool
    /// The catalogue's default language, that of the pages at the root (`/products`, not
    /// `/sv/products`): Finnish when `catalog.xml` cannot be read.
    package var defaultLanguage: String

    package init(summary: Summary, problems: [Entry], hasLastGood: Bool, defaultLanguage: String = "fi") {
        self.summary = summary
        self.problems = problems
        self.hasLastGood = hasLastGood
        self.defaultLanguage = defaultLanguage
    }
}

/// A `DiagnosticsPanel` as a page in one language shows it (problems.mustache,
/// warnings.mustache): the panel's words in `PanelStrings`, the problems as they are.
struct DiagnosticsPanelView {
    struct Entry {
        var place: String
        /// `error` or `warning`, the class the style sheet colours.
        var severity: String
        /// `virhe`, `fel`, `error`.
        var severityLabel: String
        var message: String
        var code: String
        var hasPlace: Bool
        var hasCode: Bool
    }

    /// The page's language, the panel's `lang`.
    var language: String
    /// `The content has errors: 2 errors, 0 warnings in 61 files`.
    var title: String
    /// Under an error panel: what the pages under it show and what to do.
    var advice: String
    /// A warnings panel's link to the translation page, and the words around it.
    var translationsLink: String
    var translationsText: String
    var problems: [Entry]

    /// The panel for a failed build (`isError`) or a built one's warnings.
    init(_ panel: DiagnosticsPanel, words: PanelStrings, isError: Bool) {
        language = words.language
        let summary = words.summary(panel.summary)
        title = (isError ? words.errorsTitle : words.warningsTitle) + summary
        advice = (panel.hasLastGood ? words.lastGood + " " : "") + words.fixAndSave
        translationsLink = words.translationsLink
        translationsText = words.translationsText
        problems = panel.problems.map { problem in
            Entry(place: problem.place, severity: problem.severity, severityLabel: words.severity(problem.severity), message: problem.message,
                  code: problem.code, hasPlace: !problem.place.isEmpty, hasCode: !problem.code.isEmpty)
        }
    }
}

/// The preview panels' own words in Finnish, Swedish and English, as `SiteStrings` has the
/// pages': a language a catalogue adds beyond those gets English's.
struct PanelStrings: Sendable {
    var language: String
    var errorsTitle: String
    var warningsTitle: String
    var lastGood: String
    var fixAndSave: String
    var buildFailed: String
    var notBuilt: String
    /// The first build still under way.
    var building: String
    var translationsLink: String
    var translationsText: String
    /// `error` and `warning`, as the page's language says them.
    var error: String
    var warning: String
    /// `2 errors, 0 warnings in 61 files`.
    var counts: @Sendable (_ errors: Int, _ warnings: Int, _ files: Int) -> String

    static let finnish = PanelStrings(
        language: "fi", errorsTitle: "Sisällössä on virheitä: ", warningsTitle: "Rakentui, varoituksin: ",
        lastGood: "Paneelin alla on viimeisin versio, joka rakentui.", fixAndSave: "Korjaa tiedostot ja tallenna: sovellus palaa itsestään.",
        buildFailed: "rakentaminen epäonnistui", notBuilt: "Sisältöä ei ole vielä rakennettu: korjaa yllä olevat virheet ja tallenna.",
        building: "Sisältöä rakennetaan: sivu päivittyy, kun se on valmis.",
        translationsLink: "Käännökset", translationsText: ": mitä kustakin kielestä puuttuu tai on vanhentunut.",
        error: "virhe", warning: "varoitus",
        // Finnish counts take the partitive after any number but one: 1 virhe, 2 virhettä.
        counts: { errors, warnings, files in
            "\(errors) \(errors == 1 ? "virhe" : "virhettä"), \(warnings) \(warnings == 1 ? "varoitus" : "varoitusta") \(files) tiedostossa"
        })
    static let swedish = PanelStrings(
        language: "sv", errorsTitle: "Innehållet har fel: ", warningsTitle: "Byggdes, med varningar: ",
        lastGood: "Under panelen visas den senaste versionen som byggdes.", fixAndSave: "Rätta filerna och spara: appen kommer tillbaka av sig själv.",
        buildFailed: "bygget misslyckades", notBuilt: "Innehållet har inte byggts än: rätta felen ovan och spara.",
        building: "Innehållet byggs: sidan uppdateras när det är klart.",
        translationsLink: "Översättningar", translationsText: ": vad som saknas eller är inaktuellt på varje språk.",
        error: "fel", warning: "varning",
        counts: { errors, warnings, files in
            "\(errors) fel, \(warnings) \(warnings == 1 ? "varning" : "varningar") i \(files) \(files == 1 ? "fil" : "filer")"
        })
    static let english = PanelStrings(
        language: "en", errorsTitle: "The content has errors: ", warningsTitle: "Built with warnings: ",
        lastGood: "Under this panel is the last version that built.", fixAndSave: "Fix the files and save: the app comes back by itself.",
        buildFailed: "the build failed", notBuilt: "The content has not built yet: fix the errors above and save.",
        building: "The content is being built: the page updates when it is done.",
        translationsLink: "Translations", translationsText: ": what is missing or outdated in each language.",
        error: "error", warning: "warning",
        counts: { errors, warnings, files in
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            return "\(count(errors, "error")), \(count(warnings, "warning")) in \(count(files, "file"))"
        })

    /// The words for a page in `language` (`sv-AX` gets Swedish's).
    static func `for`(_ language: String) -> PanelStrings {
        let all = [finnish, swedish, english]
        let best = BundleLanguage.lookup([language], among: all.map(\.language))
        return all.first { $0.language == best } ?? english
    }

    func summary(_ summary: DiagnosticsPanel.Summary) -> String {
        switch summary {
        case .counts(let errors, let warnings, let files): counts(errors, warnings, files)
        case .failed: buildFailed
        }
    }

    func severity(_ severity: String) -> String {
        switch severity {
        case "error": error
        case "warning": warning
        default: severity
        }
    }
}

/// What the content changes compared with a given bundle (`digno preview --compare`): what the
/// next publish will change, as `digno diff` words it.
package struct ChangesPanel: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// `added`, `removed` or `changed`.
        package var change: String
        /// `product`, `recipe`, ….
        package var kind: String
        package var id: String
        package var name: String
        /// `summary: Tummapaahteinen{+, hienoksi jauhettu+} espressojauhe`, one per field.
        package var fields: [String]
        /// Read by the template.
        var hasFields: Bool

        package init(change: String, kind: String, id: String, name: String, fields: [String]) {
            self.change = change
            self.kind = kind
            self.id = id
            self.name = name
            self.fields = fields
            self.hasFields = !fields.isEmpty
        }
    }

    /// What was compared with: `dist/catalog.sqlite (2026.11.0)`.
    package var against: String
    /// `1 removed, 2 changed`, or `no changes`.
    package var summary: String
    package var entries: [Entry]
    /// Read by the template.
    var hasEntries: Bool

    package init(against: String, summary: String, entries: [Entry]) {
        self.against = against
        self.summary = summary
        self.entries = entries
        self.hasEntries = !entries.isEmpty
    }
}

/// A page with a heading and a sentence and no app around it: a screen that is not there, or
/// the preview before any version has built.
struct NoticeView {
    /// The page's language, its `lang`.
    var language: String
    var title: String
    var message: String
    var stylesheet: String
    var hasHome: Bool
    var homeHref: String
    var head: String
    var foot: String
}

struct PreviewHeadView {
    var generation: String
}

/// The preview's translation page (`/_preview/translations`): for each language but the
/// default, how much is translated, and every missing or outdated translation with a link to
/// the screen it shows on in that language.
package struct TranslationStatus: Sendable, Equatable {
    package struct Language: Sendable, Equatable {
        /// `sv`.
        package var code: String
        /// `Svenska`, the language's name in itself.
        package var name: String
        /// `sv: 128 of 130 texts, 98 %`.
        package var coverage: String
        package var entries: [Entry]
        /// Read by the template.
        var hasEntries: Bool

        package init(code: String, coverage: String, entries: [Entry]) {
            self.code = code
            self.name = SiteStrings.name(of: code)
            self.coverage = coverage
            self.entries = entries
            self.hasEntries = !entries.isEmpty
        }
    }

    /// A missing or outdated translation, as the error panel words a problem
    /// (`translation-missing`, an error for a required language), with the screen it shows on.
    package struct Entry: Sendable, Equatable {
        package var problem: DiagnosticsPanel.Entry
        /// The screen the text shows on, in the language: `/sv/recipes/cafe-latte`.
        package var href: String

        package init(problem: DiagnosticsPanel.Entry, href: String) {
            self.problem = problem
            self.href = href
        }
    }

    package var languages: [Language]
    /// The release outdated translations were looked for against (`--compare`'s), or empty.
    package var comparedWith: String
    /// Read by the template.
    var hasComparison: Bool
    var hasLanguages: Bool

    package init(languages: [Language], comparedWith: String?) {
        self.languages = languages
        self.comparedWith = comparedWith ?? ""
        self.hasComparison = comparedWith != nil
        self.hasLanguages = !languages.isEmpty
    }
}

/// The translation page: its status and the preview's head and foot.
struct TranslationPageView {
    var status: TranslationStatus
    var stylesheet: String
    var head: String
    var foot: String
}
