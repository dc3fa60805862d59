import CatalogModel
import Crypto
import Foundation

/// A channel's public signing key, as an app pins it and as `digno keygen` prints it:
/// `ed25519:` and the key's 32 bytes in base64.
public struct ChannelKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's 32 bytes.
    package let rawRepresentation: Data

    /// Parses `ed25519:BASE64`; throws `ChannelError.badKey` for anything else, and for a key
    /// of small order (`smallOrder`).
    public init(_ text: String) throws(ChannelError) {
        let prefix = "ed25519:"
        guard text.hasPrefix(prefix), let raw = Data(base64Encoded: String(text.dropFirst(prefix.count))), raw.count == 32,
              !Self.smallOrder.contains(raw.hexString), (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil
        else { throw .badKey(text) }
        rawRepresentation = raw
    }

    /// The encodings of the eight points of small order on edwards25519 (and their
    /// non-canonical twins: the sign bit set, y + p), as libsodium refuses them: with such a
    /// "public key", a signature verifies for many messages with no private key at all, so a
    /// root naming one would let anyone sign heads. Computed from the curve's equation (the
    /// points whose eighth multiple is the identity), not taken on trust.
    static let smallOrder: Set<String> = [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000080",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000080",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    ]

    /// The key of a signing key's public half.
    package init(_ key: Curve25519.Signing.PublicKey) {
        rawRepresentation = key.rawRepresentation
    }

    /// `ed25519:BASE64`.
    public var description: String { "ed25519:" + rawRepresentation.base64EncodedString() }

    /// The key's id in an envelope's signatures: the SHA-256 of its 32 bytes, in hex.
    public var id: String {
        SHA256.hash(data: rawRepresentation).hexString
    }

    /// Whether `signature` is this key's over `message`.
    func isValid(_ signature: Data, for message: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
