import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Crypto
import Foundation
import Testing

/// `digno root`: a root drafted, signed on each root key's machine, published once enough
/// signed it; and `digno publish` under a root asking for several release keys.
@Suite(.serialized) struct ChannelRootsTests {
    let folder: URL
    var channel: String { folder.appendingPathComponent("channel").path }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let rootKeys = (0..<3).map { _ in Curve25519.Signing.PrivateKey() }
    let releaseKeys = (0..<2).map { _ in Curve25519.Signing.PrivateKey() }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-root-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var roots: ChannelRoots { ChannelRoots(channelFolder: channel) }

    /// Root `n`'s draft naming `release` (indexes of `releaseKeys`), signed by `signers` (indexes
    /// of `rootKeys`), one signature per step as on separate machines.
    func signedRoot(release: [Int], threshold: Int = 1, signers: [Int]) throws -> Data {
        var (_, envelope) = try roots.draft(releaseKeys: release.map { ChannelKey(releaseKeys[$0].publicKey) }, releaseThreshold: threshold,
                                            rootKeys: roots.newest() == nil ? rootKeys.map { ChannelKey($0.publicKey) } : nil,
                                            rootThreshold: roots.newest() == nil ? 2 : nil, expires: now.addingTimeInterval(365 * 86_400), now: now)
        for signer in signers { envelope = try roots.sign(envelope, with: rootKeys[signer]).envelope }
        return envelope
    }

