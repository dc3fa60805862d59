import CatalogModel

/// Why a channel's signed file was refused.
public enum ChannelError: CausedError, Equatable, Sendable, CustomStringConvertible {
    /// A public key that is not `ed25519:` and 32 bytes in base64.
    case badKey(String)
    /// Larger than a signed file may be.
    case tooLarge(bytes: Int, limit: Int)
    /// Not an envelope at all; `cause`, the JSON decoder's error, when it did not decode.
    case notAnEnvelope(String, cause: ErrorCause? = nil)
    /// An envelope of another kind (a statement that is not a head).
    case wrongPayloadType(expected: String, found: String)
    /// No signature by a trusted key (pinned, or named by a key statement taken) over these exact bytes.
    case notSigned(keyIDs: [String])
    /// Signed, but not a head this library can read; `cause`, the JSON decoder's error, when its
    /// fields did not decode.
    case notAHead(String, cause: ErrorCause? = nil)
    /// Signed by a trusted key, but not a key statement to take; `cause` as for `notAHead`.
    case notAKeyStatement(String, cause: ErrorCause? = nil)
    /// Signed by enough trusted root keys, but not a root to take; `cause` as for `notAHead`.
    case notARoot(String, cause: ErrorCause? = nil)
    /// Signed by fewer trusted keys than the root requires (`of`: which keys: "the release
    /// keys of root 2", "the trusted root keys", "its own root keys").
    case tooFewSignatures(found: Int, needed: Int, of: String)

    public var description: String {
        switch self {
        case .badKey(let text):
            "'\(text)' is not a channel key; a key is written ed25519: and its 32 bytes in base64, as digno keygen prints it"
        case .tooLarge(let bytes, let limit):
            "the signed file is \(bytes) bytes; at most \(limit) are read"
        case .notAnEnvelope(let reason, let cause):
            "the signed file is not readable: \(reason)" + Self.because(cause)
        case .wrongPayloadType(let expected, let found):
            "the signed file holds '\(found)', not '\(expected)'"
        case .notSigned(let keyIDs):
            keyIDs.isEmpty
                ? "the signed file has no signature"
                : "no trusted key signed this file (its \(keyIDs.count == 1 ? "signature is by a key" : "\(keyIDs.count) signatures are by keys") not trusted here)"
        case .notAHead(let reason, let cause):
            "the head is signed but cannot be read: \(reason)" + Self.because(cause)
        case .notAKeyStatement(let reason, let cause):
            "the key statement is signed but cannot be taken: \(reason)" + Self.because(cause)
        case .notARoot(let reason, let cause):
            "the root is signed but cannot be taken: \(reason)" + Self.because(cause)
        case .tooFewSignatures(let found, let needed, let keys):
            "the signed file has \(found) valid signature\(found == 1 ? "" : "s") by \(keys), and \(needed) are needed"
        }
    }

    /// The error that made this one, when one did (a JSON decoder's).
    public var cause: ErrorCause? {
        switch self {
        case .notAnEnvelope(_, let cause), .notAHead(_, let cause), .notAKeyStatement(_, let cause), .notARoot(_, let cause): cause
        case .badKey, .tooLarge, .wrongPayloadType, .notSigned, .tooFewSignatures: nil
        }
    }

    private static func because(_ cause: ErrorCause?) -> String { cause.map { " (\($0))" } ?? "" }
}
