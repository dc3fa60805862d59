import _CryptoExtras
import Crypto
import Foundation
import SwiftASN1

/// An Ed25519 signing key as a PKCS#8 PEM file (RFC 5958, RFC 8410), plain or encrypted with a
/// passphrase (PBES2, RFC 8018: PBKDF2 and AES-CBC), as OpenSSL (`openssl genpkey -algorithm
/// ed25519 -aes256`) and Python's `cryptography` write and read them. swift-crypto reads no
/// Ed25519 PEM, so the ASN.1 structures are ours, encoded and parsed with swift-asn1.
package enum PKCS8Key {
    /// Why a PKCS#8 file gave no key.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case notPKCS8(String)
        case unsupported(String)
        case wrongPassphrase

        package var description: String {
            switch self {
            case .notPKCS8(let reason): "not a PKCS#8 key: \(reason)"
            case .unsupported(let what): "an encryption this digno does not read: \(what); PBES2 with PBKDF2 and AES-CBC is"
            case .wrongPassphrase: "the passphrase does not open it"
            }
        }
    }

    /// How many PBKDF2 rounds an encrypted key written here takes: OWASP's figure for
    /// PBKDF2-HMAC-SHA256 (2023), about half a second here; a root key is opened rarely.
    package static let rounds = 600_000
    /// The most rounds a file may ask for: more would take minutes to open.
    static let roundLimit = 10_000_000

    static let ed25519: ASN1ObjectIdentifier = [1, 3, 101, 112]
    static let pbes2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 13]
    static let pbkdf2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 12]
    static let hmacWithSHA1: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 7]
    static let hmacWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 9]
    static let hmacWithSHA512: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 11]
    static let aes128CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 2]
    static let aes256CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 42]

    /// Whether `text` is a PEM file this type reads.
    package static func isPEM(_ text: String) -> Bool {
        text.contains("-----BEGIN PRIVATE KEY-----") || text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    }

    /// Whether the PEM `text` is encrypted, and so needs a passphrase.
    package static func isEncrypted(_ text: String) -> Bool { text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") }

    /// `key` as a PEM file: encrypted with `passphrase` (AES-256-CBC, PBKDF2-HMAC-SHA256 with
    /// `rounds`, a random salt and IV) when one is given.
    package static func pem(_ key: Curve25519.Signing.PrivateKey, passphrase: String?, rounds: Int = PKCS8Key.rounds) throws -> String {
        let plain = try der(PrivateKeyInfo(key: Array(key.rawRepresentation)))
        guard let passphrase else { return PEMDocument(type: "PRIVATE KEY", derBytes: plain).pemString + "\n" }
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let symmetric = try KDF.Insecure.PBKDF2.deriveKey(from: Array(passphrase.utf8), salt: salt, using: .sha256, outputByteCount: 32,
                                                          unsafeUncheckedRounds: rounds)
        let encrypted = try AES._CBC.encrypt(plain, using: symmetric, iv: AES._CBC.IV(ivBytes: iv))
        let info = EncryptedPrivateKeyInfo(
            parameters: PBES2Parameters(salt: salt, rounds: rounds, prf: hmacWithSHA256, cipher: aes256CBC, iv: iv), encrypted: Array(encrypted))
        return PEMDocument(type: "ENCRYPTED PRIVATE KEY", derBytes: try der(info)).pemString + "\n"
    }

    /// The key in the PEM `text`, decrypted with `passphrase` when it is encrypted.
    package static func key(_ text: String, passphrase: () throws -> String) throws -> Curve25519.Signing.PrivateKey {
        // The block alone: tools write lines before it ("Bag Attributes", comments).
        guard let begin = text.range(of: "-----BEGIN "), let end = text.range(of: "-----END ", range: begin.upperBound..<text.endIndex),
              let close = text.range(of: "-----", range: end.upperBound..<text.endIndex) else { throw Failure.notPKCS8("it has no PEM block") }
        let document: PEMDocument
        do { document = try PEMDocument(pemString: String(text[begin.lowerBound..<close.upperBound])) } catch {
            throw Failure.notPKCS8("its PEM does not decode")
        }
        var plain: [UInt8]
        switch document.discriminator {
        case "PRIVATE KEY":
            plain = document.derBytes
        case "ENCRYPTED PRIVATE KEY":
            let encrypted: EncryptedPrivateKeyInfo
            do { encrypted = try EncryptedPrivateKeyInfo(derEncoded: document.derBytes) } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure.notPKCS8("its encryption's parameters do not decode")
            }
            let info = encrypted.parameters
            let hash: KDF.Insecure.PBKDF2.HashFunction = switch info.prf {
            case hmacWithSHA1: .insecureSHA1
            case hmacWithSHA256: .sha256
            case hmacWithSHA512: .sha512
            default: throw Failure.unsupported("the pseudo-random function \(info.prf)")
            }
            let keyBytes: Int = switch info.cipher {
            case aes128CBC: 16
            case aes256CBC: 32
            default: throw Failure.unsupported("the cipher \(info.cipher)")
            }
            guard (1...roundLimit).contains(info.rounds) else { throw Failure.unsupported("\(info.rounds) rounds") }
            guard info.iv.count == 16, !info.salt.isEmpty, info.keyLength.map({ $0 == keyBytes }) ?? true else {
                throw Failure.notPKCS8("its IV, salt or key length is not the cipher's")
            }
            let symmetric = try KDF.Insecure.PBKDF2.deriveKey(from: Array(try passphrase().utf8), salt: info.salt, using: hash,
                                                              outputByteCount: keyBytes, unsafeUncheckedRounds: info.rounds)
            do { plain = Array(try AES._CBC.decrypt(encrypted.encrypted, using: symmetric, iv: AES._CBC.IV(ivBytes: info.iv))) } catch {
                throw Failure.wrongPassphrase
            }
        default:
            throw Failure.notPKCS8("it holds a \(document.discriminator)")
        }
        defer { for index in plain.indices { plain[index] = 0 } }
        let info: PrivateKeyInfo
        // A wrong passphrase can decrypt to bytes with valid padding that are no key.
        do { info = try PrivateKeyInfo(derEncoded: plain) } catch {
            throw document.discriminator == "PRIVATE KEY" ? Failure.notPKCS8("it is not a private key's structure") : Failure.wrongPassphrase
        }
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: info.key)
        if let publicKey = info.publicKey, publicKey != Array(key.publicKey.rawRepresentation) {
            throw Failure.notPKCS8("its public key is not the private key's")
        }
        return key
    }

    static func der<Node: DERSerializable>(_ node: Node) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(node)
        return serializer.serializedBytes
    }
}

