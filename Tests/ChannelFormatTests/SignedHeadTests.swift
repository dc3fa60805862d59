import CatalogModel
@testable import ChannelFormat
import Crypto
import Foundation
import Testing

/// A channel's head is read only once a pinned key has signed its exact bytes, and only if it
/// reads as a head.
@Suite struct SignedHeadTests {
    let key = Curve25519.Signing.PrivateKey()
    var pinned: ChannelKey { ChannelKey(key.publicKey) }

    static let sha = String(repeating: "ab", count: 32)

    func head(sequence: Int = 3, path: String = "bundles/\(sha).sqlite", sha256: String = sha) -> ChannelHead {
        ChannelHead(
            channel: "stable", sequence: sequence, releaseVersion: "2026.11.0", releaseDate: Day("2026-11-22")!,
            schemaVersion: 2, contentDigest: String(repeating: "cd", count: 32),
            bundle: .init(path: path, sha256: sha256, bytes: 1_234), expires: Date(timeIntervalSince1970: 1_800_000_000),
            retained: [.init(path: "bundles/\(String(repeating: "01", count: 32)).sqlite", sha256: String(repeating: "01", count: 32), bytes: 99)])
    }

    func signed(_ payload: Data, type: String = ChannelHead.payloadType, by signer: Curve25519.Signing.PrivateKey? = nil) throws -> Data {
        try SignedEnvelope.signing(payload, payloadType: type, with: signer ?? key).encoded()
    }

    @Test func theSigningInputIsDSSEsPreAuthEncoding() {
        // The example in the DSSE protocol's description.
        let input = SignedEnvelope.signingInput(payloadType: "http://example.com/HelloWorld", payload: Data("hello world".utf8))
        #expect(String(decoding: input, as: UTF8.self) == "DSSEv1 29 http://example.com/HelloWorld 11 hello world")
    }

    @Test func aSignedHeadReadsBack() throws {
        let envelope = try signed(head().encoded())
        #expect(try ChannelHead.verified(envelope, keys: [pinned]) == head())
        // Another pinned key beside it changes nothing; one valid signature is enough.
        let other = ChannelKey(Curve25519.Signing.PrivateKey().publicKey)
        #expect(try ChannelHead.verified(envelope, keys: [other, pinned]) == head())
        // The published bytes: sorted keys, ISO 8601 dates.
        let text = String(decoding: head().encoded(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"bundle":{"bytes":1234,"path":"bundles/"#))
        #expect(text.contains(#""expires":"2027-01-15T08:00:00Z""#))
        #expect(text.contains(#""releaseDate":"2026-11-22""#))
    }

    /// Keys a reader does not know are ignored, so that a newer publisher's head (one with
    /// `notesFrom`, say) installs on today's apps; a head without `notesFrom` has none.
    @Test func aHeadWithKeysTheReaderDoesNotKnowReadsAsTheHeadItKnows() throws {
        #expect(!String(decoding: head().encoded(), as: UTF8.self).contains("notesFrom"), "absent when there are none: the same bytes as before")
        var object = try #require(try JSONSerialization.jsonObject(with: head().encoded()) as? [String: Any])
        object["aKeyOfTheFuture"] = ["anything": [1, 2, 3]]
        let payload = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        #expect(try ChannelHead.verified(try signed(payload), keys: [pinned]) == head())
    }

    @Test func tamperedBytesAnotherKeyOrAnotherTypeAreRefused() throws {
        let envelope = try signed(head().encoded())
        // One byte of the payload changed, the signature kept.
        var decoded = try JSONDecoder().decode(SignedEnvelope.self, from: envelope)
        var payload = try #require(Data(base64Encoded: decoded.payload))
        payload[payload.startIndex + 20] ^= 0x01
        decoded.payload = payload.base64EncodedString()
        #expect(throws: ChannelError.notSigned(keyIDs: [pinned.id])) { try ChannelHead.verified(decoded.encoded(), keys: [pinned]) }
        // Signed by a key the app does not pin.
        let stranger = Curve25519.Signing.PrivateKey()
        #expect(throws: ChannelError.notSigned(keyIDs: [ChannelKey(stranger.publicKey).id])) {
            try ChannelHead.verified(signed(head().encoded(), by: stranger), keys: [pinned])
        }
        // A signature moved to another key id is not that key's.
        decoded = try JSONDecoder().decode(SignedEnvelope.self, from: envelope)
        decoded.signatures[0].keyid = ChannelKey(stranger.publicKey).id
        #expect(throws: ChannelError.notSigned(keyIDs: [ChannelKey(stranger.publicKey).id])) {
            try ChannelHead.verified(decoded.encoded(), keys: [pinned, ChannelKey(stranger.publicKey)])
        }
        // The same bytes signed as another kind of statement.
        #expect(throws: ChannelError.wrongPayloadType(expected: ChannelHead.payloadType, found: "application/json")) {
            try ChannelHead.verified(signed(head().encoded(), type: "application/json"), keys: [pinned])
        }
        // No signature at all.
        decoded.signatures = []
        #expect(throws: ChannelError.notSigned(keyIDs: [])) { try ChannelHead.verified(decoded.encoded(), keys: [pinned]) }
    }

