import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Crypto
import Foundation
import Testing

// Renewing a head, rotating the key, and heads or channels the publisher refuses.
extension ChannelPublisherTests {
    @Test func renewingPublishesTheSameHeadWithANewExpiryAndSequence() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ChannelPublisher.Failure.head("the channel has no head to renew; publish a bundle first")) {
            try publisher().renew(now: now, lifetime: 86_400)
        }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400).head
        let later = now.addingTimeInterval(20 * 86_400)
        let renewed = try publisher().renew(now: later, lifetime: 30 * 86_400).head
        var expected = first
        expected.sequence = 2
        expected.expires = later.addingTimeInterval(30 * 86_400)
        #expect(renewed == expected)
        #expect(try head() == expected)
    }

    @Test func aKeyRotationAnnouncesTheNewKeyAndSignsTheHeadsAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        let before = try head()
        let newKey = Curve25519.Signing.PrivateKey()
        let rotation = try publisher().rotateKey(to: newKey)
        #expect(rotation == .init(statementPath: "keys/1.json", heads: ["channels/stable/head.json"]))
        let statement = try Data(contentsOf: URL(fileURLWithPath: channel + "/keys/1.json"))
        let taken = try KeyStatement.verified(statement, trusted: [ChannelKey(key.publicKey)], version: 1)
        #expect(taken.keys == [ChannelKey(newKey.publicKey)])
        // The head: the same payload, signed by both keys, for clients on either side of the
        // statement.
        let data = try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json"))
        #expect(try ChannelHead.verified(data, keys: [ChannelKey(newKey.publicKey)]) == before)
        #expect(try ChannelHead.verified(data, keys: [ChannelKey(key.publicKey)]) == before)
        // Run again (as after a crash midway): the same statement, nothing new.
        #expect(try publisher().rotateKey(to: newKey) == rotation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: channel + "/keys") == ["1.json"])

        // The old key can neither publish nor rotate any more; the new one publishes, alone.
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) {
            try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        }
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) { try publisher().renew(now: now, lifetime: 86_400) }
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) { try publisher().rotateKey(to: Curve25519.Signing.PrivateKey()) }
        let next = ChannelPublisher(channelFolder: channel, channel: "stable", key: newKey)
        #expect(try next.publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400).head.sequence == 2)
        #expect(throws: ChannelError.self) { try ChannelHead.verified(Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")), keys: [ChannelKey(key.publicKey)]) }
        #expect(try next.rotateKey(to: Curve25519.Signing.PrivateKey()).statementPath == "keys/2.json")
        #expect(throws: ChannelPublisher.Failure.rotation("the new key is the one in use")) { try next.rotateKey(to: newKey) }
    }

    @Test func aHeadSignedByAnotherKeyOrABadChannelIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try bundle("2026.11.0")
        _ = try publisher().publish(bundle: path, now: now, lifetime: 86_400)
        let stranger = ChannelPublisher(channelFolder: channel, channel: "stable", key: Curve25519.Signing.PrivateKey())
        #expect {
            try stranger.publish(bundle: try bundle("2026.11.1", mark: "S"), now: now, lifetime: 86_400)
        } throws: { error in
            guard case .head(let reason, let cause?) = error as? ChannelPublisher.Failure else { return false }
            return reason.hasSuffix("is not a head this key signed (is this the channel's key?)")
                && cause.code == "channel:notSigned" && cause.message.hasPrefix("no trusted key signed this file")
        }
        for name in ["", "Stable", "../x", "a/b", "-x"] {
            let bad = ChannelPublisher(channelFolder: channel, channel: name, key: key)
            #expect(throws: ChannelPublisher.Failure.badChannelName(name)) { try bad.publish(bundle: path, now: now, lifetime: 1) }
        }
        #expect(throws: ChannelPublisher.Failure.self) { try publisher().publish(bundle: folder.appendingPathComponent("none.sqlite").path, now: now, lifetime: 1) }
    }
}
