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
        #expect(try store.current().source == .seed)
        let stream = store.releases()

        let head = try fixture.publish(Data(contentsOf: URL(fileURLWithPath: ChannelFixture.shipped)))
        let outcome = try await store.update()
        guard case .installed(let release) = outcome else { Issue.record("\(outcome)"); return }
        #expect(release.sha256 == head.bundle.sha256 && release.sequence == 1)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == release)

        // A new BundleStore on the same folder: the next start of the app.
        let restarted = fixture.store()
        let current = try restarted.current()
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
            entities: [.init(kind: .product, id: "espresso", name: "Espresso", change: .added, fields: [])], pictures: .init(added: [], removed: []))
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
        #expect(try store.current().source == .seed)
    }

    @Test func aNewerReleaseReplacesTheCurrentOneKeepingThePreviousAndRemovingOlder() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let first = try fixture.publish(fixture.release("2026.11.1"))
        _ = try await store.update()
        // A reader opened on the first release keeps reading it through both updates.
        let reader = try store.current().bundle
        let second = try fixture.publish(fixture.release("2026.11.2"))
        _ = try await store.update()
        let third = try fixture.publish(fixture.release("2026.11.3"))
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.3")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.storeFolder + "/bundles").sorted()
        #expect(names == [second.bundle.sha256 + ".sqlite", third.bundle.sha256 + ".sqlite"].sorted())
        #expect(!names.contains(first.bundle.sha256 + ".sqlite"))
        #expect(reader.release.releaseVersion == "2026.11.1")
        #expect((try? await reader.home(on: Day("2026-11-23")!)) != nil)
        #expect(try store.current().bundle.release.releaseVersion == "2026.11.3")
    }

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
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.current().bundle.path)) == new)
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
        let cases: [(String, (ChannelHead.Delta) -> Void, Bool)] = [
            ("answered HTTP 404", { fixture.host.remove($0.path) }, false),
            ("its SHA-256 is", { fixture.host.fail($0.path, .flipped($0.bytes - 1)) }, false),
            ("the connection was lost", { fixture.host.fail($0.path, .cutAfter($0.bytes / 2)) }, false),
            ("Adler-32", { _ in }, true),
        ]
        for (index, (reason, fault, foreign)) in cases.enumerated() {
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
        #expect(try store.current().bundle.release.releaseVersion == "2026.11.1")
    }

    @Test func aTamperedHeadOrOneSignedByAnotherKeyIsRefusedAndChangesNothing() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try fixture.publish(fixture.release("2026.11.1"))
        _ = try await store.update()
        let state = try Data(contentsOf: URL(fileURLWithPath: fixture.storeFolder + "/store.json"))
        func refusedAsUnsigned() async {
            await #expect { try await store.update() } throws: { error in
                guard case BundleStoreError.refused(.head(.notSigned)) = error else { return false }
                return true
            }
        }

        try fixture.publish(fixture.release("2026.11.2"), signer: Curve25519.Signing.PrivateKey())
        await refusedAsUnsigned()
        // One byte of a validly signed head changed.
        try fixture.publish(fixture.release("2026.11.3"))
        var envelope = try JSONDecoder().decode(SignedEnvelope.self, from: try #require(fixture.host.file("channels/stable/head.json")))
        var payload = try #require(Data(base64Encoded: envelope.payload))
        let index = try #require(payload.firstRange(of: Data("2026.11.3".utf8))).upperBound - 1
        payload[index] = UInt8(ascii: "9")
        envelope.payload = payload.base64EncodedString()
        fixture.host.put("channels/stable/head.json", try JSONEncoder().encode(envelope))
        await refusedAsUnsigned()
        // A head too large to be one.
        fixture.host.put("channels/stable/head.json", Data(repeating: 0x20, count: BundleStore.headSizeLimit + 1))
        await #expect(throws: BundleStoreError.refused(.headTooLarge(limit: BundleStore.headSizeLimit))) { try await store.update() }

        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.storeFolder + "/store.json")) == state)
        #expect(try store.current().bundle.release.releaseVersion == "2026.11.1")
    }

    @Test func aReplayedOlderHeadIsRefusedEvenAfterARestart() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        try fixture.publish(fixture.release("2026.11.1"))
        let replay = try #require(fixture.host.file("channels/stable/head.json"))
        _ = try await fixture.store().update()
        try fixture.publish(fixture.release("2026.11.2"))
        _ = try await fixture.store().update()
        // The host serves sequence 1 again: a mirror holding the app back.
        fixture.host.put("channels/stable/head.json", replay)
        await #expect(throws: BundleStoreError.refused(.replayed(sequence: 1, highestSeen: 2))) { try await fixture.store().update() }
        // The same sequence number with another head.
        try fixture.publish(fixture.release("2026.11.9"), sequence: 2)
        await #expect(throws: BundleStoreError.refused(.sequenceReused(2))) { try await fixture.store().update() }
        #expect(try fixture.store().current().bundle.release.releaseVersion == "2026.11.2")
    }

    @Test func anExpiredHeadOrANewerSchemaInstallsNothing() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let store = fixture.store(now: now)
        let expired = now.addingTimeInterval(-1)
        try fixture.publish(fixture.release("2026.11.1"), expires: expired)
        #expect(try await store.update() == .expired(releaseVersion: "2026.11.1", expired: expired))
        try fixture.publish(fixture.release("2026.11.2"), schema: 3)
        #expect(try await store.update() == .schemaNotSupported(releaseVersion: "2026.11.2", schemaVersion: 3, supported: 2))
        #expect(fixture.host.requestLog().allSatisfy { !$0.path.hasPrefix("bundles/") })
        #expect(try store.current().source == .seed)
    }

    @Test func bundlesThatAreNotTheSignedBytesAreRefused() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let bundle = try fixture.release("2026.11.1")
        var head = try fixture.publish(bundle)
        let cases: [(FakeHost.Fault, BundleStoreError.Refusal)] = [
            (.extra(Data("more".utf8)), .bundleTooLong(declared: bundle.count)),
            (.truncated(bundle.count - 100), .bundleTooShort(received: bundle.count - 100, declared: bundle.count)),
            (.flipped(70_000), .bundleDigest(found: sha(flipping: 70_000, of: bundle), signed: head.bundle.sha256)),
        ]
        for (fault, refusal) in cases {
            fixture.host.fail(head.bundle.path, fault)
            await #expect(throws: BundleStoreError.refused(refusal)) { try await store.update() }
            // Nothing of it is kept to resume from.
            #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/staging/\(head.bundle.sha256).part") == false)
            #expect(try store.current().source == .seed)
            // Not downloaded again for the same head, at every launch.
            fixture.host.clearLog()
            await #expect(throws: BundleStoreError.refused(.refusedBefore(sha256: head.bundle.sha256))) { try await store.update() }
            #expect(!fixture.host.requestLog().contains { $0.path == head.bundle.path })
            // A new head (here, renewed) tries again.
            head = try fixture.publish(bundle)
        }
        fixture.host.fail(head.bundle.path, nil)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
    }

    private func sha(flipping index: Int, of data: Data) -> String {
        var data = data
        data[index] ^= 0x01
        return ChannelFixture.sha256(data)
    }

    @Test func signedBytesThatAreNotTheAnnouncedReleaseAreRefused() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        // A head whose content digest is not the bundle's: signed, but wrong.
        let bundle = try fixture.release("2026.11.1")
        var head = try fixture.publish(bundle)
        head.contentDigest = String(repeating: "0", count: 64)
        fixture.host.put("channels/stable/head.json", try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: fixture.key).encoded())
        await #expect { try await store.update() } throws: { error in
            guard case BundleStoreError.refused(.bundleUnreadable) = error else { return false }
            return true
        }
        #expect(try store.current().source == .seed)
    }

    @Test func hostErrorsAreTransferErrors() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        await #expect(throws: BundleStoreError.transfer("https://cdn.example.com/catalog/channels/stable/head.json answered HTTP 404")) {
            try await store.update()
        }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        fixture.host.fail("channels/stable/head.json", .status(500))
        await #expect(throws: BundleStoreError.transfer("https://cdn.example.com/catalog/channels/stable/head.json answered HTTP 500")) {
            try await store.update()
        }
        fixture.host.fail("channels/stable/head.json", nil)
        fixture.host.remove(head.bundle.path)
        await #expect(throws: BundleStoreError.transfer("https://cdn.example.com/catalog/\(head.bundle.path) answered HTTP 404")) {
            try await store.update()
        }
        #expect(try store.current().source == .seed)
    }

    @Test func aLostConnectionIsResumedWithARangeRequest() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let bundle = try fixture.release("2026.11.1")
        let head = try fixture.publish(bundle)
        fixture.host.fail(head.bundle.path, .cutAfter(200_000))
        await #expect(throws: BundleStoreError.transfer("https://cdn.example.com/catalog/\(head.bundle.path): the connection was lost")) {
            try await store.update()
        }
        #expect(try store.current().source == .seed)
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
        #expect(try store.current().bundle.release.releaseVersion == "2026.11.1")
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
        let current = try fixture.store().current()
        guard case .previous(let previous) = current.source else { Issue.record("\(current.source)"); return }
        #expect(previous.releaseVersion == "2026.11.1")
        // Both gone: the seed.
        try FileManager.default.removeItem(atPath: current.bundle.path)
        #expect(try fixture.store().current().source == .seed)
        // No seed either: an error that says why.
        #expect(throws: BundleStoreError.self) { try fixture.store(seed: nil).current() }
    }

    @Test func aDamagedStateIsSetAsideAndTheStoreStartsAgain() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        try fixture.publish(fixture.release("2026.11.1"))
        _ = try await fixture.store().update()
        try Data("{\"format\": 1, \"chan".utf8).write(to: URL(fileURLWithPath: fixture.storeFolder + "/store.json"))
        #expect(try fixture.store().current().source == .seed)
        try fixture.publish(fixture.release("2026.11.2"))
        guard case .installed(let release) = try await fixture.store().update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.2")
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/store.json.damaged"))
        #expect(try fixture.store().current().source == .installed(release))
    }

    @Test func aSeedNewerThanWhatIsInstalledComesFirst() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        try fixture.publish(fixture.release("2026.10.1"))
        _ = try await fixture.store().update()
        let newerSeed = fixture.folder.appendingPathComponent("seed.sqlite")
        try fixture.release("2026.12.0", from: ChannelFixture.small).write(to: newerSeed)
        #expect(try fixture.store(seed: newerSeed.path).current().source == .seed)
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
        #expect(try fixture.store().current().bundle.release.releaseVersion == "2026.11.1")
    }

    /// Runs an update of `store` and cancels it once the host is about to send `path` from
    /// `offset` on; the update must end as cancelled.
    func cancelUpdate(of store: BundleStore, on host: FakeHost, at path: String, offset: Int) async throws {
        let started = AsyncStream<Void>.makeStream()
        host.beforePiece = { piecePath, pieceOffset in
            guard piecePath == path, pieceOffset >= offset else { return }
            started.continuation.yield()
            try? await Task.sleep(nanoseconds: 10_000_000_000)
        }
        defer { host.beforePiece = nil }
        let task = Task { try await store.update() }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: BundleStoreError.cancelled) { try await task.value }
    }

    @Test func aCancelledUpdateKeepsItsDownloadForTheNextOne() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        let store = fixture.store()
        try await cancelUpdate(of: store, on: fixture.host, at: head.bundle.path, offset: 65_536)
        #expect(try store.current().source == .seed)
        let kept = try #require(StoreFiles.size(fixture.storeFolder + "/staging/\(head.bundle.sha256).part"))
        #expect(kept == 65_536)
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().last?.headers["Range"] == "bytes=65536-")
    }

    @Test func keptBytesThatAreNotTheBundleAreFetchedAgainNotRefused() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        // A whole part of other bytes, as a power cut can leave one whose writes never reached
        // the disk.
        try FileManager.default.createDirectory(atPath: fixture.storeFolder + "/staging", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: fixture.storeFolder + "/staging/\(head.bundle.sha256).part",
                                               contents: Data(repeating: 0, count: head.bundle.bytes)))
        let store = fixture.store()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.sha256 == head.bundle.sha256)
        #expect(fixture.host.requestLog().filter { $0.path == head.bundle.path }.map { $0.headers["Range"] } == [nil])
    }

    @Test func aHostThatWillNotResumeIsAskedForTheWholeFile() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        let store = fixture.store()
        fixture.host.fail(head.bundle.path, .cutAfter(100_000))
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        fixture.host.fail(head.bundle.path, .noResume)
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        let requests = fixture.host.requestLog().filter { $0.path == head.bundle.path }
        #expect(requests.map { $0.headers["Range"] } == ["bytes=100000-", nil])
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
        // A new process: the bundle is opened afresh.
        guard case .installed = try await fixture.store().update() else { Issue.record("not installed"); return }
        #expect(try fixture.store().current().source == .installed(try #require(
            BundleStore.Release(releaseVersion: "2026.11.1", releaseDate: head.releaseDate, sequence: 1, contentDigest: head.contentDigest,
                                sha256: head.bundle.sha256, bytes: head.bundle.bytes) as BundleStore.Release?)))
    }

    // MARK: - Key rotation

    func statement(_ version: Int, keys: [Curve25519.Signing.PrivateKey], signers: [Curve25519.Signing.PrivateKey]) throws -> Data {
        try SignedEnvelope.signing(KeyStatement(version: version, keys: keys.map { ChannelKey($0.publicKey) }).encoded(),
                                   payloadType: KeyStatement.payloadType, with: signers).encoded()
    }

    @Test func aKeyStatementSignedByTheOldAndNewKeysHandsTheChannelOver() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try fixture.publish(fixture.release("2026.11.1"))
        _ = try await store.update()
        let newKey = Curve25519.Signing.PrivateKey(), third = Curve25519.Signing.PrivateKey()
        fixture.host.put("keys/1.json", try statement(1, keys: [newKey], signers: [fixture.key, newKey]))
        try fixture.publish(fixture.release("2026.11.2"), signer: newKey)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // The old key is no longer trusted: a head it signs is refused.
        try fixture.publish(fixture.release("2026.11.3"))
        await #expect { try await store.update() } throws: { error in
            guard case BundleStoreError.refused(.head(.notSigned)) = error else { return false }
            return true
        }
        // A second rotation; a store that missed both walks them in order.
        fixture.host.put("keys/2.json", try statement(2, keys: [third], signers: [newKey, third]))
        try fixture.publish(fixture.release("2026.11.4"), signer: third)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        let late = BundleStore(folder: fixture.folder.appendingPathComponent("late").path, seed: ChannelFixture.small,
                               keys: [ChannelKey(fixture.key.publicKey)], baseURL: FakeHost.base, channel: "stable",
                               trust: InMemoryTrustStore(), transport: fixture.host, now: { Date(timeIntervalSince1970: 1_795_000_000) })
        guard case .installed(let release) = try await late.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.4")
    }

    @Test func aHostThatAnswers403ForAMissingStatementStillUpdates() async throws {
        // S3 without the permission to list answers 403, not 404, for a file it does not have.
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        fixture.host.fail("keys/1.json", .status(403))
        try fixture.publish(fixture.release("2026.11.1"))
        guard case .installed = try await fixture.store().update() else { Issue.record("not installed"); return }
        fixture.host.fail("keys/1.json", .status(500))
        try fixture.publish(fixture.release("2026.11.2"))
        await #expect(throws: BundleStoreError.transfer("https://cdn.example.com/catalog/keys/1.json answered HTTP 500")) {
            try await fixture.store().update()
        }
    }

    @Test func aKeyStatementNotVouchedForIsPassedOver() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let attacker = Curve25519.Signing.PrivateKey(), newKey = Curve25519.Signing.PrivateKey()
        // Signed by the new key alone, or naming a key that did not sign: not taken.
        fixture.host.put("keys/1.json", try statement(1, keys: [attacker], signers: [attacker]))
        fixture.host.put("keys/2.json", try statement(2, keys: [attacker], signers: [fixture.key]))
        // Signed as it should be, but at the place of another version.
        fixture.host.put("keys/3.json", try statement(4, keys: [newKey], signers: [fixture.key, newKey]))
        try fixture.publish(fixture.release("2026.11.1"), signer: attacker)
        await #expect { try await store.update() } throws: { error in
            guard case BundleStoreError.refused(.head(.notSigned)) = error else { return false }
            return true
        }
        try fixture.publish(fixture.release("2026.11.2"), signer: newKey)
        await #expect { try await store.update() } throws: { error in
            guard case BundleStoreError.refused(.head(.notSigned)) = error else { return false }
            return true
        }
        #expect(try store.current().source == .seed)
        #expect(throws: ChannelError.notAKeyStatement("it says version 4, at the place of version 3")) {
            try KeyStatement.verified(fixture.host.file("keys/3.json") ?? Data(), trusted: [ChannelKey(fixture.key.publicKey)], version: 3)
        }
    }

    @Test func anAppUpdatePinningANewKeyRecoversFromALeakedOne() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let attacker = Curve25519.Signing.PrivateKey(), recovery = Curve25519.Signing.PrivateKey()
        // The pinned key leaked: whoever controls the network announces their own key with it,
        // and the store takes it, as any client would.
        // The highest sequence number a head may have, to hold the app back for good.
        fixture.host.put("keys/1.json", try statement(1, keys: [attacker], signers: [fixture.key, attacker]))
        try fixture.publish(fixture.release("2026.11.1"), sequence: ChannelHead.maximumSequence, signer: attacker)
        guard case .installed = try await fixture.store().update() else { Issue.record("not installed"); return }
        fixture.sequence = 1
        // The publisher's own rotation, and an app update that pins the new key.
        fixture.host.put("keys/1.json", try statement(1, keys: [recovery], signers: [fixture.key, recovery]))
        try fixture.publish(fixture.release("2026.11.2"), signer: recovery)
        await #expect { try await fixture.store().update() } throws: { error in
            guard case BundleStoreError.refused(.head(.notSigned)) = error else { return false }
            return true
        }
        let updatedApp = fixture.store(keys: [ChannelKey(recovery.publicKey)])
        guard case .installed(let release) = try await updatedApp.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.2")
    }
}