/// OneAsymmetricKey (RFC 5958) for Ed25519 (RFC 8410): version, the algorithm, and the 32-byte
/// private key inside an OCTET STRING inside an OCTET STRING. A public key, if present, is
/// ignored (the private key gives it).
struct PrivateKeyInfo: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var key: [UInt8]
    /// The public key, when the file holds it (version 1).
    var publicKey: [UInt8]?

    init(key: [UInt8], publicKey: [UInt8]? = nil) {
        self.key = key
        self.publicKey = publicKey
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let version = try Int(derEncoded: &nodes)
            guard version == 0 || version == 1 else { throw PKCS8Key.Failure.notPKCS8("version \(version)") }
            let algorithm = try AlgorithmIdentifier(derEncoded: &nodes)
            guard algorithm.algorithm == PKCS8Key.ed25519 else { throw PKCS8Key.Failure.notPKCS8("not an Ed25519 key (\(algorithm.algorithm))") }
            let wrapped = try ASN1OctetString(derEncoded: &nodes)
            let inner = try ASN1OctetString(derEncoded: Array(wrapped.bytes))
            guard inner.bytes.count == 32 else { throw PKCS8Key.Failure.notPKCS8("a key of \(inner.bytes.count) bytes") }
            var publicKey: [UInt8]?
            while let node = nodes.next() {
                // [0] attributes, ignored; [1] the public key, a BIT STRING's contents.
                if node.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific) {
                    let bits = try ASN1BitString(derEncoded: node, withIdentifier: node.identifier)
                    publicKey = Array(bits.bytes)
                }
            }
            return PrivateKeyInfo(key: Array(inner.bytes), publicKey: publicKey)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(0)
            try coder.serialize(AlgorithmIdentifier(algorithm: PKCS8Key.ed25519, parameters: nil))
            try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(try PKCS8Key.der(ASN1OctetString(contentBytes: ArraySlice(key))))))
        }
    }
}