    @Test func aRootIsDraftedSignedKeyByKeyAndPublishedAsAClientTakesIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // One signature of the two needed: refused, nothing written.
        let once = try signedRoot(release: [0], signers: [0])
        #expect(throws: ChannelRoots.Failure.notEnoughSignatures(.tooFewSignatures(found: 1, needed: 2, of: "the trusted root keys"),
                                                                 keys: rootKeys.map { ChannelKey($0.publicKey) })) {
            try roots.publish(once, now: now)
        }
        #expect(!FileManager.default.fileExists(atPath: channel + "/roots/1.json"))
        // The same key signing twice counts once.
        #expect(throws: ChannelRoots.Failure.self) { try roots.publish(try roots.sign(once, with: rootKeys[0]).envelope, now: now) }
        let twice = try roots.sign(once, with: rootKeys[2]).envelope
        #expect(try roots.publish(twice, now: now).path == "roots/1.json")
        // Published again, the same bytes: nothing to do; other bytes at that version: refused.
        #expect(try roots.publish(twice, now: now).root.version == 1)
        // A client pinning the root keys takes it.
        let pin = try PinnedRootCheck.first(twice, keys: rootKeys.map { ChannelKey($0.publicKey) }, threshold: 2)
        #expect(pin.releaseKeys == [ChannelKey(releaseKeys[0].publicKey).description])

        // Root 2 (a rotation of the release key), drafted from root 1's root keys.
        let second = try signedRoot(release: [1], signers: [1, 2])
        #expect(try roots.publish(second, now: now).path == "roots/2.json")
        #expect(throws: ChannelRoots.Failure.versionTaken(1)) { try roots.publish(try signedRoot(release: [0], signers: [0, 1]).replacingVersion(1), now: now) }
        // An expired draft is refused; a file at the next version, even one that does not read, is never replaced.
        var (_, late) = try roots.draft(releaseKeys: [ChannelKey(releaseKeys[0].publicKey)], releaseThreshold: 1, rootKeys: nil, rootThreshold: nil,
                                        expires: now.addingTimeInterval(60), now: now)
        for index in [0, 1] { late = try roots.sign(late, with: rootKeys[index]).envelope }
        #expect(throws: ChannelRoots.Failure.self) { try roots.publish(late, now: now.addingTimeInterval(61)) }
        try Data("not a root".utf8).write(to: URL(fileURLWithPath: channel + "/roots/3.json"))
        #expect(throws: ChannelRoots.Failure.versionTaken(3)) { try roots.publish(late, now: now) }
        // A key that is no root key cannot sign.
        #expect(throws: ChannelRoots.Failure.self) { try roots.sign(try signedRoot(release: [0], signers: []), with: releaseKeys[0]) }
    }

    @Test func theRootKeysAreReplacedBySigningWithTheOldAndTheNew() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try roots.publish(try signedRoot(release: [0], signers: [0, 1]), now: now)
        let replacements = (0..<2).map { _ in Curve25519.Signing.PrivateKey() }
        var (_, draft) = try roots.draft(releaseKeys: [ChannelKey(releaseKeys[0].publicKey)], releaseThreshold: 1,
                                         rootKeys: replacements.map { ChannelKey($0.publicKey) }, rootThreshold: 2,
                                         expires: now.addingTimeInterval(86_400 * 365), now: now)
        // The new keys alone are not enough: root 1's threshold of its keys must sign too.
        for key in replacements { draft = try roots.sign(draft, with: key).envelope }
        #expect(throws: ChannelRoots.Failure.notEnoughSignatures(.notSigned(keyIDs: replacements.map { ChannelKey($0.publicKey).id }.sorted()),
                                                                 keys: rootKeys.map { ChannelKey($0.publicKey) })) {
            try roots.publish(draft, now: now)
        }
        for index in [0, 2] { draft = try roots.sign(draft, with: rootKeys[index]).envelope }
        #expect(try roots.publish(draft, now: now).root.rootKeys == replacements.map { ChannelKey($0.publicKey).description })
    }

    @Test func aHeadIsSignedByAsManyReleaseKeysAsTheRootAsks() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try roots.publish(try signedRoot(release: [0, 1], threshold: 2, signers: [0, 1]), now: now)
        let content = try Fixtures.makeContent { _ in }
        defer { Fixtures.remove(content) }
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        let builder = BundleBuilder(contentFolder: content.path, output: bundle, releaseVersion: "2026.11.0", today: Fixtures.today)
        _ = try builder.writeAll(try builder.validate())
        let one = ChannelPublisher(channelFolder: channel, channel: "stable", key: releaseKeys[0], deltaEncoder: nil)
        #expect(throws: ChannelPublisher.Failure.self) { try one.publish(bundle: bundle, now: now, lifetime: 86_400) }
        var two = one
        two.otherKeys = [releaseKeys[1]]
        let outcome = try two.publish(bundle: bundle, now: now, lifetime: 86_400)
        #expect(outcome.root?.version == 1)
        let envelope = try Data(contentsOf: URL(fileURLWithPath: channel + "/" + outcome.headPath))
        #expect(try ChannelHead.verified(envelope, keys: releaseKeys.map { ChannelKey($0.publicKey) }, threshold: 2) == outcome.head)

        // Root 2 names key 1 alone; the head signed before by keys 0 and 1 is still the publisher's previous.
        _ = try roots.publish(try signedRoot(release: [1], signers: [1, 2]), now: now)
        let next = ChannelPublisher(channelFolder: channel, channel: "stable", key: releaseKeys[1], deltaEncoder: nil)
        #expect(try next.renew(now: now, lifetime: 86_400).head.sequence == 2)
    }
}

/// A root as a client takes it first, for the tests: its keys once verified by `keys`.
enum PinnedRootCheck {
    static func first(_ data: Data, keys: [ChannelKey], threshold: Int) throws -> RootStatement {
        try RootStatement.verified(data, trusted: keys, threshold: threshold, version: 1).root
    }
}

extension Data {
    /// A root envelope's payload with another version (its signatures then no longer match).
    func replacingVersion(_ version: Int) throws -> Data {
        var envelope = try JSONDecoder().decode(SignedEnvelope.self, from: self)
        var root = try RootStatement.decoder.decode(RootStatement.self, from: Data(base64Encoded: envelope.payload) ?? Data())
        root.version = version
        envelope.payload = root.encoded().base64EncodedString()
        return envelope.encoded()
    }
}
