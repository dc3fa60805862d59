import CatalogModel
@testable import CatalogStore
import ChannelFormat
import Crypto
import Foundation
import Testing

/// After a leak, the thief's release never comes back: not through a state rebuilt when
/// `store.json` is lost, not through another spelling of the channel's URL or a new host, not as
/// a fallback when the release after it is damaged. As TUF's client: once a root rotates a key
/// out, nothing signed only by that key is trusted again, from any source.
extension BundleStoreRootTests {
    /// The story the issue tells: root 1 (shipped in the app) names A; the store installs
    /// 2026.11.1, signed by A; A leaks and the thief's 2026.11.2, signed by A, is installed;
    /// root 2 drops A for B, and 2026.11.3, signed by B, is installed. Returns the shipped
    /// root's file, A, B and the thief's bundle.
    struct Leak {
        var shipped: String
        var a: Curve25519.Signing.PrivateKey
        var b: Curve25519.Signing.PrivateKey
        var thiefs: Data
    }

    func afterTheLeak(_ fixture: inout ChannelFixture, _ roots: Roots) async throws -> Leak {
        let (a, b) = (fixture.key, Curve25519.Signing.PrivateKey())
        let shipped = fixture.folder.appendingPathComponent("root-1.json").path
        try roots.root(1, release: [a]).write(to: URL(fileURLWithPath: shipped))
        fixture.host.put("roots/1.json", try roots.root(1, release: [a]))
        try fixture.publish(fixture.release("2026.11.1"), signer: a)
        guard case .installed = try await store(fixture, roots, file: shipped).update() else { throw NotInstalled(outcome: .upToDate(releaseVersion: "")) }
        let thiefs = try fixture.release("2026.11.2")
        try fixture.publish(thiefs, signer: a)
        let outcome = try await store(fixture, roots, file: shipped).update()
        guard case .installed = outcome else { throw NotInstalled(outcome: outcome) }
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        try fixture.publish(fixture.release("2026.11.3"), signer: b)
        let third = try await store(fixture, roots, file: shipped).update()
        guard case .installed(let release) = third, release.releaseVersion == "2026.11.3" else { throw NotInstalled(outcome: third) }
        return Leak(shipped: shipped, a: a, b: b, thiefs: thiefs)
    }

    /// What the store serves now, as `digno update` prints it after an update.
    func serving(_ store: BundleStore) async throws -> String {
        let current = try await store.current()
        return switch current.source {
        case .installed: "installed " + current.bundle.release.releaseVersion
        case .previous: "previous " + current.bundle.release.releaseVersion
        case .seed: "seed"
        }
    }

    /// The host unreachable: every request fails as a lost connection would.
    func offline(_ fixture: ChannelFixture) {
        for path in ["channels/stable/head.json", "roots/1.json", "roots/2.json", "roots/3.json"] { fixture.host.fail(path, .status(503)) }
    }

