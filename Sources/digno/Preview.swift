import ArgumentParser
import CatalogModel
import CatalogPreview
import ChannelFormat
import Foundation

struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the app as web pages while you edit the content; every save rebuilds them.",
        usage: "digno preview [--content <folder>] [--port <port>] [--today <day>] [--host <address>] [--compare <bundle or channel folder>] [--poll]",
        discussion: """
            Builds the content into a scratch bundle (never dist/), serves the app's screens at \
            http://127.0.0.1:<port>/, and watches the folder: on every save it validates the content \
            and patches the bundle with what changed, and open pages update on the same screen. When the content has errors the pages \
            show them, as digno validate words them, over the last version that built. With \
            --compare, the pages also show what the content changes compared with that bundle (or \
            with a channel folder's current release), as digno diff does. Ctrl-C stops \
            it and removes the scratch files. Exit status: 0 stopped, 2 usage errors or a port that \
            cannot be listened on.
            """)

    @Option(help: ArgumentHelp("The content folder.", valueName: "folder"))
    var content = "content"

    @Option(help: ArgumentHelp("The port to listen on; 0 for any free one.", valueName: "port"))
    var port: UInt16 = 8400

    @Option(help: ArgumentHelp("Show on Etusivu the promotions running on this day (YYYY-MM-DD); by default today's.", valueName: "day"))
    var today: Day?

    @Option(help: ArgumentHelp("The IP address to listen on. Anything but 127.0.0.1 or ::1 shows the unpublished content to other machines.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Show what the content changes compared with this bundle, or with the current release of this channel folder (digno publish's).", valueName: "bundle or folder"))
    var compare: String?

    @Option(help: ArgumentHelp("The channel whose current release --compare takes, in a channel folder.", valueName: "name"))
    var channel = "stable"

    @Flag(help: "Look at the folder every 100 ms for saves, rather than be told by the system: for a folder on a network file system, whose changes made on another machine the system does not tell of.")
    var poll = false

    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("'\(content)' is not a folder; name the content folder with --content")
        }
        if let compare { _ = try Self.comparedBundle(compare, channel: channel) }
    }

    /// The bundle `--compare` names: the file itself, or a channel folder's current release (its
    /// head read as the publisher wrote it, for the editor's own folder: not verified).
    static func comparedBundle(_ path: String, channel: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValidationError("--compare '\(path)' is neither a bundle nor a channel folder")
        }
        guard isFolder.boolValue else { return path }
        let headPath = path + "/" + ChannelLayout.headPath(channel: channel)
        guard let data = FileManager.default.contents(atPath: headPath), let head = ChannelHead.unverified(data) else {
            throw ValidationError("--compare '\(path)' is a folder with no readable \(headPath); give a bundle, or a channel folder digno publish wrote")
        }
        let bundles = ChannelLayout.bundlesFolder + "/"
        guard head.bundle.path.hasPrefix(bundles), !head.bundle.path.contains("/.") else {
            throw ValidationError("\(headPath) names '\(head.bundle.path)', not a file under \(bundles)")
        }
        return path + "/" + head.bundle.path
    }

    func run() async throws {
        // The clock and the run's random name are decided here, not inside the library.
        let today = today
        let options = PreviewServer.Options(
            contentFolder: content, host: host, port: port, day: { today ?? Day.today() },
            run: String(UInt32.random(in: .min ... .max), radix: 36), watching: poll ? .polling : .events, compare: try compare.map { try Self.comparedBundle($0, channel: channel) })
        let server = try PreviewServer(options: options, log: say)
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            FileHandle.standardError.write(Data("warning: listening on \(host): anyone who can reach this machine can see the unpublished content\n".utf8))
        }
        try await ServedUntilStopped.run(
            start: { () async throws(PreviewServer.Failure) -> String in try await server.start() },
            stop: { await server.stop() }, discard: { server.discard() }, scratch: server.scratch,
            started: { "previewing \(content) at \($0) (Ctrl-C stops)" })
    }
}

/// A line on standard output, written at once (not held in a buffer as `print`'s are when the
/// output is a pipe), so that a script or test reading the address sees it.
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
}