    @Test func notAnEnvelopeOrTooLarge() throws {
        for text in ["", "{}", "[1]", "not json", #"{"payloadType":"x","payload":"!!","signatures":[]}"#] {
            #expect(throws: ChannelError.self, "\(text)") { try ChannelHead.verified(Data(text.utf8), keys: [pinned]) }
        }
        let huge = Data(count: SignedEnvelope.sizeLimit + 1)
        #expect(throws: ChannelError.tooLarge(bytes: SignedEnvelope.sizeLimit + 1, limit: SignedEnvelope.sizeLimit)) {
            try ChannelHead.verified(huge, keys: [pinned])
        }
    }

    @Test func aSignedPayloadThatIsNotAHeadIsRefused() throws {
        let cases: [(Data, String)] = [
            (Data("{}".utf8), "its fields are not a head's"),
            (head(sequence: 0).encoded(), "its sequence number is 0"),
            (head(path: "bundles/../../etc/passwd").encoded(), "'bundles/../../etc/passwd' is not a path under bundles/"),
            (head(path: "/etc/passwd").encoded(), "'/etc/passwd' is not a path under bundles/"),
            (head(path: "bundles/.hidden").encoded(), "'bundles/.hidden' is not a path under bundles/"),
            (head(path: "https://evil.example/x").encoded(), "'https://evil.example/x' is not a path under bundles/"),
            (head(sha256: Self.sha.uppercased()).encoded(), "is not a SHA-256 in lowercase hex"),
            (deltaHead(bytes: Int.max).encoded(), " is \(Int.max) bytes"),
            (deltaHead(bytes: 0).encoded(), " is 0 bytes"),
            (deltaHead(path: "bundles/x.vcdiff").encoded(), "'bundles/x.vcdiff' is not a path under deltas/"),
            (deltaHead(from: "x").encoded(), "'x' is not a SHA-256 in lowercase hex"),
        ]
        for (payload, reason) in cases {
            #expect {
                try ChannelHead.verified(signed(payload), keys: [pinned])
            } throws: { error in
                guard case .notAHead(let said, _) = error as? ChannelError else { return false }
                return said.contains(reason)
            }
        }
        // Fields that do not decode: the decoder's error kept as the cause, with its code.
        for (payload, code) in [(Data("{}".utf8), "json:keyNotFound"), (Data("{\"format\": \"one\"}".utf8), "json:typeMismatch"), (Data("[".utf8), "json:dataCorrupted")] {
            #expect {
                try ChannelHead.verified(signed(payload), keys: [pinned])
            } throws: { error in
                guard case .notAHead(let said, let cause?) = error as? ChannelError else { return false }
                return said == "its fields are not a head's" && cause.code == code && (error as? ChannelError)?.description.hasSuffix("(\(cause.message))") == true
            }
        }
        var future = head()
        future.format = 2
        #expect(throws: ChannelError.notAHead("it is format 2; this library reads format 1")) {
            try ChannelHead.verified(signed(future.encoded()), keys: [pinned])
        }
    }

    /// A head with one delta, as `digno publish` would list it, but for what is given.
    func deltaHead(from: String = SignedHeadTests.sha, path: String = "deltas/x.vcdiff", bytes: Int = 10) -> ChannelHead {
        var delta = head()
        delta.deltas = [.init(from: from, path: path, sha256: Self.sha, bytes: bytes)]
        return delta
    }

    @Test func keysAreWrittenAsDignoKeygenPrintsThem() throws {
        let text = pinned.description
        #expect(text.hasPrefix("ed25519:") && text.count == "ed25519:".count + 44)
        #expect(try ChannelKey(text) == pinned)
        #expect(pinned.id.count == 64)
        for bad in ["", "ed25519:", "ed25519:AAAA", "rsa:" + text.dropFirst(8), text + "A", " " + text] {
            #expect(throws: ChannelError.badKey(bad)) { try ChannelKey(bad) }
        }
    }

    /// A key of small order would let anyone sign: each of the encodings is refused, and one
    /// of them shown to verify a signature no private key made (the identity point: R = the
    /// identity and s = 0 verify for every message with BoringSSL's check).
    @Test func keysOfSmallOrderAreRefused() throws {
        #expect(ChannelKey.smallOrder.count == 14)
        // The identity as a public key, R the identity and s zero: a "signature" of anything.
        var identity = Data(count: 32)
        identity[0] = 1
        let forged = identity + Data(count: 32)
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: identity)
        #expect(key.isValidSignature(forged, for: Data("any head at all".utf8)))
        for hex in ChannelKey.smallOrder {
            let bytes = Data((0..<32).map { UInt8(hex.dropFirst($0 * 2).prefix(2), radix: 16)! })
            let text = "ed25519:" + bytes.base64EncodedString()
            #expect(throws: ChannelError.badKey(text)) { try ChannelKey(text) }
        }
    }
}
