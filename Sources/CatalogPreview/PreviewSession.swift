import BundleCompiler
import CatalogModel
import CatalogSite
import Foundation

/// What the preview shows, shared by the builder's thread and the server's requests: the last
/// bundle that built, the problems of the latest build, and the number that names the latest
/// build (an open page reloads when it changes). Also the open pages' event streams.
final class PreviewSession: @unchecked Sendable {
    /// What a request renders from, taken whole under the lock.
    struct Shown: Sendable {
        /// Names the latest build, such as `k3f9-4`: this server's run, then the build's number.
        var generation: String
        /// The last version that built, if any has.
        var bundle: CatalogBundle?
        /// The latest build's problems, if it failed.
        var problems: DiagnosticsPanel?
        /// What the last version that built changes compared with `--compare`'s bundle.
        var changes: ChangesPanel?
        /// The warnings and translations of the last version that built.
        var notes: BuildNotes
    }

    // @unchecked Sendable: every stored property below is read and written under `lock`.
    private let lock = NSLock()
    /// Tells this server's builds from another's: a page left open across a restart reloads.
    private let run: String
    private var number = 0
    private var bundle: CatalogBundle?
    private var bundlePath: String?
    /// The files of the bundle shown before the current one (written whole, into a file of its
    /// own), removed at the next swap rather than at once: a request that took that bundle just
    /// before the swap may still open a new connection to it.
    private var retired: [String] = []
    private var problems: DiagnosticsPanel?
    private var changes: ChangesPanel?
    private var notes = BuildNotes()
    private var listeners: [Int: AsyncStream<Data>.Continuation] = [:]
    private var nextListener = 0
    private var isClosed = false
    private var listeningPort: UInt16 = 0

    init(run: String) {
        self.run = run
    }

    func shown() -> Shown {
        lock.withLock { Shown(generation: "\(run)-\(number)", bundle: bundle, problems: problems, changes: changes, notes: notes) }
    }

    /// The port the server listens on, which a request's `Host` must name; known once it
    /// listens (the user may ask for any free port).
    var port: UInt16 {
        get { lock.withLock { listeningPort } }
        set { lock.withLock { listeningPort = newValue } }
    }

    /// Takes a build's outcome. Returns the files no longer needed: those of the bundle retired
    /// at the swap before this one, when the bundle was written whole into a new file. When
    /// nothing a page shows has changed (a file saved unchanged), open pages are left alone.
    func record(_ outcome: PreviewBuilder.Outcome, changes newChanges: ChangesPanel? = nil) -> [String] {
        lock.withLock {
            var unused: [String] = []
            switch outcome {
            case .built(let newBundle, let path, let written, let newNotes, _):
                let same = written == .unchanged && path == bundlePath
                if same, problems == nil, newChanges == changes, newNotes == notes { return [] }
                changes = newChanges
                notes = newNotes
                if !same {
                    if path != bundlePath {
                        unused = retired
                        retired = bundlePath.map(PatchableBundle.files(ofBundle:)) ?? []
                    }
                    bundle = newBundle
                    bundlePath = path
                }
                problems = nil
            case .failed(var panel, _):
                panel.hasLastGood = bundle != nil
                if panel == problems { return [] }
                problems = panel
            }
            number += 1
            send("data: \(run)-\(number)\n\n")
            return unused
        }
    }

    /// A new open page's stream of events: first the latest build's number (so that a page
    /// built before it reloads at once), then one for every build after. The browser
    /// reconnects after 500 ms when the connection drops.
    func listen() -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(16))
        lock.withLock {
            guard !isClosed else {
                continuation.finish()
                return
            }
            let id = nextListener
            nextListener += 1
            listeners[id] = continuation
            continuation.yield(Data("retry: 500\ndata: \(run)-\(number)\n\n".utf8))
            continuation.onTermination = { [weak self] _ in
                self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// A comment line to every open page, which also finds the connections that have closed.
    func keepAlive() {
        lock.withLock { send(": keep-alive\n\n") }
    }

    /// How many pages are listening.
    var listenerCount: Int {
        lock.withLock { listeners.count }
    }

    /// Ends every stream, and any opened later, so the server can stop.
    func close() {
        let open = lock.withLock {
            isClosed = true
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for continuation in open { continuation.finish() }
    }

    /// Under `lock`.
    private func send(_ event: String) {
        let data = Data(event.utf8)
        for continuation in listeners.values { continuation.yield(data) }
    }
}
