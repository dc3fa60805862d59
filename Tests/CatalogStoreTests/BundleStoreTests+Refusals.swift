import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// What the store refuses (heads, bundles) and how a host's errors are told; nothing changes after any of them.
extension BundleStoreTests {
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
        #expect(try await store.current().bundle.release.releaseVersion == "2026.11.1")
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
        #expect(try await fixture.store().current().bundle.release.releaseVersion == "2026.11.2")
    }

    @Test func anExpiredHeadOrANewerSchemaInstallsNothing() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let store = fixture.store(now: now)
        let expired = now.addingTimeInterval(-1)
        try fixture.publish(fixture.release("2026.11.1"), expires: expired)
        #expect(try await store.update() == .expired(releaseVersion: "2026.11.1", expired: expired))
        let newer = CatalogBundle.supportedSchemaVersion + 1
        try fixture.publish(fixture.release("2026.11.2"), schema: newer)
        #expect(try await store.update() == .schemaNotSupported(releaseVersion: "2026.11.2", schemaVersion: newer, supported: CatalogBundle.supportedSchemaVersion))
        #expect(fixture.host.requestLog().allSatisfy { !$0.path.hasPrefix("bundles/") })
        #expect(try await store.current().source == .seed)
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
            #expect(try await store.current().source == .seed)
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
        #expect(try await store.current().source == .seed)
    }

    @Test func hostErrorsAreTransferErrors() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        await #expect(throws: BundleStoreError.transfer(.status(404, url: URL(string: "https://cdn.example.com/catalog/channels/stable/head.json")!))) {
            try await store.update()
        }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        fixture.host.fail("channels/stable/head.json", .status(500))
        await #expect(throws: BundleStoreError.transfer(.status(500, url: URL(string: "https://cdn.example.com/catalog/channels/stable/head.json")!))) {
            try await store.update()
        }
        fixture.host.fail("channels/stable/head.json", nil)
        fixture.host.remove(head.bundle.path)
        await #expect(throws: BundleStoreError.transfer(.status(404, url: URL(string: "https://cdn.example.com/catalog/\(head.bundle.path)")!))) {
            try await store.update()
        }
        #expect(try await store.current().source == .seed)
    }
}
