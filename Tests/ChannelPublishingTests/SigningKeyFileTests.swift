@testable import ChannelPublishing
import CatalogModel
import Crypto
import Foundation
import Testing

/// The signing key on disk: read back as written, refused when others can read it or when it
/// is not a key.
@Suite struct SigningKeyFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-key-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func readsBackTheKeyItWrote() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("k").path
        let key = Curve25519.Signing.PrivateKey()
        try SigningKeyFile.write(key, to: path)
        #expect(try SigningKeyFile.read(path).rawRepresentation == key.rawRepresentation)
        #expect(throws: SigningKeyFile.Failure.exists(path)) { try SigningKeyFile.write(key, to: path) }
    }

    @Test func aKeyOthersCanReadOrThatIsNotAKeyIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("k").path
        try SigningKeyFile.write(Curve25519.Signing.PrivateKey(), to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: SigningKeyFile.Failure.readableByOthers(path, mode: "644")) { try SigningKeyFile.read(path) }

        for (name, text) in [("empty", ""), ("public", "ed25519:AAAA\n"), ("short", SigningKeyFile.heading + "\nAAAA\n")] {
            let other = folder.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: other, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
            #expect(throws: SigningKeyFile.Failure.notAKey(other), "\(name)") { try SigningKeyFile.read(other) }
        }
        let missing = folder.appendingPathComponent("missing").path
        #expect(throws: SigningKeyFile.Failure.unreadable(missing, cause: ErrorCause(errno: ENOENT))) { try SigningKeyFile.read(missing) }
    }
}
