import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogSite
import FlyingFox
import FlyingSocks
import Foundation

/// `digno preview`: builds the content into a scratch bundle, serves the app's screens as web
/// pages, and on every save validates and patches its bundle; open pages update, staying on their
/// screen, and show the errors over the last version that built.
package final class PreviewServer: @unchecked Sendable {
    package struct Options: Sendable {
        package var contentFolder: String
        /// The address to listen on; 127.0.0.1 unless the user chose otherwise.
        package var host: String
        /// 0 for any free port.
        package var port: UInt16
        /// The day whose promotions Etusivu shows and builds judge, asked at each build and
        /// page: `--today`'s, or the clock's (the command decides; nil is the bundle's release
        /// date).
        package var day: @Sendable () -> Day?
        /// Names this run of the server in the pages' build numbers, so that a page left open
        /// across a restart reloads: any text that differs from run to run.
        package var run: String
        /// How the preview hears a save: from the kernel (inotify), or by looking at the folder
        /// every `pollInterval` (`--poll`, and where inotify cannot be had).
        package var watching: Watching
        /// How often the content folder is looked at, when it is looked at.
        package var pollInterval: Duration
        /// A bundle to compare each build with (`--compare`): the pages then show what the
        /// content changes, as `digno diff` does.
        package var compare: String?
        /// How long a request may take and how many connections are served at once.
        var limits = PreviewListener.Limits()
        /// What a server built on the preview answers before it (`digno studio`), with the
        /// bodies it allows.
        package var addition: (any PreviewAddition)?
        /// Told each check's report, valid or not, on the thread that made it: what a server
        /// built on the preview shows of the content (its catalogue, its problems).
        package var reported: @Sendable (ValidationReport) -> Void = { _ in }
        /// True: `start` returns the address once the content is checked (`reported` told),
        /// and the first bundle is written after, on the watching thread before it watches,
        /// the pages saying meanwhile that it is being built. The studio's: its overview and
        /// forms need the check, not the bundle. False: once the first build is done.
        package var listensOnceChecked = false
        /// Called on the rendition maker's thread before it makes any: for a test to see the
        /// stand-ins before the renditions replace them.
        var beforeMakingRenditions: @Sendable () -> Void = {}

        package init(contentFolder: String, host: String = "127.0.0.1", port: UInt16 = 8400, day: @escaping @Sendable () -> Day?,
                     run: String, watching: Watching = .events, pollInterval: Duration = .milliseconds(100), compare: String? = nil) {
            self.contentFolder = contentFolder
            self.watching = watching
            self.host = host
            self.port = port
            self.day = day
            self.run = run
            self.pollInterval = pollInterval
            self.compare = compare
        }
    }

    /// How the preview hears a save.
    package enum Watching: Sendable, Equatable {
        /// From the kernel (`FolderEvents`), or by looking where it cannot be had.
        case events
        /// By looking at the folder (`ContentSnapshot`): for a folder on a network file system,
        /// whose changes made on another machine the kernel does not tell of.
        case polling
    }

    /// Why the preview did not start; one made from another error carries it (`cause`).
    package enum Failure: CausedError, CustomStringConvertible {
        case scratch(ErrorCause)
        case address(String)
        case listening(host: String, port: UInt16, cause: ErrorCause)
        case templates(ErrorCause)
        /// `stop` was called before `start` had finished.
        case stopped

        package var description: String {
            switch self {
            case .scratch(let reason): "cannot make the preview's scratch folder: \(reason)"
            case .address(let host): "'\(host)' is not an IP address to listen on; use 127.0.0.1 (the default), ::1 or 0.0.0.0"
            case .listening(let host, let port, let cause):
                "cannot listen on \(host):\(port): \(cause); choose another port with --port, or --port 0 for any free one"
            case .templates(let reason): "a template in Sources/CatalogSite/Templates does not parse: \(reason)"
            case .stopped: "stopped before it started"
            }
        }

        package var cause: ErrorCause? {
            switch self {
            case .scratch(let cause), .listening(_, _, let cause), .templates(let cause): cause
            case .address, .stopped: nil
            }
        }
    }

    package let options: Options
    /// Where the builds go: a new folder under the system's temporary folder, removed on stop.
    package let scratch: URL
    let session: PreviewSession
    private let builder: PreviewBuilder

    /// The release `Options.compare` names, read once (nil without one, or when it cannot be
    /// read): what `translation-outdated` is judged against.
    package var comparedRelease: (catalog: Catalog, release: String)? { builder.since }
    private let address: any SocketAddress
    // Under `lock`: whether it is stopping, the listener and the watcher's thread.
    private let lock = NSLock()
    private var isStopping = false
    private var listener: PreviewListener?
    private var keepAliveTask: Task<Void, Never>?
    private var watcher: Thread?
    /// The thread that makes the renditions of photos built with their stand-ins
    /// (`PreviewBuilder.deferral`); woken by `renditionsWanted` after such a build.
    private var renditionMaker: Thread?
    private let renditionsWanted = DispatchSemaphore(value: 0)
    private let renditionMakerDone = DispatchSemaphore(value: 0)
    /// Under `lock`: renditions were made since the last build began, which a build takes in.
    private var renditionsMade = false
    /// The one stop, which a second `stop` waits for.
    private var stopping: Task<Void, Never>?
    /// Signalled by `stop` to end the watcher's pause at once; and by the watcher when it ends.
    private let wake = DispatchSemaphore(value: 0)
    private let watcherDone = DispatchSemaphore(value: 0)
    /// The kernel's word of each change, when the preview hears it so (`Options.watching`);
    /// nil while it looks instead. Made before the first build, so a save during it is heard.
    private var events: FolderEvents?

    /// Told what each build did, for the terminal: a line when it built (and its warnings,
    /// when they changed), the problems as `digno validate` prints them when it did not.
    private let log: @Sendable (String) -> Void

    package init(options: Options, log: @escaping @Sendable (String) -> Void = { _ in }) throws(Failure) {
        self.options = options
        self.log = log
        let host = options.host == "localhost" ? "127.0.0.1" : options.host
        do {
            address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: options.port) : try sockaddr_in.inet(ip4: host, port: options.port)
        } catch {
            throw .address(options.host)
        }
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("digno-preview-XXXXXX").path.utf8CString)
        guard mkdtemp(&template) != nil else { throw .scratch(ErrorCause(errno: errno)) }
        scratch = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), isDirectory: true)
        var builder = PreviewBuilder(contentFolder: options.contentFolder, scratch: scratch, day: options.day)
        builder.reported = options.reported
        // The compared release's catalogue, read once, for translation-outdated at every build.
        // One that cannot be read is said by the changes panel at every build.
        if let compare = options.compare, let bundle = try? CatalogBundle(path: compare, trust: InMemoryTrustStore()),
           let catalog = try? bundle.catalog() {
            builder.since = (catalog, bundle.release.releaseVersion)
        }
        self.builder = builder
        session = PreviewSession(run: options.run)
    }

    /// Builds the content once, starts listening and watching, and returns the address pages
    /// are served at, such as `http://127.0.0.1:8400/`.
    package func start() async throws(Failure) -> String {
        let renderer: SiteRenderer
        do { renderer = try SiteRenderer(links: SiteLinks(style: .server)) } catch { throw .templates(ErrorCause(error)) }
        // The folder as it is before the first build: a file saved during it is a change.
        let heard = options.watching == .events ? FolderEvents(root: options.contentFolder) : nil
        lock.withLock { events = heard }
        let before = heard == nil ? ContentSnapshot.take(options.contentFolder) : ContentSnapshot()
        if lock.withLock({ isStopping }) { throw .stopped }
        let firstCheck: (checked: PreviewBuilder.Checked, time: Duration)?
        if options.listensOnceChecked {
            let started = ContinuousClock.now
            let checked = builder.check(defers: false)
            firstCheck = (checked, ContinuousClock.now - started)
        } else {
            buildOnce(defers: false)
            firstCheck = nil
        }
        if lock.withLock({ isStopping }) {
            // Stopped during the first build, which may have written after `stop` cleaned up.
            removeScratch()
            throw .stopped
        }
        let listener: PreviewListener
        do {
            var limits = options.limits
            if let addition = options.addition {
                limits.body = { addition.bodyLimit($0, $1) }
                limits.spool = { addition.spoolFolder($0, $1, $2) }
            }
            listener = try PreviewListener(address: address, limits: limits)
        } catch {
            // A socket call's failure is the system's error number (98: the address is in use).
            if case .failed(let call, let number, let words) = error as? SocketError {
                throw .listening(host: options.host, port: options.port, cause: ErrorCause(code: "errno:\(number)", message: "\(call): \(words)"))
            }
            throw .listening(host: options.host, port: options.port, cause: ErrorCause(error))
        }
        let port = listener.port ?? options.port
        session.port = port
        let session = session
        let stoppedMeanwhile = lock.withLock {
            guard !isStopping else { return true }
            self.listener = listener
            listener.start(PreviewResponder(session: session, renderer: renderer, day: options.day, addition: options.addition))
            keepAliveTask = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    session.keepAlive()
                }
            }
            let thread = Thread { [self] in
                // The first bundle, when the address was said at its check: written before
                // anything else is built, so that builds are shown in their order.
                if let firstCheck { buildOnce(defers: false, checked: firstCheck.checked, checkTime: firstCheck.time) }
                watch(from: before)
            }
            thread.name = "digno preview: watching \(options.contentFolder)"
            watcher = thread
            thread.start()
            let maker = Thread { [self] in makeRenditions() }
            maker.name = "digno preview: making renditions"
            renditionMaker = maker
            maker.start()
            return false
        }
        if stoppedMeanwhile {
            await listener.stop()
            removeScratch()
            throw .stopped
        }
        let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(shownHost):\(port)/"
    }

    /// Stops watching and serving, ends the open pages' event streams, and removes the scratch
    /// folder. A second call waits for the first to finish.
    package func stop() async {
        let stop = lock.withLock {
            if let stopping { return stopping }
            isStopping = true
            let stop = Task { [self] in await stopOnce() }
            stopping = stop
            return stop
        }
        await stop.value
    }

    private func stopOnce() async {
        let (listener, keepAlive, thread, events, maker) = lock.withLock { (self.listener, keepAliveTask, watcher, self.events, renditionMaker) }
        wake.signal()
        events?.interrupt()
        renditionsWanted.signal()
        // With no listener it was stopped during the first build: `start` sees that and gives up.
        if let listener {
            keepAlive?.cancel()
            session.close()
            await listener.stop()
        }
        // The watcher ends after the build it may be running, the rendition maker after the
        // picture it may be making; waited for off Swift's threads.
        for (started, done) in [(thread != nil, watcherDone), (maker != nil, renditionMakerDone)] where started {
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    done.wait()
                    finished.resume()
                }
            }
        }
        removeScratch()
    }

    /// How many connections are being served.
    var openConnections: Int {
        lock.withLock { listener }?.openConnections ?? 0
    }

    /// Closes the preview's bundle and removes the scratch folder it is in.
    private func removeScratch() {
        builder.bundle.close()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Removes the scratch folder when `start` failed or was never called.
    package func discard() {
        lock.withLock { isStopping = true }
        removeScratch()
    }

    // MARK: Building

    /// One build of the content as it is now, shown once it is done. `changed`: the files the
    /// kernel said changed since the last build, the only ones read again; nil, every file
    /// stamped.
    /// `defers`: a photo not in the rendition cache is shown by its stand-in and its renditions
    /// made afterwards (every build but the first).
    /// `checked`: the check already made of it (`Speculation`), which took `checkTime`.
    private func buildOnce(changed: Set<String>? = nil, defers: Bool = true, checked: PreviewBuilder.Checked? = nil,
                           checkTime: Duration = .zero) {
        let started = ContinuousClock.now - checkTime
        if checked == nil {
            // Renditions made from here on are this build's or the next's to take in.
            lock.withLock { renditionsMade = false }
        }
        let outcome = checked.map(builder.build) ?? builder.build(changed: changed, defers: defers)
        if builder.deferral.isWaiting { renditionsWanted.signal() }
        let elapsed = ContinuousClock.now - started
        let before = session.shown()
        var changes: ChangesPanel?
        if let compare = options.compare, case .built(_, let path, _, _, _) = outcome {
            changes = Self.changesPanel(from: compare, to: path)
        }
        for file in session.record(outcome, changes: changes) {
            try? FileManager.default.removeItem(atPath: file)
        }
        let shownChanged = session.shown().generation != before.generation
        switch outcome {
        case .built(_, _, let written, let notes, let warnings):
            switch written {
            case _ where !shownChanged: log("built \(options.contentFolder): nothing shown changed")
            case .patched(let entities, _, _):
                log("built \(options.contentFolder) in \(elapsed.milliseconds) ms (\(entities == 0 ? "its release" : BundleBuilder.counted(entities, "entity", plural: "entities")) patched)"
                    + Self.standInNote(notes.standIns) + "; open pages update")
            case .rebuilt(let reason?):
                log("built \(options.contentFolder) in \(elapsed.milliseconds) ms, the preview's bundle written whole: \(reason)"
                    + Self.standInNote(notes.standIns) + "; open pages update")
            case .rebuilt(nil), .unchanged:
                log("built \(options.contentFolder) in \(elapsed.milliseconds) ms" + Self.standInNote(notes.standIns) + "; open pages update")
            }
            // The warnings as digno validate prints them, when they are not those said last.
            if !warnings.isEmpty, before.problems != nil || notes.warnings != before.notes.warnings {
                log(warnings + "the pages show these in their warnings panel")
            }
        case .failed(_, let text):
            if shownChanged { log(text + "the pages show these over the last version that built") }
        }
    }

    /// What a build's terminal line says of its stand-ins: "" when it has none.
    static func standInNote(_ standIns: [String: StandIn.Kind]) -> String {
        guard !standIns.isEmpty else { return "" }
        let thumbnails = standIns.values.filter { $0 == .thumbnail }.count
        if standIns.count == 1 { return ", a photo shown by \(thumbnails == 1 ? "its thumbnail" : "a placeholder") until its renditions are made" }
        return ", \(standIns.count) photos shown by their thumbnails (\(thumbnails)) or placeholders (\(standIns.count - thumbnails)) until their renditions are made"
    }

    /// The rendition maker's thread: after a build that left photos to it, makes their
    /// renditions one after another (into the rendition cache), then has the watcher build
    /// again, which takes them from there and patches them in.
    private func makeRenditions() {
        defer { renditionMakerDone.signal() }
        while true {
            renditionsWanted.wait()
            if lock.withLock({ isStopping }) { return }
            options.beforeMakingRenditions()
            let started = ContinuousClock.now
            let made = builder.deferral.renderWaiting { !lock.withLock { isStopping } }
            guard made > 0, !lock.withLock({ isStopping }) else { continue }
            log("made the renditions of \(BundleBuilder.counted(made, "photo", plural: "photos")) in \((ContinuousClock.now - started).milliseconds) ms")
            let events = lock.withLock {
                renditionsMade = true
                return self.events
            }
            events?.interrupt()
            wake.signal()
        }
    }

    /// Whether a path heard changed may be checked at once: a content file (XML, or under
    /// `images/`), or one no longer there.
    private func isSettledName(_ path: String) -> Bool {
        path.hasSuffix(".xml") || path.hasPrefix("images/") || !FileManager.default.fileExists(atPath: options.contentFolder + "/" + path)
    }

    /// Whether renditions were made since the last build began; cleared.
    private func takeRenditionsMade() -> Bool {
        lock.withLock {
            defer { renditionsMade = false }
            return renditionsMade
        }
    }

    /// How many changes the pages list.
    static let changesShown = 200

    /// What the build at `path` changes compared with the bundle at `compare`, for the pages.
    static func changesPanel(from compare: String, to path: String) -> ChangesPanel {
        do {
            let comparison = try ReleaseSide.compare(compare, with: path, newIsPatched: true)
            let changes = comparison.changes
            // The first entries only: every page carries the panel.
            var entries = changes.entities.prefix(changesShown).map { entity in
                ChangesPanel.Entry(change: entity.change.rawValue, kind: entity.kind.rawValue, id: entity.slug, name: entity.name,
                                   fields: entity.fields.map { ChangesText.line($0, pictureNames: comparison.pictureNames) })
            }
            if changes.entities.count > changesShown {
                entries.append(ChangesPanel.Entry(change: "more", kind: "and \(changes.entities.count - changesShown) more", id: "",
                                                  name: "digno diff shows them all", fields: []))
            }
            return ChangesPanel(against: "\(compare) (\(changes.old.releaseVersion))", summary: ChangesText.summary(changes), entries: entries)
        } catch {
            return ChangesPanel(against: compare, summary: "cannot compare: \(error)", entries: [])
        }
    }

    /// The watcher's thread: looks at the content folder every `pollInterval` and builds when
    /// anything in it changed since `seen`. Builds run here, one at a time, never on the server's
    /// threads (the first, in `start`, runs before the server does). A folder so large that
    /// looking at it takes longer than a tenth of the interval is looked at less often, so that
    /// watching takes at most about a tenth of one core: a 100,000-entity folder takes 0.4 s a
    /// look, so it is looked at every 4 s.
    private func watch(from seen: ContentSnapshot) {
        defer { watcherDone.signal() }
        var seen = seen
        if let events = lock.withLock({ events }) {
            // Told by the kernel: a build once a change is followed by a quiet spell.
            while !lock.withLock({ isStopping }) {
                // The content is checked as soon as a change is heard, while the quiet spell is
                // waited for; when nothing more came in it, that check is the build's.
                var speculation: Speculation?
                let heard = events.wait(timeout: .seconds(60)) { change in
                    let changed: Set<String>? = if case .files(let paths) = change { paths } else { nil }
                    // Not while an editor's file written to be renamed over a content file
                    // (`espresso.xml.saving`, vim's `4913`) is there: the rename will follow.
                    guard changed?.allSatisfy(isSettledName) ?? true else { return false }
                    lock.withLock { renditionsMade = false }
                    speculation = Speculation { [builder] in builder.check(changed: changed, defers: true) }
                    return true
                }
                // Done before any other check: they share the files' cache.
                let speculative = speculation?.wait()
                if lock.withLock({ isStopping }) { continue }
                guard let heard else {
                    // Woken by the rendition maker: its renditions are patched in.
                    if takeRenditionsMade() { buildOnce(changed: []) }
                    continue
                }
                let change = heard.change
                guard events.isComplete else {
                    log("a folder in \(options.contentFolder) cannot be watched (the system's limit of watched folders); looking at the folder every \(options.pollInterval.milliseconds) ms instead")
                    lock.withLock { self.events = nil }
                    seen = ContentSnapshot.take(options.contentFolder)
                    buildOnce()
                    break
                }
                if heard.settled, let speculative, let speculation {
                    buildOnce(checked: speculative, checkTime: speculation.took)
                } else if case .files(let paths) = change {
                    buildOnce(changed: paths)
                } else {
                    buildOnce()
                }
            }
            // Stopped; or looking from here on.
            if lock.withLock({ self.events != nil }) { return }
        }
        var pause = Duration.zero  // the first look at once: a save during the first build
        while !lock.withLock({ isStopping }) {
            _ = wake.wait(timeout: .now() + pause.seconds)
            if lock.withLock({ isStopping }) { break }
            let started = ContinuousClock.now
            let renditionsMade = takeRenditionsMade()
            let now = ContentSnapshot.take(options.contentFolder)
            pause = max(options.pollInterval, (ContinuousClock.now - started) * 10)
            guard now != seen || renditionsMade else { continue }
            seen = now
            buildOnce()
        }
    }
}
