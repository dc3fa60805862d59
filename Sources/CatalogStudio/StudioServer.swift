import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogPreview
import Foundation

/// `digno studio`: the editors' own tool in the browser. Forms for every entity of the content
/// folder, made from the one description of the fields, checked as they are typed and saved
/// into the files as an editor would write them; beside each form the app's screen, from the
/// preview this server is built on (`PreviewServer` with a `PreviewAddition`), which patches its
/// bundle at every save. On 127.0.0.1 only.
package final class StudioServer: Sendable {
    package struct Options: Sendable {
        package var contentFolder: String
        /// 0 for any free port.
        package var port: UInt16
        package var day: @Sendable () -> Day?
        /// Names this run, as the preview's (any text that differs from run to run).
        package var run: String
        /// The session's token, which every write must carry: random, made by the command.
        package var token: String
        /// Where the forms changed and not saved are kept (`StudioDrafts`): outside the content
        /// folder, and kept across runs (the command's is in the user's state folder).
        package var draftsFolder: String
        /// A release's bundle, or a channel folder: a translation whose default language's text
        /// changed since is marked outdated.
        package var compare: String?

        package init(contentFolder: String, port: UInt16 = 8500, day: @escaping @Sendable () -> Day?, run: String, token: String, draftsFolder: String) {
            self.contentFolder = contentFolder
            self.port = port
            self.day = day
            self.run = run
            self.token = token
            self.draftsFolder = draftsFolder
        }
    }

    package let options: Options
    private let preview: PreviewServer
    let workspace: StudioWorkspace
    /// Where photos uploaded are written as they arrive: a folder of this run's, removed at stop.
    private let spool: String

    package init(options: Options, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.options = options
        let workspace = StudioWorkspace(contentFolder: options.contentFolder, day: options.day)
        self.workspace = workspace
        spool = try Self.makeSpool()
        var previewOptions = PreviewServer.Options(contentFolder: options.contentFolder, host: "127.0.0.1", port: options.port, day: options.day, run: options.run)
        let git = StudioGit(contentFolder: options.contentFolder)
        var pages = try StudioPages()
        pages.branch = { git.branch() }
        previewOptions.addition = StudioResponder(workspace: workspace, pages: pages, token: options.token,
                                                  drafts: StudioDrafts(folder: options.draftsFolder), spool: spool, git: git)
        previewOptions.reported = { workspace.update($0) }
        previewOptions.listensOnceChecked = true
        previewOptions.compare = options.compare
        preview = try PreviewServer(options: previewOptions, log: log)
        workspace.compared.withLock { $0 = preview.comparedRelease }
    }

    /// Checks and builds the content once, starts listening, and returns the studio's address,
    /// such as `http://127.0.0.1:8500/_studio/`.
    package func start() async throws(PreviewServer.Failure) -> String {
        try await preview.start() + "_studio/"
    }

    package func stop() async {
        await preview.stop()
        try? FileManager.default.removeItem(atPath: spool)
    }

    /// Removes the scratch folder when `start` failed or was never called.
    package func discard() {
        preview.discard()
        try? FileManager.default.removeItem(atPath: spool)
    }

    /// A new folder, readable by this user alone, in the system's temporary folder.
    private static func makeSpool() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/digno-studio-uploads-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot make a folder for uploads in \(NSTemporaryDirectory())"])
        }
        return String(cString: made)
    }

    /// Where the preview's builds go, removed on stop.
    package var scratch: URL { preview.scratch }
}
