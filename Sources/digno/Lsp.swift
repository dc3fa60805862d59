import ArgumentParser
import Foundation
import LanguageServer
import LanguageServerProtocol

struct Lsp: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a content folder to an editor (a language server, LSP 3.17, on standard input and output).",
        discussion: """
            An editor starts it; it is not run by hand. The content folder is the workspace's \
            own when it holds catalog.xml, else its content/ folder, or the initialization \
            option {"content": "path"}. Diagnostics as you type (digno validate's, from the \
            unsaved text), completion, go to definition, find references, hover, rename of a \
            product's or recipe's id, quick fixes. docs/EDITING.md says how to set up Neovim, \
            Helix and VS Code. It writes no file. Exit status: 0 after the client's shutdown \
            and exit, 1 when the client went away without them.
            """)

    @Flag(help: .hidden) var stdio = false  // some clients pass --stdio; standard I/O is the only transport

    func run() throws {
        let server = ContentLanguageServer(stream: MessageStream(input: 0, output: 1))
        throw ExitCode(server.run())
    }
}
