import CatalogModel
import Crypto
import Foundation

/// A signed statement as a DSSE envelope (https://github.com/secure-systems-lab/dsse): the
/// payload in base64, its type, and signatures over both. A signature covers the pre-auth
/// encoding of the type and the exact payload bytes, so the payload is parsed only once a
/// pinned key has vouched for those bytes, and a payload of one type cannot pass for another.
package struct SignedEnvelope: Codable, Sendable, Equatable {
    package struct Signature: Codable, Sendable, Equatable {
        /// The signing key's id (`ChannelKey.id`).
        package var keyid: String
        /// The signature, in base64.
        package var sig: String

        package init(keyid: String, sig: String) {
            self.keyid = keyid
            self.sig = sig
        }
    }

    package var payloadType: String
    /// The payload's bytes, in base64.
    package var payload: String
    package var signatures: [Signature]

    package init(payloadType: String, payload: String, signatures: [Signature]) {
        self.payloadType = payloadType
        self.payload = payload
        self.signatures = signatures
    }

    /// The most an envelope may be: a head is a few hundred bytes, and anything larger is
    /// refused before it is parsed.
    package static let sizeLimit = 64 * 1024

    /// DSSE's pre-auth encoding, what a signature covers:
    /// `DSSEv1 <len(type)> <type> <len(payload)> <payload>`, lengths in decimal bytes.
    package static func signingInput(payloadType: String, payload: Data) -> Data {
        var input = Data("DSSEv1 \(payloadType.utf8.count) \(payloadType) \(payload.count) ".utf8)
        input.append(payload)
        return input
    }

    /// The payload of an envelope in `data`, once it is checked: no larger than `sizeLimit`, of
    /// `payloadType`, and signed by `threshold` of `keys` (one, by default) over exactly its
    /// bytes. Signatures by other keys are ignored, and a key counts once however many times
    /// it signed.
    package static func verifiedPayload(_ data: Data, payloadType: String, keys: [ChannelKey], threshold: Int = 1) throws(ChannelError) -> Data {
        let (payload, signers, keyIDs) = try signed(data, payloadType: payloadType, keys: keys)
        guard !signers.isEmpty else { throw .notSigned(keyIDs: keyIDs) }
        guard signers.count >= threshold else { throw .tooFewSignatures(found: signers.count, needed: threshold, of: "the release keys") }
        return payload
    }

    /// The payload of the envelope in `data` (no larger than `sizeLimit`, of `payloadType`),
    /// the ids of the keys among `keys` whose signatures over it are valid, and the ids every
    /// signature names. The payload must not be parsed unless a trusted key is among the signers.
    package static func signed(_ data: Data, payloadType: String, keys: [ChannelKey]) throws(ChannelError)
        -> (payload: Data, signers: Set<String>, keyIDs: [String]) {
        guard data.count <= sizeLimit else { throw .tooLarge(bytes: data.count, limit: sizeLimit) }
        let envelope: SignedEnvelope
        do {
            envelope = try JSONDecoder().decode(SignedEnvelope.self, from: data)
        } catch {
            throw .notAnEnvelope("it is not a DSSE envelope in JSON", cause: ErrorCause(error))
        }
        guard envelope.payloadType == payloadType else {
            throw .wrongPayloadType(expected: payloadType, found: envelope.payloadType)
        }
        guard let payload = Data(base64Encoded: envelope.payload) else { throw .notAnEnvelope("its payload is not base64") }
        let input = signingInput(payloadType: envelope.payloadType, payload: payload)
        let byID = Dictionary(keys.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var signers: Set<String> = []
        // One signature per key is checked, its first: a key counts once, and an envelope
        // padded with repeats of a trusted key id costs one check, not hundreds.
        var tried: Set<String> = []
        for signature in envelope.signatures {
            guard let key = byID[signature.keyid], tried.insert(key.id).inserted, let bytes = Data(base64Encoded: signature.sig) else { continue }
            if key.isValid(bytes, for: input) { signers.insert(key.id) }
        }
        return (payload, signers, envelope.signatures.map(\.keyid))
    }
}

extension SignedEnvelope {
    /// An envelope of `payload`, signed by `key` (`digno publish` and the tests).
    package static func signing(_ payload: Data, payloadType: String, with key: Curve25519.Signing.PrivateKey) throws -> SignedEnvelope {
        try signing(payload, payloadType: payloadType, with: [key])
    }

    /// An envelope of `payload`, signed by each of `keys`.
    package static func signing(_ payload: Data, payloadType: String, with keys: [Curve25519.Signing.PrivateKey]) throws -> SignedEnvelope {
        let input = signingInput(payloadType: payloadType, payload: payload)
        var signatures: [Signature] = []
        for key in keys {
            signatures.append(Signature(keyid: ChannelKey(key.publicKey).id, sig: try key.signature(for: input).base64EncodedString()))
        }
        return SignedEnvelope(payloadType: payloadType, payload: payload.base64EncodedString(), signatures: signatures)
    }

    /// The payload of the envelope in `data`, its signatures unchecked: for a publisher reading
    /// its own channel folder, never for a client.
    package static func unverifiedPayload(_ data: Data) -> Data? {
        (try? JSONDecoder().decode(SignedEnvelope.self, from: data)).flatMap { Data(base64Encoded: $0.payload) }
    }

    /// The envelope as published: JSON with sorted keys.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()  // strings always encode
    }
}
