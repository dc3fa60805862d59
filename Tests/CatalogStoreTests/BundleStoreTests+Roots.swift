import CatalogModel
@testable import CatalogStore
import ChannelFormat
import Crypto
import Foundation
import Testing

/// Roots on a fake host: an app pinning root keys follows the release keys each root names,
/// walks a chain of roots, and refuses what the root keys did not sign.
@Suite struct BundleStoreRootTests {
    /// Three root keys (two of which sign each root) and the roots published so far.
    struct Roots {
        let keys = (0..<3).map { _ in Curve25519.Signing.PrivateKey() }
        var pin: PinnedRoot { try! PinnedRoot(keys: keys.map { ChannelKey($0.publicKey) }, threshold: 2) }

        /// Root `version` naming `release` (threshold `releaseThreshold`), signed by `signers`
        /// (the first two root keys by default).
        func root(_ version: Int, release: [Curve25519.Signing.PrivateKey], releaseThreshold: Int = 1,
                  expires: Date = Date(timeIntervalSince1970: 1_900_000_000), signers: [Curve25519.Signing.PrivateKey]? = nil,
                  rootKeys: [Curve25519.Signing.PrivateKey]? = nil, rootThreshold: Int = 2) throws -> Data {
            let statement = RootStatement(version: version, expires: expires, rootKeys: (rootKeys ?? keys).map { ChannelKey($0.publicKey) },
                                          rootThreshold: rootThreshold, releaseKeys: release.map { ChannelKey($0.publicKey) },
                                          releaseThreshold: releaseThreshold)
            return try SignedEnvelope.signing(statement.encoded(), payloadType: RootStatement.payloadType,
                                              with: signers ?? Array(keys.prefix(2))).encoded()
        }
    }

    func store(_ fixture: ChannelFixture, _ roots: Roots, file: String? = nil, now: Date = Date(timeIntervalSince1970: 1_795_000_000),
               baseURL: URL = FakeHost.base, host: FakeHost? = nil) -> BundleStore {
        let pin = try! PinnedRoot(keys: roots.pin.keys, threshold: 2, file: file)
        return BundleStore(folder: fixture.storeFolder, seed: ChannelFixture.small, anchor: .root(pin), baseURL: baseURL,
                           channel: "stable", trust: InMemoryTrustStore(), transport: host ?? fixture.host, now: { now })
    }

    /// A store pinning `roots`' keys that has installed 2026.11.1 under root 1, which names the
    /// fixture's key (A).
    func installedUnderRootOne(_ fixture: inout ChannelFixture, _ roots: Roots) async throws -> BundleStore {
        fixture.host.put("roots/1.json", try roots.root(1, release: [fixture.key]))
        let store = store(fixture, roots)
        try fixture.publish(fixture.release("2026.11.1"))
        let outcome = try await store.update()
        guard case .installed = outcome else { throw NotInstalled(outcome: outcome) }
        return store
    }

    struct NotInstalled: Error {
        var outcome: BundleStore.UpdateOutcome
    }

