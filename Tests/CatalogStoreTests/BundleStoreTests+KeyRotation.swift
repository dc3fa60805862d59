import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// Key statements: a channel handed to a new key without an app update, and an app that pins new keys.
extension BundleStoreTests {
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
        await #expect(throws: BundleStoreError.transfer(.status(500, url: URL(string: "https://cdn.example.com/catalog/keys/1.json")!))) {
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
        #expect(try await store.current().source == .seed)
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

    /// An app pinning release key A, through RELEASES.md's steps after a leak as written: the
    /// thief's head signed by A (at the sequence the publisher uses next, or at the highest a
    /// head may have) is installed; the publisher publishes with B, then runs `digno rotate-key
    /// --key a.key --new-key b.key` (the statement, and the head signed again by both). The app
    /// takes the statement, forgets the thief's head (A alone signed it) and installs the
    /// publisher's release, with no `--renew` between.
    @Test(arguments: [2, ChannelHead.maximumSequence])
    func aKeyPinnedAppFollowsTheStepsAfterALeakAsWritten(thiefsSequence: Int) async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let (a, b) = (fixture.key, Curve25519.Signing.PrivateKey())
        try fixture.publish(fixture.release("2026.11.1"), sequence: 1, signer: a)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        try fixture.publish(fixture.release("2026.11.2"), sequence: thiefsSequence, signer: a)
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        // The publisher's folder never had the thief's head: its next sequence is 2.
        let head = try fixture.publish(fixture.release("2026.11.3"), sequence: 2, signer: b)
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(b.publicKey).id])))) { try await store.update() }
        fixture.host.put("keys/1.json", try statement(1, keys: [b], signers: [a, b]))
        try fixture.sign(head, with: [a, b])
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.3")
        // The thief's heads, signed by A, are refused from then on, at any sequence.
        try fixture.publish(fixture.release("2026.11.9"), sequence: ChannelHead.maximumSequence, signer: a)
        await #expect(throws: BundleStoreError.refused(.head(.notSigned(keyIDs: [ChannelKey(a.publicKey).id])))) { try await store.update() }
    }
}