    @Test(arguments: ["deleted", "damaged"])
    func aStateLostOfflineIsRebuiltWithTheNewestRootKeptNotTheShippedOne(_ loss: String) async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let leak = try await afterTheLeak(&fixture, roots)
        let statePath = fixture.storeFolder + "/store.json"
        if loss == "deleted" { try FileManager.default.removeItem(atPath: statePath) } else { try Data("{\"format\": 1, ".utf8).write(to: URL(fileURLWithPath: statePath)) }
        offline(fixture)
        let store = store(fixture, roots, file: leak.shipped)
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        #expect(try await serving(store) == "installed 2026.11.3")
        // Back online, a head signed by A is refused at any sequence.
        for path in ["channels/stable/head.json", "roots/1.json", "roots/2.json", "roots/3.json"] { fixture.host.fail(path, nil) }
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: leak.a)
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(leak.a.publicKey).id])))) { try await store.update() }
        #expect(try await serving(store) == "installed 2026.11.3")
    }

    @Test func theSameChannelAtAnotherURLOrOnANewHostKeepsTheRootsTaken() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let leak = try await afterTheLeak(&fixture, roots)
        // The URL with a trailing slash: the same channel, the same trust.
        let slashed = URL(string: FakeHost.base.absoluteString + "/")!
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: leak.a)
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(leak.a.publicKey).id])))) {
            try await store(fixture, roots, file: leak.shipped, baseURL: slashed).update()
        }
        #expect(try await serving(store(fixture, roots, file: leak.shipped, baseURL: slashed)) == "installed 2026.11.3")

        // A new host that answers an HTML page with status 200 for any file it lacks: the next
        // root is refused in one request, and the release installed stays on screen.
        let mirror = FakeHost(base: URL(string: "https://mirror.example.org/cafe")!)
        for path in ["roots/1.json", "roots/2.json", "channels/stable/head.json"] { mirror.put(path, try #require(fixture.host.file(path))) }
        mirror.everythingElse = Data("<!doctype html><title>Not here</title>".utf8)
        let moved = store(fixture, roots, file: leak.shipped, baseURL: mirror.base, host: mirror)
        let error = try await #require(throws: BundleStoreError.self) { try await moved.update() }
        guard case .refused(.root("roots/3.json", .notAnEnvelope)) = error else { Issue.record("\(error)"); return }
        #expect(mirror.requestLog().map(\.path).filter { $0.hasPrefix("roots/") } == ["roots/3.json"])
        #expect(try await serving(moved) == "installed 2026.11.3")
    }

    @Test func aDamagedReleaseGivesWayToTheSeedNotToTheThiefs() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let leak = try await afterTheLeak(&fixture, roots)
        let store = store(fixture, roots, file: leak.shipped)
        // The thief's release is no longer the previous one, nor on the disk.
        let thiefsSHA = ChannelFixture.sha256(leak.thiefs)
        #expect(!FileManager.default.fileExists(atPath: fixture.storeFolder + "/bundles/\(thiefsSHA).sqlite"))
        // Release 3's file damaged: the seed is shown.
        let third = try #require(FileManager.default.contentsOfDirectory(atPath: fixture.storeFolder + "/bundles").first { $0.hasSuffix(".sqlite") })
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: fixture.storeFolder + "/bundles/" + third))
        #expect(try await serving(store) == "seed")
    }

    @Test func aStateKeptFromTheThiefsInstallIsMadeAgainFromTheHeads() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let leak = try await afterTheLeak(&fixture, roots)
        // store.json put back as it was after the thief's install (a backup restored): it names
        // his release alone, while 2026.11.3's bundle and B's head are in bundles/.
        let statePath = fixture.storeFolder + "/store.json"
        var state = try StoreState.load(statePath)
        let info = try ChannelFixture.info(of: leak.thiefs, in: fixture.folder)
        state.installed = [BundleStore.Release(releaseVersion: info.releaseVersion, releaseDate: info.releaseDate, sequence: 2,
                                               contentDigest: info.contentDigest, sha256: ChannelFixture.sha256(leak.thiefs), bytes: leak.thiefs.count)]
        try state.save(statePath)
        offline(fixture)
        let store = store(fixture, roots, file: leak.shipped)
        #expect(try await serving(store) == "seed")
        _ = try? await store.update()
        #expect(try await serving(store) == "installed 2026.11.3")
    }

    @Test func aStateNamingTheThiefsReleaseIsNotServedFrom() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (a, b) = (fixture.key, Curve25519.Signing.PrivateKey())
        let store = try await installedUnderRootOne(&fixture, roots)
        // The thief's release installed under root 1; its files kept aside.
        try fixture.publish(fixture.release("2026.11.2"), signer: a)
        guard case .installed(let thiefs) = try await store.update() else { Issue.record("not installed"); return }
        let bundles = fixture.storeFolder + "/bundles/"
        let aside = fixture.folder.appendingPathComponent("aside").path
        try FileManager.default.copyItem(atPath: bundles, toPath: aside)
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        try fixture.publish(fixture.release("2026.11.3"), signer: b)
        guard case .installed(let third) = try await store.update() else { Issue.record("not installed"); return }
        // A state (a process killed between writing a root and the state, or a state planted)
        // naming the thief's release as the previous one, its files back in place.
        for name in try FileManager.default.contentsOfDirectory(atPath: aside) where name.hasPrefix(thiefs.sha256) {
            try FileManager.default.copyItem(atPath: aside + "/" + name, toPath: bundles + name)
        }
        var state = try StoreState.load(fixture.storeFolder + "/store.json")
        state.installed = [third, thiefs]
        try state.save(fixture.storeFolder + "/store.json")
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: bundles + third.sha256 + ".sqlite"))
        let fresh = self.store(fixture, roots)
        let current = try await fresh.current()
        #expect(current.source == .seed)
        #expect(current.passedOver.contains("release 2026.11.2 is signed by none of the release keys of root 2"), "\(current.passedOver)")
        // An update drops it from the state.
        _ = try? await fresh.update()
        #expect(try StoreState.load(fixture.storeFolder + "/store.json").installed.contains(thiefs) == false)
    }

    @Test func aPlannedRotationKeepsTheReleaseThroughIt() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let store = try await installedUnderRootOne(&fixture, roots)
        let release = try #require(try StoreState.load(fixture.storeFolder + "/store.json").installed.first)
        // Root 2 hands the channel from A to B, and the head is renewed with B: read together.
        let b = Curve25519.Signing.PrivateKey()
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        var head = try ChannelHead.verified(fixture.host.file("channels/stable/head.json") ?? Data(), keys: [ChannelKey(fixture.key.publicKey)])
        head.sequence += 1
        try fixture.sign(head, with: b)
        let outcome = try await store.update()
        #expect(outcome == .upToDate(releaseVersion: release.releaseVersion))
        guard case .installed(let shown) = try await store.current().source else { Issue.record("not installed"); return }
        #expect(shown.sha256 == release.sha256 && shown.sequence == head.sequence)
        // The head kept beside the bundle is B's now: a state lost is rebuilt with the release.
        try FileManager.default.removeItem(atPath: fixture.storeFolder + "/store.json")
        offline(fixture)
        _ = try? await store.update()
        #expect(try await serving(self.store(fixture, roots)) == "installed " + release.releaseVersion)
    }

    @Test func aStoreKeptByTheClientBeforeRootFilesIsTakenOver() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let b = Curve25519.Signing.PrivateKey()
        _ = try await installedUnderRootOne(&fixture, roots)
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        guard case .installed = try await store(fixture, roots).update() else { Issue.record("not installed"); return }
        // The store as the client of 2026-11 kept it: its root (2) in store.json under the URL,
        // with the release keys of the roots before it, and no roots/ folder.
        let statePath = fixture.storeFolder + "/store.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        json["trust"] = [String: Any]()
        json["roots"] = [FakeHost.base.absoluteString: [
            "pinned": roots.pin.recorded, "version": 2,
            "envelope": try roots.root(2, release: [b]).base64EncodedString(),
            "formerReleaseKeys": [ChannelKey(fixture.key.publicKey).description],
        ] as [String: Any]]
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: statePath))
        try FileManager.default.removeItem(atPath: fixture.storeFolder + "/roots")

        // Offline at first: the release is served, by root 2's keys.
        offline(fixture)
        let store = store(fixture, roots)
        #expect(try await serving(store) == "installed 2026.11.2")
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/roots/2.json"))
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        #expect(saved["roots"] == nil && saved["trust"] == nil)
        // A head signed by A is refused, at another URL too.
        for path in ["channels/stable/head.json", "roots/1.json", "roots/2.json", "roots/3.json"] { fixture.host.fail(path, nil) }
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: fixture.key)
        await #expect(throws: BundleStoreError.self) { try await self.store(fixture, roots, baseURL: URL(string: FakeHost.base.absoluteString + "/")!).update() }
        #expect(try await serving(store) == "installed 2026.11.2")
    }
}

