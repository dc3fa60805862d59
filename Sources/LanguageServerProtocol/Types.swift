/// The LSP 3.17 structures the content server reads and writes, and only their fields it uses
/// (a client's other fields are ignored when decoding).

/// A place in a document: a line and a character offset in UTF-16 code units, both from 0.
public struct Position: Codable, Hashable, Sendable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

public struct Range: Codable, Hashable, Sendable {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }
}

public struct Location: Codable, Hashable, Sendable {
    public var uri: String
    public var range: Range

    public init(uri: String, range: Range) {
        self.uri = uri
        self.range = range
    }
}

public struct TextDocumentIdentifier: Codable, Hashable, Sendable {
    public var uri: String
}

public struct TextDocumentItem: Codable, Sendable {
    public var uri: String
    public var languageId: String?
    public var version: Int?
    public var text: String
}

public struct VersionedTextDocumentIdentifier: Codable, Sendable {
    public var uri: String
    public var version: Int?
}

public struct DidOpenTextDocumentParams: Codable, Sendable {
    public var textDocument: TextDocumentItem
}

/// A change: the whole text (the server asks for full synchronisation), or a range replaced.
public struct TextDocumentContentChangeEvent: Codable, Sendable {
    public var range: Range?
    public var text: String
}

public struct DidChangeTextDocumentParams: Codable, Sendable {
    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]
}

public struct DidCloseTextDocumentParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
}

public struct FileEvent: Codable, Sendable {
    public var uri: String
    /// 1 created, 2 changed, 3 deleted.
    public var type: Int
}

public struct DidChangeWatchedFilesParams: Codable, Sendable {
    public var changes: [FileEvent]
}

public struct TextDocumentPositionParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct RenameParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var newName: String
}

public struct WorkspaceFolder: Codable, Sendable {
    public var uri: String
    public var name: String?
}

public struct InitializeParams: Codable, Sendable {
    public var processId: Int?
    public var rootUri: String?
    public var rootPath: String?
    public var workspaceFolders: [WorkspaceFolder]?
    public var initializationOptions: InitializationOptions?
    public var capabilities: ClientCapabilities?

    /// The one client capability the server asks about: whether it may register a watch on
    /// files (`client/registerCapability` for `workspace/didChangeWatchedFiles`).
    public struct ClientCapabilities: Codable, Sendable {
        public var workspace: Workspace?

        public struct Workspace: Codable, Sendable {
            public var didChangeWatchedFiles: Registration?
        }

        public struct Registration: Codable, Sendable {
            public var dynamicRegistration: Bool?
        }
    }

    /// `{"content": "path"}`: the content folder, when it is not the workspace's `content/`
    /// or the workspace itself.
    public struct InitializationOptions: Codable, Sendable {
        public var content: String?
    }
}

public struct DiagnosticItem: Codable, Hashable, Sendable {
    public var range: Range
    /// 1 error, 2 warning.
    public var severity: Int
    public var code: String
    public var source: String
    public var message: String

    public init(range: Range, severity: Int, code: String, source: String, message: String) {
        self.range = range
        self.severity = severity
        self.code = code
        self.source = source
        self.message = message
    }
}

public struct PublishDiagnosticsParams: Codable, Sendable {
    public var uri: String
    public var diagnostics: [DiagnosticItem]

    public init(uri: String, diagnostics: [DiagnosticItem]) {
        self.uri = uri
        self.diagnostics = diagnostics
    }
}

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
