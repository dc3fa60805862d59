import CatalogModel
@testable import CatalogStore
import Foundation
import Testing

// The code of the DocC article "Updating the catalogue on iOS"
// (`Sources/CatalogStore/Documentation.docc/UpdatingOnIOS.md`), compiled here and run below
// against a channel (FakeHost). Each block of the article is between `// article: begin` and
// `// article: end`, in the article's order; `theArticleShowsThisCode` fails when they differ.

// article: begin
func openStore(in support: URL, seed: String?, channelURL: URL) throws -> BundleStore {
    var folder = support.appendingPathComponent("Catalogue", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var values = URLResourceValues()
    values.isExcludedFromBackup = true  // downloadable again: not in the user's backup
    try folder.setResourceValues(values)
    let key = try ChannelKey("ed25519:hwcZI5TxO56yHhXb+TNTxXo3+DL7j1bUAf274JnUAk0=")
    return BundleStore(folder: folder.path, seed: seed, keys: [key], baseURL: channelURL)
}
// article: end

// article: begin
func openStore(in support: URL, seed: String?, rootFile: String?, channelURL: URL) throws -> BundleStore {
    var folder = support.appendingPathComponent("Catalogue", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var values = URLResourceValues()
    values.isExcludedFromBackup = true
    try folder.setResourceValues(values)
    let root = try PinnedRoot(
        keys: [ChannelKey("ed25519:hwcZI5TxO56yHhXb+TNTxXo3+DL7j1bUAf274JnUAk0="),
               ChannelKey("ed25519:Qm9vdHN0cmFwcGluZyBrZXlzIGFyZSAzMiBieXRlcyE="),
               ChannelKey("ed25519:PdCdJl3Unh0dSqlgTiHCi0X6bV8B7cVTFuFlInTgUPs=")],
        threshold: 2,
        file: rootFile)  // Bundle.main.path(forResource: "root", ofType: "json")
    return BundleStore(folder: folder.path, seed: seed, root: root, baseURL: channelURL)
}
// article: end

// article: begin
@MainActor final class CatalogueModel {
    let store: BundleStore
    private(set) var bundle: CatalogBundle?
    private(set) var message: String?
    private let installed: AsyncStream<BundleStore.Release>

    init(store: BundleStore) {
        self.store = store
        installed = store.releases()  // before any update, so that no release is missed
    }

    func show() async {
        do {
            let current = try await store.current()
            bundle = current.bundle
            if !current.passedOver.isEmpty { print("catalogue:", current.passedOver) }  // for the log
            // A seed of an older schema (catalog.schema-2.sqlite shipped by mistake) stops a debug build.
            if let older = current.olderSeed { assertionFailure("\(older)") }
        } catch {
            message = catalogueMessage(for: error)
        }
    }

    func followReleases() async {
        for await _ in installed { await show() }
    }
}
// article: end

// article: begin
@MainActor func readingFailed(_ error: CatalogBundleError, in model: CatalogueModel) async {
    guard case .damaged = error, let bundle = model.bundle else { return }
    if (try? await model.store.reportDamage(in: bundle)) == true { await model.show() }
}
// article: end

// article: begin
// Synchronous: a UIKit view controller's viewDidLoad, a SwiftUI view's init.
func catalogueNow(_ store: BundleStore) -> CatalogBundle? {
    try? store.current().bundle
}

// Asynchronous: a .task, a Task, an async function.
func catalogueAtLaunch(_ store: BundleStore) async -> CatalogBundle? {
    try? await store.current().bundle
}
// article: end

// article: begin
@MainActor func updateCatalogue(_ model: CatalogueModel, progress: @escaping @MainActor @Sendable (Double) -> Void) async {
    do {
        _ = try await model.store.update(progress: { step in
            Task { @MainActor in progress(step.fraction) }
        })
    } catch {
        print("catalogue update:", error)  // the store keeps serving what it served
    }
    // After every update, whatever it did: one that takes a root dropping a leaked key stops
    // serving the releases that key signed, and announces nothing. Opens nothing if unchanged.
    await model.show()
}
// article: end

// article: begin
func refreshInBackground(_ store: BundleStore) async -> Bool {
    do {
        _ = try await store.update()
        return true
    } catch .busy {
        return true
    } catch {
        return false
    }
}
// article: end

// article: begin
let catalogueRefresh = "com.delinggroup.catalogue.refresh"

/// Asks iOS to wake the app to refresh the catalogue, in four hours at the soonest.
func scheduleCatalogueRefresh() {
    let request = BGAppRefreshTaskRequest(identifier: catalogueRefresh)
    request.earliestBeginDate = Date(timeIntervalSinceNow: 4 * 60 * 60)
    do {
        try BGTaskScheduler.shared.submit(request)
    } catch {
        print("no background refresh:", error)  // the Simulator, or Background App Refresh turned off
    }
}

func registerCatalogueRefresh(_ store: BundleStore) {
    BGTaskScheduler.shared.register(forTaskWithIdentifier: catalogueRefresh, using: nil) { task in
        scheduleCatalogueRefresh()  // the next one, first: each request runs once
        let work = Task { task.setTaskCompleted(success: await refreshInBackground(store)) }
        task.expirationHandler = { work.cancel() }  // a cancelled update keeps what it downloaded
    }
    scheduleCatalogueRefresh()
}
// article: end

// article: begin
func whatsNew(_ store: BundleStore, languages: [String] = Locale.preferredLanguages) -> [String] {
    guard let notes = store.releaseNotes()?.reading(in: languages) else { return [] }
    return notes.entities.map { "\($0.name) (\($0.change.rawValue))" }
}
// article: end

// article: begin
func catalogueMessage(for error: BundleStoreError) -> String? {
    switch error {
    case .cancelled, .busy:
        return nil
    case .transfer(let failure) where failure.isConnectionProblem:
        return "You seem to be offline. The catalogue updates when you are back online."
    case .transfer:
        return "The catalogue could not be updated just now. Please try again later."
    case .storage(let failure) where failure.isDiskFull:
        return "Your phone is full. Free some space to update the catalogue."
    case .storage:
        return "The catalogue could not be saved on this phone."
    case .refused(.rootsPending):
        return nil  // the next update goes on where this one stopped
    case .refused(.rootExpired):
        return "The catalogue cannot be updated until its publisher renews its keys."
    case .refused:
        return "The catalogue's update was not genuine, and it was not installed."
    case .noBundle:
        return "The catalogue cannot be shown. Please reinstall the app."
    }
}
// article: end

@Suite(.serialized, .timeLimit(.minutes(10))) struct UpdatingArticleTests {
    static let article = ChannelFixture.repository.appendingPathComponent("Sources/CatalogStore/Documentation.docc/UpdatingOnIOS.md")

    @Test func theStoreIsMadeOutOfBackupsAndShowsTheSeed() async throws {
        let support = FileManager.default.temporaryDirectory.appendingPathComponent("support-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: support) }
        let store = try openStore(in: support, seed: ChannelFixture.small, channelURL: URL(string: "https://cdn.example.com/catalog")!)
        #expect(FileManager.default.fileExists(atPath: support.appendingPathComponent("Catalogue").path))
        #expect(try await store.current().source == .seed)
        // Pinning the root keys: the same folder, the seed shown; the update that walks the
        // roots is BundleStoreRootTests'.
        let pinned = try openStore(in: support, seed: ChannelFixture.small, rootFile: nil, channelURL: URL(string: "https://cdn.example.com/catalog")!)
        #expect(try await pinned.current().source == .seed)
        #expect(pinned.anchor != store.anchor)
    }

    /// The background refresh, against BackgroundTasks' stand-ins: registering asks for a
    /// refresh, a refresh iOS runs asks for the next one first, updates the store and tells iOS
    /// it is done, once; its expiration handler is set. (Registered once per process, as an
    /// app does: this is the one test that registers.)
    @Test func theBackgroundRefreshSchedulesItselfAndUpdates() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        _ = try fixture.publish(try fixture.release("2026.11.5"))
        let before = BGTaskScheduler.shared.submitted.count
        registerCatalogueRefresh(store)
        let asked = BGTaskScheduler.shared.submitted
        #expect(asked.count == before + 1 && asked.last is BGAppRefreshTaskRequest && asked.last?.identifier == catalogueRefresh)
        #expect((asked.last?.earliestBeginDate?.timeIntervalSinceNow ?? 0) > 3.9 * 60 * 60)

        let task = try #require(BGTaskScheduler.shared.launch(catalogueRefresh))
        #expect(BGTaskScheduler.shared.submitted.count == before + 2, "the next refresh asked for at once")
        #expect(task.expirationHandler != nil)
        while task.completed.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(task.completed == [true])
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.5")
    }

    /// `current()` as synchronous and asynchronous code call it: the same bundle.
    @Test func currentFromSynchronousAndAsynchronousCode() async throws {
        let fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let now = try #require(catalogueNow(store)), atLaunch = try #require(await catalogueAtLaunch(store))
        #expect(now.path == atLaunch.path && now.release == atLaunch.release)
    }

    @Test func theModelShowsUpdatesRepairsAndExplains() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let model = await CatalogueModel(store: store)
        await model.show()
        #expect(await model.bundle?.release.releaseVersion == "2026.11.0")
        let following = Task { await model.followReleases() }
        defer { following.cancel() }

        let old = try fixture.release("2026.11.1")
        _ = try fixture.publish(old)
        let fractions = FractionLog()
        await updateCatalogue(model) { fractions.add($0) }
        // The model switched to the release (told by releases(), on the main actor): waited for
        // as long as a loaded machine takes; the suite's time limit ends a hang.
        while await model.bundle?.release.releaseVersion != "2026.11.1" { try await Task.sleep(for: .milliseconds(10)) }
        while fractions.last != 1 { try await Task.sleep(for: .milliseconds(10)) }

        let notes = CatalogChanges(
            old: .init(releaseVersion: "2026.11.1", releaseDate: Day("2026-11-22")!, contentDigest: nil),
            new: .init(releaseVersion: "2026.11.2", releaseDate: Day("2026-11-23")!, contentDigest: nil),
            entities: [.init(kind: .product, slug: "espresso", name: "Espresso", change: .changed, fields: [])], pictures: .init(added: [], removed: []),
            languages: ["fi", "sv"], inLanguages: ["sv": [.init(kind: .product, slug: "espresso", name: "Espresso på svenska", change: .changed, fields: [])]])
        _ = try fixture.publish(try fixture.release("2026.11.2"), notes: notes.encoded(), deltas: [.init(from: old)])
        #expect(await refreshInBackground(store))
        #expect(whatsNew(store, languages: ["fi-FI"]) == ["Espresso (changed)"])
        #expect(whatsNew(store, languages: ["sv-FI", "fi"]) == ["Espresso på svenska (changed)"])
        while await model.bundle?.release.releaseVersion != "2026.11.2" { try await Task.sleep(for: .milliseconds(10)) }

        // A damaged page the model meets: reported, the previous release shown at once.
        let shown = try #require(await model.bundle)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: shown.path))
        let page = Int(bytes[16]) << 8 | Int(bytes[17])
        let start = try #require(bytes.range(of: Data("Kahvia kardemummalla".utf8))).lowerBound / page * page
        bytes.replaceSubrange(start..<(start + page), with: Data(count: page))
        try bytes.write(to: URL(fileURLWithPath: shown.path))
        do {
            _ = try await shown.recipeRows()
            Issue.record("the damage was not met")
        } catch {
            await readingFailed(error, in: model)
        }
        #expect(await model.bundle?.release.releaseVersion == "2026.11.1")

        // Messages: none for a cancellation, the cause's for the others.
        #expect(catalogueMessage(for: .cancelled) == nil)
        let offline = TransferFailure.failed(URL(string: "https://cdn.example.com/catalog/channels/stable/head.json")!,
                                             .network(code: URLError.Code.notConnectedToInternet.rawValue), "offline")
        #expect(catalogueMessage(for: .transfer(offline))?.hasPrefix("You seem to be offline") == true)
        #expect(catalogueMessage(for: .transfer(.status(500, url: URL(string: "https://cdn.example.com")!)))?.hasPrefix("The catalogue could not be updated") == true)
        let full = StorageFailure(path: "/x", errorNumber: ENOSPC, message: "full")
        #expect(catalogueMessage(for: .storage(full))?.hasPrefix("Your phone is full") == true)
        #expect(catalogueMessage(for: .refused(.rootsPending(taken: 33))) == nil)
        #expect(catalogueMessage(for: .refused(.rootExpired(version: 2, expired: Date())))?.contains("renews its keys") == true)
        #expect(catalogueMessage(for: .refused(.bundleDigest(found: "a", signed: "b")))?.contains("not genuine") == true)
    }

    @Test func theArticleShowsThisCode() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let code = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let shown = ArticleBlocks.blocks(in: article, begin: "```swift", end: "```")
        let tested = ArticleBlocks.blocks(in: code, begin: "// article: begin", end: "// article: end")
        #expect(shown.count == 10)
        #expect(shown == tested, "the article's code and the code tested here differ; change both together")
    }
}

/// The fractions a progress closure was told.
final class FractionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var fractions: [Double] = []
    func add(_ fraction: Double) { lock.withLock { fractions.append(fraction) } }
    var last: Double? { lock.withLock { fractions.last } }
}