    /// The store's files, to show that a refusal left them as they were.
    func files(_ fixture: ChannelFixture) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: fixture.storeFolder)
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? FileManager.DirectoryEnumerator() {
            if let data = try? Data(contentsOf: url) { files[url.path] = data }
        }
        return files
    }

    @Test func aLeakedReleaseKeyIsReplacedByTheNextRootWithNoAppUpdate() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (a, b) = (fixture.key, Curve25519.Signing.PrivateKey())
        let store = try await installedUnderRootOne(&fixture, roots)

        // A leaks. The root keys sign root 2, naming B; heads are signed by B from now on.
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        guard case .installed(let second) = try await store.update() else { Issue.record("not installed"); return }
        #expect(second.releaseVersion == "2026.11.2")

        // The thief's head, signed by A: refused, and the store keeps what it has.
        let before = try files(fixture)
        try fixture.publish(fixture.release("2026.11.3"), signer: a)
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(a.publicKey).id])))) { try await store.update() }
        let after = try files(fixture)
        #expect(after == before, "\(after.keys.filter { after[$0] != before[$0] }) \(before.keys.filter { after[$0] == nil })")
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.2")
    }

    @Test func aForgedRootSignedByTheLeakedReleaseKeyIsRefused() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (a, thief) = (fixture.key, Curve25519.Signing.PrivateKey())
        let store = try await installedUnderRootOne(&fixture, roots)
        let before = try files(fixture)
        // Root 2 naming the thief's key, signed by A and by the thief's: no root key signed it.
        fixture.host.put("roots/2.json", try roots.root(2, release: [thief], signers: [a, thief], rootKeys: [a, thief], rootThreshold: 1))
        try fixture.publish(fixture.release("2026.11.2"), signer: thief)
        let error = try await #require(throws: BundleStoreError.self) { try await store.update() }
        guard case .refused(.root("roots/2.json", .notSigned)) = error else { Issue.record("\(error)"); return }
        #expect(try files(fixture) == before)
        // One root key is not enough either (two of three sign a root).
        fixture.host.put("roots/2.json", try roots.root(2, release: [thief], signers: [roots.keys[0]]))
        let one = try await #require(throws: BundleStoreError.self) { try await store.update() }
        guard case .refused(.root("roots/2.json", .tooFewSignatures(found: 1, needed: 2, of: _))) = one else { Issue.record("\(one)"); return }
        #expect(try files(fixture) == before)
    }

    @Test func aRootThatIsNotTheNextOrNotARootIsRefusedWithItsReason() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let store = try await installedUnderRootOne(&fixture, roots)
        let before = try files(fixture)
        let cases: [(Data, (BundleStoreError) -> Bool)] = [
            // Skips a version: root 3 at the place of root 2.
            (try roots.root(3, release: [fixture.key]), { if case .refused(.root(_, .notARoot(let said, _))) = $0 { said.contains("version 3") } else { false } }),
            // Larger than a signed file may be (10 MB).
            (Data(repeating: 0x20, count: 10 << 20), { $0 == .refused(.headTooLarge(limit: BundleStore.headSizeLimit)) }),
            // A threshold above its keys.
            (try roots.root(2, release: [fixture.key], releaseThreshold: 2), { if case .refused(.root(_, .notARoot)) = $0 { true } else { false } }),
            // Not a signed envelope at all.
            (Data("{}".utf8), { if case .refused(.root(_, .notAnEnvelope)) = $0 { true } else { false } }),
        ]
        for (index, (root, expected)) in cases.enumerated() {
            fixture.host.put("roots/2.json", root)
            let error = try await #require(throws: BundleStoreError.self) { try await store.update() }
            #expect(expected(error), "case \(index): \(error)")
            #expect(try files(fixture) == before, "case \(index)")
        }
    }

    @Test func anExpiredRootStopsUpdatesUntilARenewedOneIsServed() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let expired = Date(timeIntervalSince1970: 1_790_000_000)
        fixture.host.put("roots/1.json", try roots.root(1, release: [fixture.key], expires: expired))
        let store = store(fixture, roots)
        try fixture.publish(fixture.release("2026.11.1"))
        await #expect(throws: BundleStoreError.refused(.rootExpired(version: 1, expired: expired))) { try await store.update() }
        #expect(try await store.current().source == .seed)
        // The release manager signs a renewed root offline: the next update installs.
        fixture.host.put("roots/2.json", try roots.root(2, release: [fixture.key]))
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
    }

    @Test func aChainOfFortyRootsIsWalkedOverTwoUpdates() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        var releaseKeys = [fixture.key]
        for version in 1...40 {
            if version > 1 { releaseKeys = [Curve25519.Signing.PrivateKey()] }
            fixture.host.put("roots/\(version).json", try roots.root(version, release: releaseKeys))
        }
        let store = store(fixture, roots)
        try fixture.publish(fixture.release("2026.11.1"), signer: releaseKeys[0])
        fixture.host.clearLog()
        // The first update takes root 1 and 32 more, sees that root 34 waits, keeps what it took
        // and judges no head by root 33.
        await #expect(throws: BundleStoreError.refused(.rootsPending(taken: 33))) { try await store.update() }
        #expect(fixture.host.requestLog().map(\.path).filter { $0.hasPrefix("roots/") } == (1...34).map { "roots/\($0).json" })
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().map(\.path).filter { $0.hasPrefix("roots/") }.suffix(8) == (34...41).map { "roots/\($0).json" })
    }

    @Test func aRootDroppingTheThiefsKeyLetsTheLegitimateSequenceThroughButNoOlderRelease() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let (a, b) = (fixture.key, Curve25519.Signing.PrivateKey())
        // Root 1 names A and B; the publisher's release 2026.11.3 is signed by both.
        fixture.host.put("roots/1.json", try roots.root(1, release: [a, b]))
        let store = store(fixture, roots)
        try fixture.publish(fixture.release("2026.11.3"), sequence: 3, signer: a)
        var head = try ChannelHead.verified(fixture.host.file("channels/stable/head.json") ?? Data(), keys: [ChannelKey(a.publicKey)])
        let signedByBoth = head
        try fixture.sign(signedByBoth, with: [a, b])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // The thief, with A alone, pushes the sequence far ahead and installs release 2026.11.9.
        try fixture.publish(fixture.release("2026.11.9"), sequence: 1 << 40, signer: a)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // Root 2 drops A. The publisher's heads, signed by B, have ordinary sequences.
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        // A release older than the one B stands behind (2026.11.3) is refused ...
        try fixture.publish(fixture.release("2026.11.1"), sequence: 4, signer: b)
        let older = try await #require(throws: BundleStoreError.self) { try await store.update() }
        #expect(older == .refused(.olderThanInstalled(releaseVersion: "2026.11.1", installed: "2026.11.3")))
        // ... and the next one installs, though its version is below the thief's and its
        // sequence far below his: the thief's release, signed by A alone, does not count.
        head = try fixture.publish(fixture.release("2026.11.4"), sequence: 5, signer: b)
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.4" && head.sequence == 5)
    }

    @Test func aRootRaisingTheThresholdIsMetEvenWhenTheHeadIsUnchanged() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let store = try await installedUnderRootOne(&fixture, roots)
        // Root 2 asks for two signatures; the host answers the head's ETag with 304.
        let c = Curve25519.Signing.PrivateKey()
        fixture.host.put("roots/2.json", try roots.root(2, release: [fixture.key, c], releaseThreshold: 2))
        await #expect(throws: BundleStoreError.refused(.head(.tooFewSignatures(found: 1, needed: 2, of: "the release keys")))) {
            try await store.update()
        }
        // Root 2 vouches for no release the store has: the seed is shown meanwhile.
        #expect(try await store.current().source == .seed)
        // Signed by both: the same release, vouched for again and shown, with nothing downloaded.
        let head = try ChannelHead.verified(fixture.host.file("channels/stable/head.json") ?? Data(), keys: [ChannelKey(fixture.key.publicKey)])
        try fixture.sign(head, with: [fixture.key, c])
        fixture.host.clearLog()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(try await store.current().source == .installed(release))
        #expect(!fixture.host.requestLog().contains { $0.path.hasPrefix("bundles/") || $0.path.hasPrefix("deltas/") })
        guard case .upToDate = try await store.update() else { Issue.record("not up to date"); return }
    }

    @Test func aNewerRootShippedInAnAppUpdateOvertakesTheOneKept() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        _ = try await installedUnderRootOne(&fixture, roots)
        // The host hides roots 2 and 3 (which dropped A); the app update ships root 3.
        let b = Curve25519.Signing.PrivateKey()
        let shipped = fixture.folder.appendingPathComponent("root-3.json")
        try roots.root(3, release: [b]).write(to: shipped)
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        guard case .installed(let release) = try await store(fixture, roots, file: shipped.path).update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.2")
        // A head signed by A alone is refused from then on.
        try fixture.publish(fixture.release("2026.11.3"), signer: fixture.key)
        await #expect(throws: BundleStoreError.self) { try await store(fixture, roots, file: shipped.path).update() }
    }

    @Test func theRootShippedWithTheAppIsWhereTheWalkStarts() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let b = Curve25519.Signing.PrivateKey()
        // The channel's roots 1 and 2 (the host lost root 1); the app ships root 2.
        let shipped = fixture.folder.appendingPathComponent("root.json")
        try roots.root(2, release: [b]).write(to: shipped)
        fixture.host.put("roots/2.json", try roots.root(2, release: [b]))
        let store = store(fixture, roots, file: shipped.path)
        try fixture.publish(fixture.release("2026.11.1"), signer: b)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // A head needs as many signatures as the root asks: root 3 asks for two.
        let c = Curve25519.Signing.PrivateKey()
        fixture.host.put("roots/3.json", try roots.root(3, release: [b, c], releaseThreshold: 2))
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        await #expect(throws: BundleStoreError.refused(.head(.tooFewSignatures(found: 1, needed: 2, of: "the release keys")))) { try await store.update() }
        var head = try ChannelHead.verified(fixture.host.file("channels/stable/head.json") ?? Data(), keys: [ChannelKey(b.publicKey)])
        head.sequence += 1
        try fixture.sign(head, with: [b, c])
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
    }

    @Test func theRootKeysAreReplacedTheSameWay() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let roots = Roots()
        let store = try await installedUnderRootOne(&fixture, roots)
        let replacements = (0..<2).map { _ in Curve25519.Signing.PrivateKey() }
        // Root 2 hands the roots to two new keys: signed by two old ones and the two new ones.
        fixture.host.put("roots/2.json", try roots.root(2, release: [fixture.key], signers: Array(roots.keys.prefix(2)) + replacements,
                                                        rootKeys: replacements, rootThreshold: 2))
        // Root 3 signed by the old root keys alone: no longer trusted.
        let b = Curve25519.Signing.PrivateKey()
        fixture.host.put("roots/3.json", try roots.root(3, release: [b], signers: Array(roots.keys.prefix(2)), rootKeys: replacements))
        try fixture.publish(fixture.release("2026.11.2"), signer: b)
        let error = try await #require(throws: BundleStoreError.self) { try await store.update() }
        guard case .refused(.root("roots/3.json", .notSigned)) = error else { Issue.record("\(error)"); return }
        // Signed by the new ones: taken, and B's head installs.
        fixture.host.put("roots/3.json", try roots.root(3, release: [b], signers: replacements, rootKeys: replacements))
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.2")
    }
}
