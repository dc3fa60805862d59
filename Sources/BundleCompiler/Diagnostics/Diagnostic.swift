import CatalogContent
import CatalogModel

/// One problem in the content, the way a compiler reports it: where, how serious, a stable
/// code, and a message that says what to do.
package struct Diagnostic: Hashable, Sendable {
    /// Error or warning.
    package var severity: Severity
    /// The stable code, such as `name-too-long` or `schema-invalid`.
    package var code: DiagnosticCode
    /// The path relative to the content root (`products/espresso.xml`), or a folder
    /// (`products`) for problems that concern no single file.
    package var file: String?
    /// The line, counting from 1, when known.
    package var line: Int?
    /// The column in characters, counting from 1, when known.
    package var column: Int?
    /// The entity the problem is in, when there is one.
    package var entity: EntityReference?
    /// The language of the translation the problem is in (or, for `translation-missing`,
    /// missing from); nil for the default language's texts and for problems of no text.
    package var language: LanguageCode?
    /// The field of `entity` the problem is in, when a rule found it there (`digno studio` shows
    /// it beside that field); nil for the parser's and the schema's problems.
    package var field: FieldPath?
    /// What is wrong and what to do about it. Any invisible character in it, such as one
    /// quoted from a wrong value, is written as its code (`showingInvisibles`).
    package var message: String

    /// A diagnostic from its parts.
    package init(
        _ severity: Severity, _ code: DiagnosticCode, file: String?, line: Int? = nil, column: Int? = nil,
        entity: EntityReference? = nil, language: LanguageCode? = nil, message: String
    ) {
        self.severity = severity
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.entity = entity
        self.language = language
        self.message = message.showingInvisibles
    }

    init(
        _ severity: Severity, _ code: DiagnosticCode, file: String?, position: SourcePosition? = nil,
        entity: EntityReference? = nil, message: String
    ) {
        self.init(severity, code, file: file, line: position?.line, column: position?.column,
                  entity: entity, message: message)
    }

    /// The order diagnostics are printed in: by file, then line and column.
    static func printOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.file ?? "", a.line ?? 0, a.column ?? 0, a.severity == .error ? 0 : 1, a.code.rawValue, a.message)
            < (b.file ?? "", b.line ?? 0, b.column ?? 0, b.severity == .error ? 0 : 1, b.code.rawValue, b.message)
    }
}
