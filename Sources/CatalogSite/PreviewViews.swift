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
