import CatalogModel
import Crypto
import Foundation

/// A channel's public signing key, as an app pins it and as `digno keygen` prints it:
/// `ed25519:` and the key's 32 bytes in base64.
public struct ChannelKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's 32 bytes.
    package let rawRepresentation: Data

    /// Parses `ed25519:BASE64`; throws `ChannelError.badKey` for anything else.
    public init(_ text: String) throws(ChannelError) {
        let prefix = "ed25519:"
        guard text.hasPrefix(prefix), let raw = Data(base64Encoded: String(text.dropFirst(prefix.count))), raw.count == 32,
              (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil
        else { throw .badKey(text) }
        rawRepresentation = raw
    }

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