extension BundleStoreRootTests {
    /// Roots 1 (shipped, A), 2 (B) and 3 (B, renewed); the store installed 2026.11.2 under root 3.
    func underRootThree(_ fixture: inout ChannelFixture, _ roots: Roots) async throws -> (shipped: String, b: Curve25519.Signing.PrivateKey) {
        let b = Curve25519.Signing.PrivateKey()
        let shipped = fixture.folder.appendingPathComponent("root-1.json").path
        try roots.root(1, release: [fixture.key]).write(to: URL(fileURLWithPath: shipped))
        fixture.host.put("roots/1.json", try roots.root(1, release: [fixture.key]))
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        fixture.host.put("roots/3.json", try roots.root(3, release: [b], expires: Date(timeIntervalSince1970: 1_950_000_000)))
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        let outcome = try await store(fixture, roots, file: shipped).update()
        guard case .installed = outcome else { throw NotInstalled(outcome: outcome) }
        return (shipped, b)
    }

    @Test func aStoreOfTheClientBeforeRootFilesTwoRootsPastTheShippedOneIsNotRolledBack() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (shipped, b) = try await underRootThree(&fixture, roots)
        // As the client of 2026-11 kept it: root 3 in store.json, no roots/ folder.
        let statePath = fixture.storeFolder + "/store.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        json["rootTaken"] = nil
        json["trust"] = [String: Any]()
        json["roots"] = [FakeHost.base.absoluteString: [
            "pinned": roots.pin.recorded, "version": 3, "envelope": try #require(fixture.host.file("roots/3.json")).base64EncodedString(),
        ] as [String: Any]]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: statePath))
        try FileManager.default.removeItem(atPath: fixture.storeFolder + "/roots")
        // The release is shown at once, and a host holding root 2 back cannot take the store
        // back to root 1's key: a head A signs is not taken.
        let store = store(fixture, roots, file: shipped)
        #expect(try await serving(store) == "installed 2026.11.2")
        fixture.host.remove("roots/2.json")
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: fixture.key)
        let error = try await #require(throws: BundleStoreError.self) { try await store.update() }
        guard case .refused(.root("roots/2.json", .notARoot(let reason, _))) = error, reason.contains("took root 3") else { Issue.record("\(error)"); return }
        #expect(try await serving(store) == "installed 2026.11.2")
        // Served again, the chain is walked and kept; B's heads install.
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        try fixture.publish(fixture.release("2026.11.3"), sequence: (1 << 50) + 1, signer: b)
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.3")
        // Roots 2 and 3 kept as files (root 1 is the one the app ships).
        #expect((2...3).allSatisfy { FileManager.default.fileExists(atPath: fixture.storeFolder + "/roots/\($0).json") })
    }

    /// The client of 2026-11 took root 2 (dropping A) but kept the releases A signed, the
    /// thief's current: as a state it wrote, with or without the app shipping root 1.
    @Test(arguments: [true, false])
    func aStoreOfTheClientBeforeRootFilesShowsNoReleaseItsNewestRootDropped(shipsRoot: Bool) async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let shipped = fixture.folder.appendingPathComponent("root-1.json").path
        try roots.root(1, release: [fixture.key]).write(to: URL(fileURLWithPath: shipped))
        fixture.host.put("roots/1.json", try roots.root(1, release: [fixture.key]))
        let store = store(fixture, roots, file: shipsRoot ? shipped : nil)
        _ = try await fixture.installed("2026.11.1", in: store)
        _ = try await fixture.installed("2026.11.2", in: store)  // the thief's, signed by A too
        let statePath = fixture.storeFolder + "/store.json"
        #expect(try StoreState.load(statePath).installed.map(\.releaseVersion) == ["2026.11.2", "2026.11.1"])
        let b = Curve25519.Signing.PrivateKey()
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        json["rootTaken"] = nil
        json["channels"] = [String: Any]()
        json["trust"] = [String: Any]()
        json["roots"] = [FakeHost.base.absoluteString: [
            "pinned": roots.pin.recorded, "version": 2, "envelope": try roots.root(2, release: [b]).base64EncodedString(), "sequenceReset": true,
        ] as [String: Any]]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: statePath))
        try? FileManager.default.removeItem(atPath: fixture.storeFolder + "/roots")
        // Before any update, and after one that cannot reach the host: neither release A signed.
        let app = self.store(fixture, roots, file: shipsRoot ? shipped : nil)
        #expect(try await serving(app) == "seed")
        offline(fixture)
        _ = try? await app.update()
        #expect(try await serving(app) == "seed")
        #expect(try StoreState.load(statePath).installed.isEmpty)
    }

    @Test func keptRootsThatProveLessThanTheStoreTookDropNothing() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (shipped, _) = try await underRootThree(&fixture, roots)
        let statePath = fixture.storeFolder + "/store.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: statePath))
        // The app's root file missing: an error, and nothing changed.
        let missing = store(fixture, roots, file: shipped + ".gone")
        let error = try await #require(throws: BundleStoreError.self) { try await missing.update() }
        guard case .storage = error else { Issue.record("\(error)"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: statePath)) == before)
        // Root 2's kept file decayed and the host holds root 2 back: the store keeps its state
        // and its release, and refuses a head A signs.
        try Data("{".utf8).write(to: URL(fileURLWithPath: fixture.storeFolder + "/roots/2.json"))
        fixture.host.remove("roots/2.json")
        let store = store(fixture, roots, file: shipped)
        #expect(try await serving(store) == "installed 2026.11.2")
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: fixture.key)
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        #expect(try await serving(store) == "installed 2026.11.2")
        #expect(try StoreState.load(statePath).installed.map(\.releaseVersion) == ["2026.11.2"])
    }

    @Test func aHeadKeptBesideItsBundleAheadOfTheStateStillVouches() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let store = try await installedUnderRootOne(&fixture, roots)
        let b = Curve25519.Signing.PrivateKey()
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        var head = try ChannelHead.verified(fixture.host.file("channels/stable/head.json") ?? Data(), keys: [ChannelKey(fixture.key.publicKey)])
        head.sequence += 1
        try fixture.sign(head, with: b)
        _ = try await store.update()
        // Killed after the head beside the bundle was replaced, before the state was saved: the
        // state still names the release at its old sequence.
        let statePath = fixture.storeFolder + "/store.json"
        var state = try StoreState.load(statePath)
        state.installed[0].sequence -= 1
        try state.save(statePath)
        offline(fixture)
        let fresh = self.store(fixture, roots)
        _ = try? await fresh.update()
        #expect(try await serving(fresh) == "installed 2026.11.1")
    }

    @Test func aChannelMovedToAWellKeptHostGoesOn() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let leak = try await afterTheLeak(&fixture, roots)
        let mirror = FakeHost(base: URL(string: "https://mirror.example.org/cafe")!)
        for path in ["roots/1.json", "roots/2.json"] { mirror.put(path, try #require(fixture.host.file(path))) }
        let moved = store(fixture, roots, file: leak.shipped, baseURL: mirror.base, host: mirror)
        // The host's copy lags: the thief's head signed by A at a high sequence is refused.
        for (path, data) in fixture.host.filesPublished() { mirror.put(path, data) }
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 50, signer: leak.a)
        mirror.put("channels/stable/head.json", try #require(fixture.host.file("channels/stable/head.json")))
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(leak.a.publicKey).id])))) { try await moved.update() }
        // B's next release installs from the new host.
        let bundle = try fixture.release("2026.11.4")
        try fixture.publish(bundle, signer: leak.b)
        for (path, data) in fixture.host.filesPublished() { mirror.put(path, data) }
        guard case .installed(let release) = try await moved.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.4")
    }
}

