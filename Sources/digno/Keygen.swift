import ArgumentParser
import ChannelPublishing
import Crypto
import Foundation

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a channel's signing key, and print the public key to pin in the app.",
        usage: "digno keygen --output <file> [--encrypt [--passphrase-file <file>]]",
        discussion: """
            Writes a new Ed25519 signing key into <file>, readable by its owner only (mode 0600), \
            and prints its public key (ed25519:BASE64): pin that in the app, and give it to \
            digno update --key. Keep the key file secret and out of the repository. An existing \
            file is never replaced. With --encrypt (for a root key, kept offline), the key is \
            written as an encrypted PKCS#8 PEM file (AES-256-CBC, PBKDF2-HMAC-SHA256, 600,000 \
            rounds), which OpenSSL and Python's cryptography read too; the passphrase is read \
            from --passphrase-file, else DIGNO_PASSPHRASE, else asked twice on the terminal. \
            Exit status: 0 written, 2 usage or I/O errors.
            """)

    @Option(help: ArgumentHelp("The key file to write.", valueName: "file"))
    var output: String

    @Flag(help: "Encrypt the key with a passphrase (a PKCS#8 PEM file): for a root key.")
    var encrypt = false

    @Option(help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
    var passphraseFile: String?

    func run() throws {
        // The key's randomness comes from here, the command: the library reads none of its own.
        let key = Curve25519.Signing.PrivateKey()
        do {
            let passphrase = encrypt || passphraseFile != nil ? try Passphrase(file: passphraseFile).new() : nil
            try SigningKeyFile.write(key, to: output, passphrase: passphrase)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        print("wrote \(output) (mode 0600): keep it secret and out of the repository")
        print("public key, to pin in the app and to give digno update --key:")
        print("ed25519:" + key.publicKey.rawRepresentation.base64EncodedString())
    }
}
