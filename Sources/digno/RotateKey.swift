import ArgumentParser
import ChannelPublishing
import Crypto
import Foundation

struct RotateKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-key",
        abstract: "Hand a channel folder over to a new signing key, with no app update.",
        usage: "digno rotate-key --channel-dir <folder> --key <file> --new-key <file>",
        discussion: """
            Writes the next key statement, <folder>/keys/<version>.json, naming the new key and \
            signed by both keys, then signs every channel's head again with the new key. Apps that \
            pin the old key take the statement at their next update and trust only the new key \
            from then on; publish with --key <new key file> afterwards. Make the new key with \
            digno keygen first. Exit status: 0 rotated, 1 refused (the old key does not sign the \
            channel), 2 usage or I/O errors.
            """)

    @Option(help: ArgumentHelp("The folder digno publish writes.", valueName: "folder"))
    var channelDir: String

    @Option(help: ArgumentHelp("The signing key in use now.", valueName: "file"))
    var key: String

    @Option(help: ArgumentHelp("The new signing key, from digno keygen.", valueName: "file"))
    var newKey: String

    func run() throws {
        let keys = (old: try SigningKeyFile.read(key), new: try SigningKeyFile.read(newKey))
        let rotation = try ChannelPublisher(channelFolder: channelDir, channel: "stable", key: keys.old).rotateKey(to: keys.new)
        print("wrote \(rotation.statementPath): the channel's key is now ed25519:\(keys.new.publicKey.rawRepresentation.base64EncodedString())")
        print("signed again with it: \(rotation.heads.isEmpty ? "no head yet" : rotation.heads.joined(separator: ", "))")
        print("publish with --key \(newKey) from now on; \(key) signs nothing any more: destroy it")
    }
}
