import BundleCompiler
import Foundation

/// What the reading thread hands the server's thread.
enum ServerEvent {
    case message(Data)
    case ended(any Error)
    /// Nothing waiting: time to check.
    case idle
}

/// The messages read and not yet answered.
final class MessageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [ServerEvent] = []

    func push(_ event: ServerEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    /// The first event, waiting for one when `waiting`; nil when none is there and not waiting.
    func pop(waiting: Bool) -> ServerEvent? {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty {
            guard waiting else { return nil }
            condition.wait()
        }
        return events.removeFirst()
    }
}

/// The server's capabilities, as `initialize` answers.
struct InitializeResult: Encodable {
    var capabilities = Capabilities()
    var serverInfo = ServerInfo()

    struct ServerInfo: Encodable {
        var name = "digno"
        var version = CompilerVersion.number
    }

    struct Capabilities: Encodable {
        var textDocumentSync = Sync()
        var completionProvider = Completion()
        var definitionProvider = true
        var referencesProvider = true
        var hoverProvider = true
        var renameProvider = true
        var codeActionProvider = CodeActions()

        struct Sync: Encodable {
            var openClose = true
            /// 1: the whole text on each change.
            var change = 1
            var save = true
        }

        struct Completion: Encodable {
            // A value's quote and a path's slash; `<` for an element's name, a space for an
            // attribute's.
            var triggerCharacters = ["\"", "/", "<", " "]
        }

        struct CodeActions: Encodable {
            var codeActionKinds = ["quickfix"]
        }
    }
}
