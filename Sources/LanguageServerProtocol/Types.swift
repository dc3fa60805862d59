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
