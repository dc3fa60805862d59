import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import LanguageServerProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `digno lsp`: a language server (LSP 3.17 over standard input and output) for a content
/// folder. Its diagnostics are `digno validate`'s, same codes, places and words, from the
/// editor's unsaved texts (`ContentValidator.overlays`) and the files on disk, checked again
/// after each change once the messages that came meanwhile are read (typing fast checks once).
/// It never writes a file: renames and fixes go to the editor as workspace edits.
///
/// One thread reads messages into a queue; the server's own thread answers them in order.
package final class ContentLanguageServer: @unchecked Sendable {
    let stream: MessageStream
    let encoder = JSONEncoder()
    /// The content folder, absolute, once initialized.
    var contentFolder = ""
    /// The texts the editor has open, by URI, with their versions.
    var documents: [String: (text: String, version: Int?)] = [:]
    /// The last check's catalogue (for completion and hover), as the load cache keeps it: no
    /// other copy is held, so that a check replaces the entities that changed in place, not
    /// in a copy of every one.
    var catalog: Catalog? { loadCache.catalog }
    /// The last check's diagnostics by URI.
    var published: [String: [DiagnosticItem]] = [:]
    var needsCheck = false
    /// The files the last check parsed: a keystroke parses the file it changed.
    let loadCache = LoadCache()
    var shutdownRequested = false
    var initialized = false
    /// Whether the client takes a watch on files registered by the server.
    var watchesFiles = false
    /// Whether that watch covers the content folder: the patterns are relative to the
    /// workspace, and a content folder given outside it (`initializationOptions.content`) is
    /// not watched, so it is listed at every check.
    var watchesContent = false
    /// Whether something may have changed on disk since the last check: always, unless the
    /// client watches the files for us; then after a watched change, a save or a close.
    var folderMayHaveChanged = true
    /// When a check last listed the folder and stamped its files.
    var lastLook: ContinuousClock.Instant?
    /// However quiet the client's watching, the folder is listed and its files stamped again
    /// after this long: a change it missed (an editor that watches only some files, events
    /// dropped under load) is seen within it.
    static let lookAgainAfter = Duration.seconds(10)
    private var nextRequest = 1

    private let queue = MessageQueue()

    package init(stream: MessageStream) {
        self.stream = stream
        encoder.outputFormatting = [.withoutEscapingSlashes]
    }

    /// Serves until the client sends `exit` or goes away; the process's exit status.
    package func run() -> Int32 {
        let reader = Thread { [queue, stream] in
            while true {
                do {
                    queue.push(.message(try stream.read()))
                } catch {
                    queue.push(.ended(error))
                    return
                }
            }
        }
        reader.start()
        while true {
            let event = needsCheck ? (queue.pop(waiting: false) ?? .idle) : queue.pop(waiting: true) ?? .idle
            switch event {
            case .idle:
                check()
            case .ended:
                // The client went away without `exit`: nothing is left to serve.
                return shutdownRequested ? 0 : 1
            case .message(let data):
                if let status = handle(data) { return status }
            }
        }
    }

    /// Answers one message; an exit status when it was `exit`.
    private func handle(_ data: Data) -> Int32? {
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(MessageHeader.self, from: data) else {
            send(Response(id: nil, error: ResponseError(code: ResponseError.parseError, message: "the message is not JSON-RPC")))
            return nil
        }
        guard let method = header.method else { return nil }  // a response to our own request
        if method == "exit" { return shutdownRequested ? 0 : 1 }
        guard initialized || method == "initialize" else {
            if let id = header.id { send(Response(id: id, error: ResponseError(code: ResponseError.serverNotInitialized, message: "initialize first"))) }
            return nil
        }
        do {
            switch method {
            case "initialize": try respond(header.id, data, initialize)
            case "initialized": registerWatchers()
            case "shutdown":
                shutdownRequested = true
                send(Response(id: header.id, result: Ignored()))
            case "textDocument/didOpen":
                let params = try decoder.decode(Incoming<DidOpenTextDocumentParams>.self, from: data).params
                documents[params.textDocument.uri] = (params.textDocument.text, params.textDocument.version)
                needsCheck = true
            case "textDocument/didChange":
                let params = try decoder.decode(Incoming<DidChangeTextDocumentParams>.self, from: data).params
                var text = documents[params.textDocument.uri]?.text ?? ""
                for change in params.contentChanges {
                    text = change.range.map { Self.replacing($0, in: text, with: change.text) } ?? change.text
                }
                documents[params.textDocument.uri] = (text, params.textDocument.version)
                needsCheck = true
            case "textDocument/didClose":
                let params = try decoder.decode(Incoming<DidCloseTextDocumentParams>.self, from: data).params
                documents[params.textDocument.uri] = nil
                needsCheck = true
                folderMayHaveChanged = true
            case "textDocument/didSave", "workspace/didChangeWatchedFiles":
                needsCheck = true
                folderMayHaveChanged = true
            case "textDocument/definition": try respond(header.id, data, definition)
            case "textDocument/references": try respond(header.id, data, references)
            case "textDocument/hover": try respond(header.id, data, hover)
            case "textDocument/completion": try respond(header.id, data, completion)
            case "textDocument/rename": try respond(header.id, data, rename)
            case "textDocument/codeAction": try respond(header.id, data, codeActions)
            default:
                if let id = header.id { send(Response(id: id, error: ResponseError(code: ResponseError.methodNotFound, message: "\(method) is not served"))) }
            }
        } catch let error as ResponseError {
            if let id = header.id { send(Response(id: id, error: error)) }
        } catch {
            if let id = header.id { send(Response(id: id, error: ResponseError(code: ResponseError.invalidParams, message: "\(error)"))) }
        }
        return nil
    }

    /// Decodes a request's params, answers it with `answer`'s result.
    private func respond<Params: Decodable, Result: Encodable>(_ id: RequestID?, _ data: Data, _ answer: (Params) throws -> Result) throws {
        let params = try JSONDecoder().decode(Incoming<Params>.self, from: data).params
        send(Response(id: id, result: try answer(params)))
    }

    func send(_ message: some Encodable) {
        guard let data = try? encoder.encode(message) else { return }
        stream.write(data)
    }

    // MARK: Start

    private func initialize(_ params: InitializeParams) -> InitializeResult {
        let root = params.workspaceFolders?.first.flatMap { Self.path(ofURI: $0.uri) }
            ?? params.rootUri.flatMap(Self.path(ofURI:)) ?? params.rootPath ?? FileManager.default.currentDirectoryPath
        if let given = params.initializationOptions?.content {
            contentFolder = given.hasPrefix("/") ? given : root + "/" + given
        } else if FileManager.default.fileExists(atPath: root + "/catalog.xml") {
            contentFolder = root
        } else {
            contentFolder = root + "/content"
        }
        contentFolder = URL(fileURLWithPath: contentFolder).standardizedFileURL.path
        if let parent = params.processId { watchParent(Int32(parent)) }
        watchesFiles = params.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration == true
        let workspace = URL(fileURLWithPath: root).standardizedFileURL.path
        watchesContent = watchesFiles && (contentFolder == workspace || contentFolder.hasPrefix(workspace.hasSuffix("/") ? workspace : workspace + "/"))
        initialized = true
        needsCheck = true
        return InitializeResult()
    }

    /// Asks the client to say when any file changes on disk (created, deleted, renamed by
    /// another program: content files, pictures, the schema, and files that do not belong,
    /// which the validator warns of); each such notice checks again, listing the folder.
    private func registerWatchers() {
        // Without it, every check lists the folder anew anyway: a change is seen at the next edit.
        guard watchesFiles else { return }
        struct Registration: Encodable {
            var id = "digno-content-files"
            var method = "workspace/didChangeWatchedFiles"
            var registerOptions = Options()
            struct Options: Encodable {
                var watchers = [Watcher(globPattern: "**/*")]
            }
            struct Watcher: Encodable { var globPattern: String }
        }
        struct Registrations: Encodable { var registrations = [Registration()] }
        nextRequest += 1
        send(OutgoingRequest(id: .string("digno-\(nextRequest)"), method: "client/registerCapability", params: Registrations()))
    }

    /// Ends the server when the editor that started it is gone (LSP's `processId`), so that
    /// no server outlives its client.
    private func watchParent(_ process: Int32) {
        let thread = Thread {
            while true {
                sleep(3)
                if kill(process, 0) != 0 && errno == ESRCH { exit(1) }
            }
        }
        thread.start()
    }
}

