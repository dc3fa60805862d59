/// Why a channel's signed file was refused.
public enum ChannelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A public key that is not `ed25519:` and 32 bytes in base64.
    case badKey(String)
    /// Larger than a signed file may be.
    case tooLarge(bytes: Int, limit: Int)
    /// Not an envelope at all.
    case notAnEnvelope(String)
    /// An envelope of another kind (a statement that is not a head).
    case wrongPayloadType(expected: String, found: String)
    /// No signature by a trusted key (pinned, or named by a key statement taken) over these exact bytes.
    case notSigned(keyIDs: [String])
    /// Signed, but not a head this library can read.
    case notAHead(String)
    /// Signed by a trusted key, but not a key statement to take.
    case notAKeyStatement(String)

    public var description: String {
        switch self {
        case .badKey(let text):
            "'\(text)' is not a channel key; a key is written ed25519: and its 32 bytes in base64, as digno keygen prints it"
        case .tooLarge(let bytes, let limit):
            "the signed file is \(bytes) bytes; at most \(limit) are read"
        case .notAnEnvelope(let reason):
            "the signed file is not readable: \(reason)"
        case .wrongPayloadType(let expected, let found):
            "the signed file holds '\(found)', not '\(expected)'"
        case .notSigned(let keyIDs):
            keyIDs.isEmpty
                ? "the signed file has no signature"
                : "no trusted key signed this file (it names the keys \(keyIDs.joined(separator: ", ")))"
        case .notAHead(let reason):
            "the head is signed but cannot be read: \(reason)"
        case .notAKeyStatement(let reason):
            "the key statement is signed but cannot be taken: \(reason)"
        }
    }
}
