import CatalogModel

// What `digno preview` adds to the pages, as plain values for the templates (problems.mustache,
// notice.mustache, preview-head.mustache). Like PageView, no field is optional.

/// The problems of the latest build, each as `digno validate` words it.
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
        /// Read by the template (Mustache sees stored properties only).
        var hasPlace: Bool
        var hasCode: Bool

        package init(place: String, severity: String, message: String, code: String) {
            self.place = place
            self.severity = severity
            self.message = message
            self.code = code
            self.hasPlace = !place.isEmpty
            self.hasCode = !code.isEmpty
        }
    }

    /// `2 errors, 0 warnings in 61 files`.
    package var summary: String
    package var problems: [Entry]
    /// Whether the last version that built is shown under the panel.
    package var hasLastGood: Bool

    package init(summary: String, problems: [Entry], hasLastGood: Bool) {
        self.summary = summary
        self.problems = problems
        self.hasLastGood = hasLastGood
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
