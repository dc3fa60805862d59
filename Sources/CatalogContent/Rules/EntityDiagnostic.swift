import CatalogModel

/// How serious a problem is: an error fails validation, a warning does not.
package enum Severity: String, Hashable, Sendable, Codable, Comparable {
    /// The content breaks a rule; no bundle may be built from it.
    case error
    /// Worth a look, but the content is still valid.
    case warning

    package static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .error && rhs == .warning
    }
}

/// A problem found in a catalogue at an entity and one of its fields, as the rules (and the
/// compiler's image and host checks) name it: the compiler places it in a file (`Diagnostic`),
/// from where it read the field's element.
package struct EntityDiagnostic: Hashable, Sendable {
    /// Error or warning.
    package var severity: Severity
    /// The stable code, such as `name-too-long`.
    package var code: DiagnosticCode
    /// The entity the problem is in.
    package var entity: EntityReference
    /// The field of the entity, when the problem is in one; nil for the entity as a whole.
    package var field: FieldPath?
    /// The attribute of the field's element the problem is in, when it is placed there rather
    /// than at the element (an image's `src`); nil for the rules' problems.
    package var attribute: String?
    /// The language of the text the problem is in, when it is a translation (the compiler
    /// places the problem at that translation's element); for `translation-missing`, the
    /// language the text lacks (placed at the text, as there is no translation to point at);
    /// nil for the default language's.
    package var language: LanguageCode?
    /// What is wrong and what to do about it.
    package var message: String
    /// For one of two entities given the same id or name: the other one, which the message
    /// names; nil for any other problem.
    package var clash: Clash?

    /// A diagnostic from its parts.
    package init(
        severity: Severity, code: DiagnosticCode, entity: EntityReference, field: FieldPath?, attribute: String? = nil,
        language: LanguageCode? = nil, message: String
    ) {
        self.severity = severity
        self.code = code
        self.entity = entity
        self.field = field
        self.attribute = attribute
        self.language = language
        self.message = message
    }

    /// Two diagnostics are equal when what they say is: `clash` is how the compiler words the
    /// other entity, not part of what is wrong.
    package static func == (a: EntityDiagnostic, b: EntityDiagnostic) -> Bool {
        (a.severity, a.code, a.entity, a.field, a.attribute) == (b.severity, b.code, b.entity, b.field, b.attribute)
            && (a.language, a.message) == (b.language, b.message)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(severity)
        hasher.combine(code)
        hasher.combine(entity)
        hasher.combine(field)
        hasher.combine(attribute)
        hasher.combine(language)
        hasher.combine(message)
    }

    /// The entity that was given an id or a name first, when another is given it too, and how
    /// the message names it. The catalogue names it by kind and id, or by its place in its
    /// list; the compiler, which knows files and lines, names it by its file or line instead.
    package struct Clash: Hashable, Sendable {
        /// The entity given the id or name first.
        package var other: EntityReference
        /// Its field to point at: its element in a list, such as `promotion[1]`.
        package var field: FieldPath?
        /// The message before the other entity's name and after it.
        package var lead: String
        package var rest: String

        /// The message, naming the other entity as `name`.
        package func message(naming name: String) -> String {
            lead + name + rest
        }
    }
}