/// An AlgorithmIdentifier: an OID and optional parameters.
struct AlgorithmIdentifier: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var algorithm: ASN1ObjectIdentifier
    var parameters: ASN1Any?

    init(algorithm: ASN1ObjectIdentifier, parameters: ASN1Any?) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let algorithm = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let parameters = nodes.next().map { ASN1Any(derEncoded: $0) }
            return AlgorithmIdentifier(algorithm: algorithm, parameters: parameters)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(algorithm)
            if let parameters { try coder.serialize(parameters) }
        }
    }
}

/// EncryptedPrivateKeyInfo with PBES2 (RFC 8018): how the key was encrypted, and the
/// encrypted PrivateKeyInfo.
struct EncryptedPrivateKeyInfo: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var parameters: PBES2Parameters
    var encrypted: [UInt8]

    init(parameters: PBES2Parameters, encrypted: [UInt8]) {
        self.parameters = parameters
        self.encrypted = encrypted
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let scheme = try AlgorithmIdentifier(derEncoded: &nodes)
            guard scheme.algorithm == PKCS8Key.pbes2, let parameters = scheme.parameters else {
                throw PKCS8Key.Failure.unsupported("the scheme \(scheme.algorithm)")
            }
            let encrypted = try ASN1OctetString(derEncoded: &nodes)
            return EncryptedPrivateKeyInfo(parameters: try PBES2Parameters(asn1Any: parameters), encrypted: Array(encrypted.bytes))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(AlgorithmIdentifier(algorithm: PKCS8Key.pbes2, parameters: try ASN1Any(erasing: parameters)))
            try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(encrypted)))
        }
    }
}

/// PBES2-params: the key derivation (PBKDF2 and its parameters) and the encryption scheme.
struct PBES2Parameters: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var salt: [UInt8]
    var rounds: Int
    var prf: ASN1ObjectIdentifier
    var cipher: ASN1ObjectIdentifier
    var iv: [UInt8]
    /// PBKDF2's key length, when the file says it: it must be the cipher's.
    var keyLength: Int?

    init(salt: [UInt8], rounds: Int, prf: ASN1ObjectIdentifier, cipher: ASN1ObjectIdentifier, iv: [UInt8], keyLength: Int? = nil) {
        (self.salt, self.rounds, self.prf, self.cipher, self.iv, self.keyLength) = (salt, rounds, prf, cipher, iv, keyLength)
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let derivation = try AlgorithmIdentifier(derEncoded: &nodes)
            guard derivation.algorithm == PKCS8Key.pbkdf2, let kdfParameters = derivation.parameters else {
                throw PKCS8Key.Failure.unsupported("the key derivation \(derivation.algorithm)")
            }
            let encryption = try AlgorithmIdentifier(derEncoded: &nodes)
            guard let ivAny = encryption.parameters else { throw PKCS8Key.Failure.notPKCS8("the cipher has no IV") }
            let iv = try ASN1OctetString(asn1Any: ivAny)
            let kdf: (salt: [UInt8], rounds: Int, prf: ASN1ObjectIdentifier, keyLength: Int?) = try DER.sequence(
                try DER.parse(try PKCS8Key.der(kdfParameters)), identifier: .sequence
            ) { nodes in
                let salt = try ASN1OctetString(derEncoded: &nodes)
                let rounds = try Int(derEncoded: &nodes)
                var prf = PKCS8Key.hmacWithSHA1  // the default
                var keyLength: Int?
                while let node = nodes.next() {
                    if node.identifier == .sequence {
                        prf = try AlgorithmIdentifier(derEncoded: node).algorithm
                    } else if node.identifier == .integer {
                        keyLength = try Int(derEncoded: node)
                    } else {
                        throw PKCS8Key.Failure.notPKCS8("PBKDF2's parameters hold something else")
                    }
                }
                return (Array(salt.bytes), rounds, prf, keyLength)
            }
            return PBES2Parameters(salt: kdf.salt, rounds: kdf.rounds, prf: kdf.prf, cipher: encryption.algorithm, iv: Array(iv.bytes),
                                   keyLength: kdf.keyLength)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(PKCS8Key.pbkdf2)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(salt)))
                    try coder.serialize(rounds)
                    try coder.serialize(AlgorithmIdentifier(algorithm: prf, parameters: try ASN1Any(erasing: ASN1Null())))
                }
            }
            try coder.serialize(AlgorithmIdentifier(algorithm: cipher, parameters: try ASN1Any(erasing: ASN1OctetString(contentBytes: ArraySlice(iv)))))
        }
    }
}
