import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// Installed bundles that decay on the device: a flipped byte inside a text leaves SQLite's
// structure whole, so the bundle still opens; only its SHA-256 tells.
extension BundleStoreTests {
    /// Flips one letter of a product's summary in the installed bundle `sha256`: the same size,
    /// every page still valid.
    func decay(_ sha256: String, in fixture: ChannelFixture) throws {
        let path = fixture.storeFolder + "/bundles/\(sha256).sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let summary = try #require(bytes.range(of: Data("Tummapaahteinen".utf8)))
        bytes[summary.lowerBound] ^= 0x0C  // "T" becomes "X"
        try bytes.write(to: URL(fileURLWithPath: path))
        let bundle = try CatalogBundle(path: path, trust: InMemoryTrustStore())
        #expect(try bundle.productRows().contains { $0.summary.hasPrefix("Xummapaahteinen") }, "the damage is one an app would show")
    }

    @Test func aDecayedBundleIsNoLongerServedAndIsRepairedFromADelta() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let old = try await fixture.installed("2026.11.1", in: fixture.store())
        let new = try fixture.release("2026.11.2")
        let head = try fixture.publish(new, deltas: [.init(from: old)])
        let store = fixture.store()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        try decay(head.bundle.sha256, in: fixture)
        // The store that installed it checked its bytes as they arrived, and hashes no bundle
        // twice: the decay is found at the next launch's first update.
        #expect(try await store.update() == .upToDate(releaseVersion: "2026.11.2"))

        let relaunched = fixture.store()
        fixture.host.clearLog()
        guard case .repaired(let release) = try await relaunched.update() else { Issue.record("not repaired"); return }
        #expect(release.sha256 == head.bundle.sha256)
        // The head, unchanged (304), then the delta on the previous bundle, which is still whole;
        // never the bundle.
        #expect(fixture.host.requestLog().map(\.path) == ["channels/stable/head.json", try #require(head.deltas?.first).path])
        #expect(relaunched.deltaReport().lastInstalledFrom == ChannelFixture.sha256(old))
        #expect(try await Data(contentsOf: URL(fileURLWithPath: relaunched.current().bundle.path)) == new)
        #expect(try await fixture.store().update() == .upToDate(releaseVersion: "2026.11.2"))
    }

    @Test func offlineADecayedBundleGivesWayToThePreviousOneUntilTheHostAnswers() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        let head = try fixture.publish(try fixture.release("2026.11.2"))
        _ = try await store.update()
        try decay(head.bundle.sha256, in: fixture)

        fixture.host.fail("channels/stable/head.json", .status(500))
        let relaunched = fixture.store()
        await #expect(throws: BundleStoreError.self) { try await relaunched.update() }
        #expect(try await relaunched.current().source == .previous(try #require(Self.installedRelease(old, in: fixture))))

        fixture.host.fail("channels/stable/head.json", nil)
        guard case .repaired(let release) = try await relaunched.update() else { Issue.record("not repaired"); return }
        #expect(release.sha256 == head.bundle.sha256)
        await #expect(BundleFileDigest.sha256(path: try relaunched.current().bundle.path)?.hex == head.bundle.sha256)
    }

    /// The store's record of the installed release whose bundle is `bundle`.
    static func installedRelease(_ bundle: Data, in fixture: ChannelFixture) -> BundleStore.Release? {
        let state = try? StoreState.load(fixture.storeFolder + "/store.json")
        return state?.installed.first { $0.sha256 == ChannelFixture.sha256(bundle) }
    }
}

// Damage the app meets while it reads, reported to the store (issue 34): the store stops
// serving the bundle at once and repairs it at the next update, without a relaunch.
extension BundleStoreTests {
    /// Zeroes the page of the installed bundle `sha256` that holds the recipes' rows (the same
    /// size): what a failing flash does to a block.
    func zeroTheRecipesPage(of sha256: String, in fixture: ChannelFixture) throws {
        let path = fixture.storeFolder + "/bundles/\(sha256).sqlite"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let page = Int(bytes[16]) << 8 | Int(bytes[17])  // the header's page size
        let recipe = try #require(bytes.range(of: Data("Kahvia kardemummalla".utf8)))
        let start = recipe.lowerBound / page * page
        bytes.replaceSubrange(start..<(start + page), with: Data(count: page))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func damageTheAppReportsIsNoLongerServedAndIsRepairedByTheNextUpdate() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        let new = try fixture.release("2026.11.2")
        let head = try fixture.publish(new, deltas: [.init(from: old)])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        let damaged = try await store.current()
        #expect(damaged.source == .installed(try #require(Self.installedRelease(new, in: fixture))))
        try zeroTheRecipesPage(of: head.bundle.sha256, in: fixture)

        // The app meets the damage, and says so; the same store instance, no relaunch.
        #expect {
            try damaged.bundle.recipeRows()
        } throws: { error in
            if case CatalogBundleError.damaged = error { true } else { false }
        }
        #expect(try await store.reportDamage(in: damaged.bundle))
        #expect(try await store.current().source == .previous(try #require(Self.installedRelease(old, in: fixture))))
        fixture.host.clearLog()
        guard case .repaired(let release) = try await store.update() else { Issue.record("not repaired"); return }
        #expect(release.sha256 == head.bundle.sha256)
        #expect(fixture.host.requestLog().map(\.path).contains(try #require(head.deltas?.first).path))
        let repaired = try await store.current()
        #expect(repaired.source == .installed(release))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repaired.bundle.path)) == new)
        // A report on a whole bundle, or on the seed, changes nothing.
        #expect(try await store.reportDamage(in: repaired.bundle) == false)
        #expect(try await store.reportDamage(in: CatalogBundle(path: ChannelFixture.small)) == false)
        #expect(try await store.current().source == .installed(release))
    }
}

