import CatalogContent

/// Everything the compiler learned from one content file.
struct LoadedFile: Sendable {
    var file: ContentFile
    /// The entity, when the file was readable, well-formed and valid against the schema.
    var entity: ParsedEntity?
    /// The id the root element declares, and where, for checking it against the file name.
    var declaredID: String?
    var rootPosition: SourcePosition?
    /// SHA-256 of the file's text in NFC with its line ends made LF (CR LF and lone CR), for
    /// the content digest.
    var sha256: String?
    /// How the root element names the content's schema for editors' tools, when the file
    /// could be read that far (`ContentSchema`).
    var schemaReference: ContentSchema.Reference?
    /// Where the root start tag is, when it does not name the schema as it should.
    var schemaReferencePosition: SourcePosition?
    var diagnostics: [Diagnostic] = []
}

extension LoadedFile {
    /// This file with an error about the whole file added.
    func failing(_ code: DiagnosticCode, _ position: SourcePosition?, _ message: String) -> LoadedFile {
        var failed = self
        failed.diagnostics.append(Diagnostic(.error, code, file: file.path, position: position, entity: file.entity, message: message))
        return failed
    }
}
