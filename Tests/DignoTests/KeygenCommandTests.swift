import Foundation
import Testing

/// `digno keygen`: a key only its owner can read, its public half printed, never a key replaced.
@Suite struct KeygenCommandTests {
    @Test func writesAnOwnerOnlyKeyAndPrintsThePublicKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-keygen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("signing.key").path

        let outcome = try DignoRunner.run(["keygen", "--output", path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "wrote \(path) (mode 0600): keep it secret and out of the repository")
        #expect(lines.dropFirst().first == "public key, to pin in the app and to give digno update --key:")
        let publicKey = try #require(lines.last)
        #expect(publicKey.hasPrefix("ed25519:") && Data(base64Encoded: String(publicKey.dropFirst(8)))?.count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let key = try String(contentsOfFile: path, encoding: .utf8)
        #expect(key.hasPrefix("digno signing key (ed25519). Keep it secret: whoever has it can publish releases.\n"))

        // Never replaced: the same path again is an error, and the key is as it was.
        let again = try DignoRunner.run(["keygen", "--output", path])
        #expect(again.status == 2)
        #expect(again.errors == "error: '\(path)' exists; digno keygen never replaces a key: choose another file\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == key)

        // Two keys differ.
        let other = folder.appendingPathComponent("other.key").path
        #expect(try DignoRunner.run(["keygen", "--output", other]).output.split(separator: "\n").last.map(String.init) != publicKey)
    }
}
