/// The LSP 3.17 structures of the server's answers (hover, completion, edits, code actions) and of the
/// requests that ask for references and code actions.

public struct MarkupContent: Codable, Sendable {
    public var kind = "markdown"
    public var value: String

    public init(value: String) {
        self.value = value
    }
}

public struct Hover: Codable, Sendable {
    public var contents: MarkupContent
    public var range: Range?

    public init(contents: MarkupContent, range: Range?) {
        self.contents = contents
        self.range = range
    }
}

public struct TextEdit: Codable, Hashable, Sendable {
    public var range: Range
    public var newText: String

    public init(range: Range, newText: String) {
        self.range = range
        self.newText = newText
    }
}

public struct CompletionItem: Codable, Sendable {
    public var label: String
    /// 17 file, 18 reference, 12 value.
    public var kind: Int
    public var detail: String?
    public var textEdit: TextEdit?
    public var sortText: String?

    public init(label: String, kind: Int, detail: String?, textEdit: TextEdit?, sortText: String? = nil) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.textEdit = textEdit
        self.sortText = sortText
    }
}

public struct CompletionList: Codable, Sendable {
    public var isIncomplete = false
    public var items: [CompletionItem]

    public init(items: [CompletionItem]) {
        self.items = items
    }
}

public struct OptionalVersionedTextDocumentIdentifier: Codable, Sendable {
    public var uri: String
    public var version: Int?

    public init(uri: String, version: Int?) {
        self.uri = uri
        self.version = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
        try container.encode(version, forKey: .version)  // null when unknown, as the protocol asks
    }

    enum CodingKeys: String, CodingKey {
        case uri, version
    }
}

public struct TextDocumentEdit: Codable, Sendable {
    public var textDocument: OptionalVersionedTextDocumentIdentifier
    public var edits: [TextEdit]

    public init(textDocument: OptionalVersionedTextDocumentIdentifier, edits: [TextEdit]) {
        self.textDocument = textDocument
        self.edits = edits
    }
}

/// A file renamed as part of a workspace edit.
public struct RenameFile: Codable, Sendable {
    public var kind = "rename"
    public var oldUri: String
    public var newUri: String

    public init(oldUri: String, newUri: String) {
        self.oldUri = oldUri
        self.newUri = newUri
    }
}

/// One of a workspace edit's document changes, in order.
public enum DocumentChange: Codable, Sendable {
    case edit(TextDocumentEdit)
    case rename(RenameFile)

    public init(from decoder: any Decoder) throws {
        if let rename = try? RenameFile(from: decoder), rename.kind == "rename" {
            self = .rename(rename)
        } else {
            self = .edit(try TextDocumentEdit(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .edit(let edit): try edit.encode(to: encoder)
        case .rename(let rename): try rename.encode(to: encoder)
        }
    }
}

public struct WorkspaceEdit: Codable, Sendable {
    public var documentChanges: [DocumentChange]

    public init(documentChanges: [DocumentChange]) {
        self.documentChanges = documentChanges
    }
}

public struct CodeActionParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var context: Context

    public struct Context: Codable, Sendable {
        public var diagnostics: [DiagnosticItem]
    }
}

public struct CodeAction: Codable, Sendable {
    public var title: String
    public var kind = "quickfix"
    public var diagnostics: [DiagnosticItem]
    public var isPreferred: Bool
    public var edit: WorkspaceEdit

    public init(title: String, diagnostics: [DiagnosticItem], isPreferred: Bool, edit: WorkspaceEdit) {
        self.title = title
        self.diagnostics = diagnostics
        self.isPreferred = isPreferred
        self.edit = edit
    }
}

public struct ReferenceParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}
