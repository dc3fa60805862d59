import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// Deltas: used from a bundle the store holds, falling back to the whole bundle on any failure.
extension BundleStoreTests {
    @Test func aDeltaFromTheInstalledBundleIsDownloadedInsteadOfTheBundle() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        #expect(store.deltaReport() == BundleStore.DeltaReport())
        let new = try fixture.release("2026.11.2")
        let head = try fixture.publish(new, deltas: [.init(from: try fixture.release("2026.10.9")), .init(from: old)])
        let delta = try #require(head.deltas?.last)
        #expect(delta.bytes * 2 < head.bundle.bytes)
        fixture.host.clearLog()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.sha256 == head.bundle.sha256)
        // The delta from the bundle the store holds, not the one from a release it never had;
        // never the bundle.
        #expect(fixture.host.requestLog().map(\.path) == ["channels/stable/head.json", "keys/1.json", delta.path])
        #expect(try await Data(contentsOf: URL(fileURLWithPath: store.current().bundle.path)) == new)
        var expected = BundleStore.DeltaReport()
        expected.applied = 1
        expected.lastInstalledFrom = ChannelFixture.sha256(old)
        #expect(store.deltaReport() == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.storeFolder + "/staging") == [])
    }

    @Test func aDeltaThatFailsFallsBackToTheWholeBundleInTheSameUpdate() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        var installed = try await fixture.installed("2026.11.1", in: store)
        let other = try fixture.release("2026.10.9", from: ChannelFixture.small)
        // Missing on the host, a flipped byte, cut midway, and made from another bundle than
        // the one announced: each is counted and the bundle downloaded whole.
        let cases: [(String, (ChannelHead.Delta) -> Void, Bool, String)] = [
            ("answered HTTP 404", { fixture.host.remove($0.path) }, false, "http:404"),
            ("its SHA-256 is", { fixture.host.fail($0.path, .flipped($0.bytes - 1)) }, false, "bundle:digest"),
            ("the connection was lost", { fixture.host.fail($0.path, .cutAfter($0.bytes / 2)) }, false, "network:-1005"),
            ("Adler-32", { _ in }, true, "vcdiff:checksum"),
        ]
        for (index, (reason, fault, foreign, code)) in cases.enumerated() {
            let new = try fixture.release("2026.11.\(index + 2)")
            let source = ChannelFixture.DeltaSource(from: installed, encodedFrom: foreign ? other : installed)
            let head = try fixture.publish(new, deltas: [source])
            let delta = try #require(head.deltas?.first)
            fault(delta)
            fixture.host.clearLog()
            guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
            #expect(release.sha256 == head.bundle.sha256)
            #expect(fixture.host.requestLog().map(\.path).suffix(2) == [delta.path, head.bundle.path])
            let report = store.deltaReport()
            #expect(report.fallbacks == index + 1 && report.applied == 0 && report.lastInstalledFrom == nil)
            let failure = report.lastFailure ?? ""
            #expect(failure.hasPrefix(delta.path + ": ") || failure.hasPrefix(delta.path + " gives a bundle"), "\(failure)")
            #expect(failure.contains(reason), "\(failure)")
            #expect(report.lastFailureCode == code, "\(failure)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.storeFolder + "/staging") == [])
            installed = new
        }
    }

    @Test func aCancelledDeltaIsCancelledNotAFallback() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let old = try await fixture.installed("2026.11.1", in: store)
        let head = try fixture.publish(try fixture.release("2026.11.2"), deltas: [.init(from: old)])
        let delta = try #require(head.deltas?.first)
        try await cancelUpdate(of: store, on: fixture.host, at: delta.path, offset: 0)
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/staging/\(delta.sha256).part"), "kept, to be resumed")
        #expect(!fixture.host.requestLog().contains { $0.path == head.bundle.path }, "no fallback after a cancellation")
        #expect(store.deltaReport().fallbacks == 0)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(store.deltaReport().applied == 1)
    }

    @Test func aDeltaIsNotUsedWithoutItsSourceOrWhenItIsNotSmall() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        // The store holds only the seed; the delta starts from another bundle.
        let new = try fixture.release("2026.11.1")
        var head = try fixture.publish(new, deltas: [.init(from: try fixture.release("2026.10.9"))])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(!fixture.host.requestLog().contains { $0.path.hasPrefix("deltas/") })
        // A delta from the installed bundle, but half the bundle's size: the bundle is fetched.
        let next = try fixture.release("2026.11.2")
        head = try fixture.publish(next)
        // Half the bundle, rounded up: twice it is not less than the bundle.
        let large = Data(repeating: 7, count: head.bundle.bytes - head.bundle.bytes / 2)
        head.sequence += 1
        fixture.sequence += 1
        head.deltas = [.init(from: ChannelFixture.sha256(new), path: "deltas/large.vcdiff", sha256: ChannelFixture.sha256(large), bytes: large.count)]
        fixture.host.put("deltas/large.vcdiff", large)
        fixture.host.put("channels/stable/head.json", try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: fixture.key).encoded())
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(!fixture.host.requestLog().contains { $0.path.hasPrefix("deltas/") })
        #expect(store.deltaReport().fallbacks == 0 && store.deltaReport().applied == 0)
    }

    @Test func theSeedIsADeltaSourceToo() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store(seed: ChannelFixture.small)
        let seed = try Data(contentsOf: URL(fileURLWithPath: ChannelFixture.small))
        let head = try fixture.publish(try fixture.release("2026.11.1", from: ChannelFixture.small, digest: String(repeating: "ab", count: 32)),
                                       deltas: [.init(from: seed)])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().map(\.path).last == head.deltas?.first?.path)
        #expect(store.deltaReport().lastInstalledFrom == ChannelFixture.sha256(seed))
    }
}

// "What's new" for an app several releases behind (issue 34).
extension BundleStoreTests {
    static func changes(from old: String, to new: String, naming name: String) -> CatalogChanges {
        CatalogChanges(
            old: .init(releaseVersion: old, releaseDate: Day("2026-11-01")!, contentDigest: nil),
            new: .init(releaseVersion: new, releaseDate: Day("2026-11-20")!, contentDigest: nil),
            entities: [.init(kind: .product, slug: "espresso", name: name, change: .changed, fields: [])], pictures: .init(added: [], removed: []))
    }

    @Test func anAppReleasesBehindGetsTheNotesSinceTheReleaseItHad() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        _ = try await fixture.installed("2026.11.1", in: store)
        // Two releases later: the head's notes start from 2026.11.2, and it lists notes from 2026.11.1.
        let lastStep = Self.changes(from: "2026.11.2", to: "2026.11.3", naming: "the last step")
        let sinceHad = Self.changes(from: "2026.11.1", to: "2026.11.3", naming: "since 2026.11.1")
        _ = try fixture.publish(try fixture.release("2026.11.3"), notes: lastStep.encoded(), notesSince: "2026.11.2",
                                notesFrom: [(since: "2026.11.1", notes: sinceHad.encoded())])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(store.releaseNotes() == sinceHad)

        // An app that had the previous head's release gets the previous head's notes.
        var other = try ChannelFixture()
        defer { other.remove() }
        let current = other.store()
        _ = try await other.installed("2026.11.2", in: current)
        _ = try other.publish(try other.release("2026.11.3"), notes: lastStep.encoded(), notesSince: "2026.11.2",
                              notesFrom: [(since: "2026.11.1", notes: sinceHad.encoded())])
        _ = try await current.update()
        #expect(current.releaseNotes() == lastStep)
    }
}
