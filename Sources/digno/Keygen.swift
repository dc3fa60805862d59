import ArgumentParser
import ChannelFormat
import ChannelPublishing
import Crypto
import Foundation

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a channel's signing key, and print the public key to pin in the app.",
        usage: "digno keygen --output <file> [--encrypt [--passphrase-file <file>]]\n       digno keygen --public <file> [--passphrase-file <file>]",
        discussion: """
            Writes a new Ed25519 signing key into <file>, readable by its owner only (mode 0600), \
            and prints its public key (ed25519:BASE64): pin that in the app, and give it to \
            digno update --key. Keep the key file secret and out of the repository. An existing \
            file is never replaced. With --encrypt (for a root key, kept offline), the key is \
            written as an encrypted PKCS#8 PEM file (AES-256-CBC, PBKDF2-HMAC-SHA256, 600,000 \
            rounds), which OpenSSL and Python's cryptography read too; the passphrase is read \
            from --passphrase-file, else DIGNO_PASSPHRASE, else asked twice on the terminal; its \
            public key goes to digno root draft --root-key and the app's PinnedRoot. \
            With --public, prints the public key of an existing key file (its passphrase asked \
            if it is encrypted) and writes nothing. \
            Exit status: 0 written (or printed), 2 usage or I/O errors.
            """)

    @Option(help: ArgumentHelp("The key file to write.", valueName: "file"))
    var output: String?

    @Flag(help: "Encrypt the key with a passphrase (a PKCS#8 PEM file): for a root key.")
    var encrypt = false

    @Option(name: .customLong("public"), help: ArgumentHelp("Print the public key of this key file instead.", valueName: "file"))
    var publicOf: String?

    @Option(help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
    var passphraseFile: String?

    func validate() throws {
        guard (output == nil) != (publicOf == nil) else { throw ValidationError("give --output <file> to make a key, or --public <file> to print one's public key") }
        if publicOf != nil, encrypt { throw ValidationError("--encrypt makes a key; --public reads one") }
    }

    func run() throws {
        if let publicOf {
            let key = try Passphrase(file: passphraseFile).key(publicOf)
            print(ChannelKey(key.publicKey).description)
            return
        }
        guard let output else { return }
        // The key's randomness comes from here, the command: the library reads none of its own.
        let key = Curve25519.Signing.PrivateKey()
        let passphrase = encrypt || passphraseFile != nil ? try Passphrase(file: passphraseFile).new() : nil
        try SigningKeyFile.write(key, to: output, passphrase: passphrase)
        print("wrote \(output) (mode 0600): keep it secret and out of the repository")
        if encrypt {
            print("public key, a root key: give it to digno root draft --root-key and pin it in the app's PinnedRoot (digno update --root-key):")
        } else {
            print("public key, to pin in the app and to give digno update --key:")
        }
        print(ChannelKey(key.publicKey).description)
    }
}
