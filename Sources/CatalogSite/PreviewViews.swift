import CatalogModel

// What `digno preview` adds to the pages, as plain values for the templates (problems.mustache,
// notice.mustache, preview-head.mustache). Like PageView, no field is optional.

/// The problems of the latest build, each as `digno validate` words it.
package struct ProblemPanel: Sendable, Equatable {
    package struct Problem: Sendable, Equatable {
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
    package var problems: [Problem]
    /// Whether the last version that built is shown under the panel.
    package var hasLastGood: Bool

    package init(summary: String, problems: [Problem], hasLastGood: Bool) {
        self.summary = summary
        self.problems = problems
        self.hasLastGood = hasLastGood
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