/// A store pinning release keys: one trust for the channel whatever its URL, and a host that
/// answers every path asked one request for a key statement it does not have.
@Suite struct KeyTrustTests {
    @Test func aKeyPinnedStoreAsksOneMissingStatementOfAHostAnsweringEverything() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        fixture.host.everythingElse = Data("<!doctype html><title>Not here</title>".utf8)
        let store = fixture.store()
        try fixture.publish(fixture.release("2026.11.1"))
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().map(\.path).filter { $0.hasPrefix("keys/") } == ["keys/1.json"])
    }

    @Test func theKeysTakenAreKeptWhateverURLTheChannelIsServedAt() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        _ = try await fixture.installed("2026.11.1", in: store)
        // A statement hands the channel to B; the store takes it.
        let b = Curve25519.Signing.PrivateKey()
        let statement = KeyStatement(version: 1, keys: [ChannelKey(b.publicKey)])
        fixture.host.put("keys/1.json", try SignedEnvelope.signing(statement.encoded(), payloadType: KeyStatement.payloadType, with: [fixture.key, b]).encoded())
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // The store as the client of 2026-11 kept it: the trust under the URL.
        let statePath = fixture.storeFolder + "/store.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statePath))) as? [String: Any])
        json["trust"] = [FakeHost.base.absoluteString: json["keyTrust"]]
        json["keyTrust"] = nil
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: URL(fileURLWithPath: statePath))
        // At the URL with a trailing slash, statement 1 is not asked again, and B's heads verify.
        let slashed = BundleStore(folder: fixture.storeFolder, seed: ChannelFixture.small, keys: [ChannelKey(fixture.key.publicKey)],
                                  baseURL: URL(string: FakeHost.base.absoluteString + "/")!, channel: "stable", trust: InMemoryTrustStore(),
                                  transport: fixture.host, now: { Date(timeIntervalSince1970: 1_795_000_000) })
        fixture.host.clearLog()
        try fixture.publish(fixture.release("2026.11.3"), signer: b)
        guard case .installed = try await slashed.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().map(\.path).filter { $0.hasPrefix("keys/") } == ["keys/2.json"])
    }
}
