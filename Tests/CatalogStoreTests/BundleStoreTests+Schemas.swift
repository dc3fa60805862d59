import CatalogModel
@testable import CatalogStore
import ChannelFormat
import Crypto
import Foundation
import Testing

/// A channel that serves one release in several bundle schemas (issue 36): the head's own fields
/// the oldest (2, for the apps in the field, which ignore the rest), `schemas` the newer. This
/// library installs the newest schema it reads.
extension BundleStoreTests {
    @Test func theNewestSchemaTheLibraryReadsIsInstalled() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        // The small fixture's content in the three schemas (one content digest), over a seed of other content.
        let store = fixture.store(seed: ChannelFixture.shipped)
        let old = try fixture.release("2026.12.0", from: ChannelFixture.smallSchema2)
        let middle = try fixture.release("2026.12.0", from: ChannelFixture.smallSchema3)
        let new = try fixture.release("2026.12.0", from: ChannelFixture.small)
        let head = try fixture.publish(old, schema: 2, schemas: [(3, middle), (4, new)])
        #expect(head.schemaVersion == 2 && head.schemas?.map(\.schemaVersion) == [3, 4])
        let outcome = try await store.update()
        guard case .installed(let release) = outcome else { Issue.record("not installed: \(outcome)"); return }
        #expect(release.sha256 == ChannelFixture.sha256(new))
        let current = try await store.current().bundle
        #expect(current.release.schemaVersion == 4 && current.release.releaseVersion == "2026.12.0")
        // Neither older schema's bundle was fetched.
        #expect(!fixture.host.requestLog().contains {
            [old, middle].map { "bundles/\(ChannelFixture.sha256($0)).sqlite" }.contains($0.path)
        })
        // Started again, the store finds the schema 4 release by its kept head.
        #expect(try await fixture.store(seed: ChannelFixture.shipped).current().bundle.release.schemaVersion == 4)
    }

    @Test func aNewerSchemaThanTheLibraryReadsLeavesTheNewestItReads() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let readable = try fixture.release("2026.12.0", from: ChannelFixture.shipped)
        let future = try fixture.release("2026.12.0", from: ChannelFixture.small)
        let newer = CatalogBundle.supportedSchemaVersion + 1
        try fixture.publish(readable, schema: CatalogBundle.supportedSchemaVersion, schemas: [(newer, future)])
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.sha256 == ChannelFixture.sha256(readable))

        // Nothing it reads: the newest offered is what it needs an app update for.
        try fixture.publish(try fixture.release("2026.12.1"), schema: newer + 1, schemas: [(newer, future)])
        #expect(try await store.update() == .schemaNotSupported(releaseVersion: "2026.12.1", schemaVersion: newer + 1,
                                                                supported: CatalogBundle.supportedSchemaVersion))
    }

    @Test func aHeadOffersEachSchemaOnce() throws {
        let file = ChannelHead.BundleFile(path: "bundles/a.sqlite", sha256: String(repeating: "a", count: 64), bytes: 10)
        let release = ChannelHead.SchemaRelease(schemaVersion: 3, bundle: file, retained: [])
        let twice = ChannelHead(channel: "stable", sequence: 1, releaseVersion: "2026.12.0", releaseDate: Day("2026-12-01")!, schemaVersion: 3,
                                contentDigest: String(repeating: "b", count: 64), bundle: file, expires: Date(timeIntervalSince1970: 1_800_000_000),
                                retained: [], schemas: [release])
        let key = Curve25519.Signing.PrivateKey()
        let envelope = try SignedEnvelope.signing(twice.encoded(), payloadType: ChannelHead.payloadType, with: key).encoded()
        #expect(throws: ChannelError.self) { try ChannelHead.verified(envelope, keys: [ChannelKey(key.publicKey)]) }
        var climbing = twice
        climbing.schemaVersion = 2
        climbing.schemas = [ChannelHead.SchemaRelease(schemaVersion: 3, bundle: .init(path: "bundles/../../etc/passwd", sha256: file.sha256, bytes: 1),
                                                       retained: [])]
        let bad = try SignedEnvelope.signing(climbing.encoded(), payloadType: ChannelHead.payloadType, with: key).encoded()
        #expect(throws: ChannelError.notAHead("'bundles/../../etc/passwd' is not a path under bundles/")) {
            try ChannelHead.verified(bad, keys: [ChannelKey(key.publicKey)])
        }
        // Seen by a client of schema 2 alone, a head offering 2 and 3 is its schema 2 release.
        climbing.schemas![0].bundle.path = "bundles/b.sqlite"
        #expect(climbing.forSchemas(2...2).bundle == file && climbing.forSchemas(2...3).bundle.path == "bundles/b.sqlite")
        #expect(climbing.forSchemas(2...3).schemas == nil && climbing.forSchemas(2...3).schemaVersion == 3)
    }
}

/// A seed of an older schema than the library reads best (an app that shipped
/// `catalog.schema-2.sqlite`, which `digno build` writes beside the bundle): shown, since the
/// app must have a bundle, and said, so that its developer sees it in development.
extension BundleStoreTests {
    @Test func anOlderSchemasSeedIsShownAndSaid() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        for (seed, schema) in [(ChannelFixture.smallSchema2, 2), (ChannelFixture.smallSchema3, 3)] {
            let current = try await fixture.store(seed: seed).current()
            #expect(current.source == .seed && current.bundle.release.schemaVersion == schema)
            let older = try #require(current.olderSeed)
            #expect(older == BundleStore.OlderSeed(schemaVersion: schema, best: CatalogBundle.supportedSchemaVersion))
            #expect(older.description.contains("the seed is a bundle of schema \(schema)") && older.description.contains("ship dist/catalog.sqlite"))
        }
        #expect(try await fixture.store(seed: ChannelFixture.small).current().olderSeed == nil)
        // An installed release of the newest schema over an older seed: nothing to say.
        let store = fixture.store(seed: ChannelFixture.smallSchema2)
        try fixture.publish(try fixture.release("2026.12.0", from: ChannelFixture.shipped), schema: CatalogBundle.supportedSchemaVersion)
        #expect(try await store.update() != .upToDate(releaseVersion: "2026.11.0"))
        let current = try await store.current()
        #expect(current.source != .seed)
        #expect(current.olderSeed == nil)
    }
}
