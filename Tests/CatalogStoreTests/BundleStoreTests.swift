import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

/// `BundleStore`: what it installs, what it refuses, and that the app always has a bundle, with
/// the host's failures injected through `FakeHost`. The same cases against nginx, with real
/// processes killed, are in `Tests/Channel`.
@Suite struct BundleStoreTests {
    @Test func theSeedServesUntilAReleaseIsInstalledAndTheNextStartFindsIt() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        #expect(try await store.current().source == .seed)
        let stream = store.releases()

        let head = try fixture.publish(Data(contentsOf: URL(fileURLWithPath: ChannelFixture.shipped)))
        let outcome = try await store.update()
        guard case .installed(let release) = outcome else { Issue.record("\(outcome)"); return }
        #expect(release.sha256 == head.bundle.sha256 && release.sequence == 1)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == release)

        // A new BundleStore on the same folder: the next start of the app.
        let restarted = fixture.store()
        let current = try await restarted.current()
        #expect(current.source == .installed(release))
        #expect(current.bundle.release.contentDigest == head.contentDigest)
        #expect(current.bundle.path == fixture.storeFolder + "/bundles/\(head.bundle.sha256).sqlite")
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/store.json"))
    }

    @Test func releaseNotesComeWithTheReleaseWhenTheirSHA256IsTheSignedOne() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let notes = CatalogChanges(
            old: .init(releaseVersion: "2026.10.0", releaseDate: Day("2026-10-01")!, contentDigest: nil),
            new: .init(releaseVersion: "2026.11.1", releaseDate: Day("2026-11-22")!, contentDigest: nil),
            entities: [.init(kind: .product, slug: "espresso", name: "Espresso", change: .added, fields: [])], pictures: .init(added: [], removed: []))
        let head = try fixture.publish(fixture.release("2026.11.1"), notes: notes.encoded())
        #expect(store.releaseNotes() == nil)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(store.releaseNotes() == notes)
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/bundles/\(head.bundle.sha256).notes.json"))

        // Notes that are not the signed bytes are left out; the release installs all the same.
        let tampered = try fixture.publish(fixture.release("2026.11.2"), notes: notes.encoded())
        let path = try #require(tampered.notes?.json.path)
        fixture.host.put(path, Data(String(decoding: notes.encoded(), as: UTF8.self).replacingOccurrences(of: "espresso", with: "ESPRESSO").utf8))
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(store.releaseNotes() == nil)
        // The first release's notes went with its bundle? No: it is the previous one, kept.
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/bundles/\(head.bundle.sha256).notes.json"))
    }

    @Test func nothingNewIsOneConditionalRequestAnswered304() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try fixture.publish(Data(contentsOf: URL(fileURLWithPath: ChannelFixture.shipped)))
        _ = try await store.update()
        fixture.host.clearLog()
        #expect(try await store.update() == .upToDate(releaseVersion: "2026.11.0"))
        let log = fixture.host.requestLog()
        #expect(log.count == 1)
        #expect(log.first?.path == "channels/stable/head.json")
        #expect(log.first?.headers["If-None-Match"] != nil)
    }

    @Test func aSeedWithTheChannelsContentIsCurrent() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try fixture.publish(Data(contentsOf: URL(fileURLWithPath: ChannelFixture.small)))
        #expect(try await store.update() == .upToDate(releaseVersion: "2026.11.0"))
        // A changed head also asks whether the keys changed.
        #expect(fixture.host.requestLog().map(\.path) == ["channels/stable/head.json", "keys/1.json"])
        #expect(try await store.current().source == .seed)
    }

    @Test func aNewerReleaseReplacesTheCurrentOneKeepingThePreviousAndRemovingOlder() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let first = try fixture.publish(fixture.release("2026.11.1"))
        _ = try await store.update()
        // A reader opened on the first release keeps reading it through both updates.
        let reader = try await store.current().bundle
        let second = try fixture.publish(fixture.release("2026.11.2"))
        _ = try await store.update()
        let third = try fixture.publish(fixture.release("2026.11.3"))
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.3")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.storeFolder + "/bundles").sorted()
        // Each bundle with the signed head that installed it.
        #expect(names == [second.bundle.sha256, third.bundle.sha256].flatMap { [$0 + ".sqlite", $0 + ".head.json"] }.sorted())
        #expect(!names.contains(first.bundle.sha256 + ".sqlite"))
        #expect(reader.release.releaseVersion == "2026.11.1")
        #expect((try? await reader.home(on: Day("2026-11-23")!)) != nil)
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.3")
    }

    @Test func aRollbackToThePreviousReleaseNeedsNoDownload() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        try fixture.publish(fixture.release("2026.11.2"))
        _ = try await store.update()
        // `digno publish --rollback-to 2026.11.1`: the old bundle under a new sequence number.
        try fixture.publish(old)
        fixture.host.clearLog()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.1" && release.sequence == 3)
        #expect(fixture.host.requestLog().map(\.path) == ["channels/stable/head.json", "keys/1.json"])
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.1")
    }

    @Test func aLostConnectionIsResumedWithARangeRequest() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let bundle = try fixture.release("2026.11.1")
        let head = try fixture.publish(bundle)
        fixture.host.fail(head.bundle.path, .cutAfter(200_000))
        await #expect(throws: BundleStoreError.transfer(.failed(URL(string: "https://cdn.example.com/catalog/\(head.bundle.path)")!,
                                                                      .network(code: URLError.Code.networkConnectionLost.rawValue), "the connection was lost"))) {
            try await store.update()
        }
        #expect(try await store.current().source == .seed)
        let part = fixture.storeFolder + "/staging/\(head.bundle.sha256).part"
        #expect(StoreFiles.size(part) == 200_000)

        fixture.host.fail(head.bundle.path, nil)
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        let bundleRequest = try #require(fixture.host.requestLog().last)
        #expect(bundleRequest.path == head.bundle.path)
        #expect(bundleRequest.headers["Range"] == "bytes=200000-")
        #expect(bundleRequest.headers["Accept-Encoding"] == "identity")
        #expect(!FileManager.default.fileExists(atPath: part))
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.1")
    }

    @Test func theCurrentBundleFallsBackToThePreviousThenTheSeed() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try fixture.publish(fixture.release("2026.11.1"))
        _ = try await store.update()
        let second = try fixture.publish(fixture.release("2026.11.2"))
        _ = try await store.update()
        // The current file damaged on disk: its header overwritten.
        let path = fixture.storeFolder + "/bundles/\(second.bundle.sha256).sqlite"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 0, count: 100))
        try handle.close()
        let current = try await fixture.store().current()
        guard case .previous(let previous) = current.source else { Issue.record("\(current.source)"); return }
        #expect(previous.releaseVersion == "2026.11.1")
        // Both gone: the seed.
        try FileManager.default.removeItem(atPath: current.bundle.path)
        #expect(try await fixture.store().current().source == .seed)
        // No seed either: an error that says why.
        #expect(throws: BundleStoreError.self) { try fixture.store(seed: nil).current() }
        // A seed that is not a bundle: each bundle's error kept, with its code.
        let notABundle = fixture.storeFolder + "/../not-a-bundle.sqlite"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: notABundle))
        let error = try #require(throws: BundleStoreError.self) { try fixture.store(seed: notABundle).current() }
        guard case .noBundle(let reason, let causes) = error else { Issue.record("\(error)"); return }
        #expect(causes.map(\.code) == ["bundle:notSQLite", "bundle:notSQLite"], "\(reason)")
        #expect(error.cause?.code == "bundle:notSQLite")
    }

    @Test func aDamagedStateIsSetAsideAndTheStoreStartsAgain() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        try fixture.publish(fixture.release("2026.11.1"))
        _ = try await fixture.store().update()
        try Data("{\"format\": 1, \"chan".utf8).write(to: URL(fileURLWithPath: fixture.storeFolder + "/store.json"))
        #expect(try await fixture.store().current().source == .seed)
        try fixture.publish(fixture.release("2026.11.2"))
        guard case .installed(let release) = try await fixture.store().update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.2")
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/store.json.damaged"))
        #expect(try await fixture.store().current().source == .installed(release))
    }

    @Test func aSeedNewerThanWhatIsInstalledComesFirst() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        try fixture.publish(fixture.release("2026.10.1"))
        _ = try await fixture.store().update()
        let newerSeed = fixture.folder.appendingPathComponent("seed.sqlite")
        try fixture.release("2026.12.0", from: ChannelFixture.small).write(to: newerSeed)
        #expect(try await fixture.store(seed: newerSeed.path).current().source == .seed)
    }

    @Test func twoUpdatesAtOnceInstallOnce() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        let first = fixture.store(), second = fixture.store()
        async let a = first.update()
        async let b = second.update()
        let outcomes = try await [a, b]
        #expect(outcomes.filter { if case .installed = $0 { true } else { false } }.count == 1)
        #expect(outcomes.contains(.upToDate(releaseVersion: "2026.11.1")))
        #expect(fixture.host.requestLog().filter { $0.path == head.bundle.path }.count == 1)
        #expect(try await fixture.store().current().bundle.release.releaseVersion == "2026.11.1")
    }

    @Test func aCurrentBundleDamagedOnTheDiskIsFetchedAgain() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        _ = try await fixture.store().update()
        let path = fixture.storeFolder + "/bundles/\(head.bundle.sha256).sqlite"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 0, count: 100))
        try handle.close()
        // A new process: the bundle is opened afresh, found damaged and fetched again.
        guard case .repaired = try await fixture.store().update() else { Issue.record("not repaired"); return }
        #expect(try await fixture.store().current().source == .installed(try #require(
            BundleStore.Release(releaseVersion: "2026.11.1", releaseDate: head.releaseDate, sequence: 1, contentDigest: head.contentDigest,
                                sha256: head.bundle.sha256, bytes: head.bundle.bytes) as BundleStore.Release?)))
    }
}
