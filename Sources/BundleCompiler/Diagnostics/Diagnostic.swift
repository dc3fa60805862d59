import CatalogModel

/// One problem in the content, the way a compiler reports it: where, how serious, a stable
/// code, and a message that says what to do.
public struct Diagnostic: Hashable, Sendable {
    /// Error or warning.
    public var severity: Severity
    /// The stable code, such as `name-too-long` or `schema-invalid`.
    public var code: String
    /// The path relative to the content root (`products/espresso.xml`), or a folder
    /// (`products`) for problems that concern no single file.
    public var file: String?
    /// The line, counting from 1, when known.
    public var line: Int?
    /// The column in characters, counting from 1, when known.
    public var column: Int?
    /// The entity the problem is in, when there is one.
    public var entity: EntityReference?
    /// What is wrong and what to do about it. Any invisible character in it, such as one
    /// quoted from a wrong value, is written as its code (`showingInvisibles`).
    public var message: String

    /// A diagnostic from its parts.
    public init(
        _ severity: Severity, _ code: String, file: String?, line: Int? = nil, column: Int? = nil,
        entity: EntityReference? = nil, message: String
    ) {
        self.severity = severity
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.entity = entity
        self.message = message.showingInvisibles
    }

    init(
        _ severity: Severity, _ code: DiagnosticCode, file: String?, position: SourcePosition? = nil,
        entity: EntityReference? = nil, message: String
    ) {
        self.init(severity, code.rawValue, file: file, line: position?.line, column: position?.column,
                  entity: entity, message: message)
    }

    /// The order diagnostics are printed in: by file, then line and column.
    static func printOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.file ?? "", a.line ?? 0, a.column ?? 0, a.severity == .error ? 0 : 1, a.code, a.message)
            < (b.file ?? "", b.line ?? 0, b.column ?? 0, b.severity == .error ? 0 : 1, b.code, b.message)
    }
}

/// A place in a content file: line and column, counting from 1.
struct SourcePosition: Hashable, Sendable {
    var line: Int
    var column: Int?
}

extension String {
    /// The text with each character that shows as nothing, or changes how what follows it is
    /// shown, written as its code in brackets: `[U+202E]`. These are control characters (a
    /// tab, a line break, U+0007), format characters (a zero-width space, a direction mark,
    /// a right-to-left override), line and paragraph separators, and spaces other than the
    /// space (a no-break space). A message quotes values
    /// from the content; a right-to-left override quoted as it is reversed the rest of the
    /// line on the terminal, and a zero-width space quoted as it is could not be seen.
    var showingInvisibles: String {
        guard unicodeScalars.contains(where: \.isInvisibleInMessages) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            if scalar.isInvisibleInMessages {
                shown += "[" + unicodeCode(scalar.value) + "]"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

extension Unicode.Scalar {
    fileprivate var isInvisibleInMessages: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        // A no-break or other space that is not U+0020 looks like one, and is not.
        case .spaceSeparator: self != " "
        default: false
        }
    }
}

/// How Unicode writes a code point: U+0007, U+202E, U+1F600.
func unicodeCode(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
