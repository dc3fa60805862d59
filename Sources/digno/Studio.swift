import ArgumentParser
import CatalogModel
import CatalogPreview
import CatalogStudio
import Crypto
import Foundation

struct Studio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Edit the content in your browser, with forms in place of XML and the app's screen beside each.",
        usage: "digno studio [--content <folder>] [--port <port>] [--today <day>] [--compare <bundle or channel folder>] [--no-browser]",
        discussion: """
            Serves the studio at http://127.0.0.1:<port>/_studio/ (on this machine only): every \
            product, recipe, retailer, promotion and tab of the content folder, filtered by name as \
            you type, each with a form of its texts in every declared language, checked as you type \
            as digno validate checks (the rules across files included), and the app's screen beside \
            it as digno preview shows it. Saving writes only the changed elements of the file, as a \
            careful editor would by hand; a file changed on disk meanwhile is merged field by field, \
            and where both changed one field you choose. Saving with errors is allowed; the content \
            cannot be released until they are fixed. A form changed and not saved is kept as you type \
            (in $XDG_STATE_HOME/digno/drafts, else ~/.local/state/digno/drafts) and offered back when \
            it opens again. It opens in your browser once the content is \
            checked (--no-browser: it does not). Ctrl-C stops it. Exit status: 0 stopped, 2 usage \
            errors or a port that cannot be listened on.
            """)

    @Option(help: ArgumentHelp("The content folder.", valueName: "folder"))
    var content = "content"

    @Option(help: ArgumentHelp("The port to listen on; 0 for any free one.", valueName: "port"))
    var port: UInt16 = 8500

    @Option(help: ArgumentHelp("Judge promotions and show Etusivu as on this day (YYYY-MM-DD); by default today.", valueName: "day"))
    var today: Day?

    @Option(help: ArgumentHelp("Mark as outdated each translation whose default language's text changed since this release's bundle, or the current release of this channel folder.",
                               valueName: "bundle or folder"))
    var compare: String?

    @Option(help: ArgumentHelp("The channel whose current release --compare takes, in a channel folder.", valueName: "name"))
    var channel = "stable"

    @Flag(help: "Do not open the studio in your browser (say its address only).")
    var noBrowser = false

    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("'\(content)' is not a folder; name the content folder with --content")
        }
        if let compare { _ = try Preview.comparedBundle(compare, channel: channel) }
    }

    func run() async throws {
        // The clock, the run's name and the session's token are decided here, not in the library.
        let today = today
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        var options = StudioServer.Options(contentFolder: content, port: port, day: { today ?? Day.today() },
                                           run: String(UInt32.random(in: .min ... .max), radix: 36), token: token,
                                           draftsFolder: Self.draftsFolder(content: content, environment: ProcessInfo.processInfo.environment))
        options.compare = try compare.map { try Preview.comparedBundle($0, channel: channel) }
        let server = try StudioServer(options: options, log: say)
        let content = content
        try await ServedUntilStopped.run(
            start: { () async throws(PreviewServer.Failure) -> String in try await server.start() },
            stop: { await server.stop() }, discard: { server.discard() }, scratch: server.scratch,
            started: { "studio for \(content) at \($0) (Ctrl-C stops)" },
            then: { [noBrowser] address in if !noBrowser { say(BrowserOpening.open(address)) } })
    }

    /// Where the forms changed and not saved are kept: the user's state folder (XDG's
    /// `$XDG_STATE_HOME`, else `~/.local/state`), `digno/drafts/`, then a folder for this
    /// content folder, named by its full path's SHA-256: another clone's drafts are its own.
    static func draftsFolder(content: String, environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        let path = URL(fileURLWithPath: content).standardizedFileURL.resolvingSymlinksInPath().path
        let name = SHA256.hash(data: Data(path.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return state + "/digno/drafts/" + name
    }
}