extension BundleStoreTests {
    @Test func releasesAreIdentifiedByTheirBundleAndHashable() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        _ = try fixture.publish(try fixture.release("2026.11.2"))
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        let previous = try #require(Self.installedRelease(old, in: fixture))
        #expect(release.id == release.sha256 && previous.id == previous.sha256 && release.id != previous.id)
        #expect(Set([release, previous, release]).count == 2)
    }
}

extension BundleStoreTests {
    /// By default the store remembers, in its folder, the bundles that passed their check.
    @Test func theStoreKeepsItsTrustInItsFolder() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(try fixture.release("2026.11.1"))
        let store = BundleStore(folder: fixture.storeFolder, seed: ChannelFixture.small, keys: [ChannelKey(fixture.key.publicKey)],
                                baseURL: FakeHost.base)
        let opened = try await store.current()
        let path = BundleStore.trustPath(in: fixture.storeFolder)
        let size = try #require(StoreFiles.size(opened.bundle.path))
        #expect(opened.source == .seed)
        #expect(FileTrustStore(path: path).isVerified("\(opened.bundle.release.contentDigest):\(size)"))
    }
}

extension BundleStoreTests {
    /// `current()` opens a bundle once, and again only when the store's files change.
    @Test func currentIsOpenedOnceAndAgainWhenTheStoreChanges() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let first = try await store.current()
        #expect(first.source == .seed && first.passedOver.isEmpty)
        #expect(try await store.current().bundle === first.bundle)

        let old = try await fixture.installed("2026.11.1", in: store)
        let installed = try await store.current()
        #expect(installed.bundle !== first.bundle)
        #expect(installed.source == .installed(try #require(Self.installedRelease(old, in: fixture))))
        #expect(try await store.current().bundle === installed.bundle)

        // Another process's update (a new store instance on the same folder) is seen too.
        let new = try fixture.release("2026.11.2")
        _ = try fixture.publish(new)
        _ = try await fixture.store().update()
        let newer = try await store.current()
        #expect(newer.source == .installed(try #require(Self.installedRelease(new, in: fixture))))

        // A release passed over says why.
        try FileManager.default.removeItem(atPath: newer.bundle.path)
        let fallback = try await store.current()
        #expect(fallback.source == .previous(try #require(Self.installedRelease(old, in: fixture))))
        #expect(fallback.passedOver == ["release 2026.11.2 is missing or has another size"])
    }
}

extension BundleStoreTests {
    /// A background refresh handler makes its own store on the app's folder: what it installs
    /// reaches the UI's store's listeners, and its `current()`.
    @Test func everyStoreOnAFolderHearsWhatAnyOfThemInstalls() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let ui = fixture.store()
        let shown = try await ui.current()
        var heard = ui.releases().makeAsyncIterator()
        let elsewhere = fixture.storeFolder + "/../" + URL(fileURLWithPath: fixture.storeFolder).lastPathComponent  // another spelling
        try FileManager.default.createDirectory(atPath: fixture.storeFolder, withIntermediateDirectories: true)
        let background = BundleStore(folder: elsewhere, seed: ChannelFixture.small, keys: [ChannelKey(fixture.key.publicKey)],
                                     baseURL: FakeHost.base, channel: "stable", trust: InMemoryTrustStore(), transport: fixture.host,
                                     now: { Date(timeIntervalSince1970: 1_795_000_000) })
        _ = try fixture.publish(try fixture.release("2026.11.1"))
        guard case .installed(let release) = try await background.update() else { Issue.record("not installed"); return }
        #expect(await heard.next() == release)
        let now = try await ui.current()
        #expect(now.source == .installed(release) && now.bundle !== shown.bundle)
    }

    /// A repair is not a release to the app: no release is announced, and what's new stays
    /// what it was (before, `releases()` announced the same release again, and the notes were
    /// chosen anew from the release itself: those since the previous head, not since what the
    /// app had).
    @Test func aRepairIsNotANewRelease() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.0", in: store)
        func notes(since: String) -> CatalogChanges {
            CatalogChanges(old: .init(releaseVersion: since, releaseDate: Day("2026-11-01")!, contentDigest: nil),
                           new: .init(releaseVersion: "2026.11.2", releaseDate: Day("2026-11-23")!, contentDigest: nil),
                           entities: [.init(kind: .product, slug: "espresso", name: "Espresso", change: .changed, fields: [])],
                           pictures: .init(added: [], removed: []))
        }
        let new = try fixture.release("2026.11.2")
        let head = try fixture.publish(new, notes: notes(since: "2026.11.1").encoded(), notesSince: "2026.11.1",
                                       notesFrom: [("2026.11.0", notes(since: "2026.11.0").encoded())], deltas: [.init(from: old)])
        let announced = store.releases()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        let whatsNew = try #require(store.releaseNotes())
        #expect(whatsNew.old.releaseVersion == "2026.11.0", "since the release the app had")

        try zeroTheRecipesPage(of: head.bundle.sha256, in: fixture)
        #expect(try await store.reportDamage(in: store.current().bundle))
        #expect(try await store.update() == .repaired(release))
        #expect(store.releaseNotes() == whatsNew)
        #expect(try await store.current().source == .installed(release))

        // The next release is the next one announced: the repair was not.
        try fixture.publish(try fixture.release("2026.11.3"))
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        var releases = announced.makeAsyncIterator()
        #expect(await releases.next()?.releaseVersion == "2026.11.2")
        #expect(await releases.next()?.releaseVersion == "2026.11.3")
    }
}
