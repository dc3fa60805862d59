import CatalogModel
import ChannelFormat
import Crypto
import Foundation

extension ChannelPublisher {
    /// What a key rotation did.
    package struct Rotation: Equatable {
        /// The key statement's path from the channel folder, `keys/<version>.json`.
        package var statementPath: String
        /// The heads signed again with the new key.
        package var heads: [String]
    }

    /// Hands the channel folder over from this publisher's key to `newKey`, with no app update:
    /// writes the next key statement (`keys/<version>.json`, naming `newKey`, signed by both
    /// keys), then signs every channel's head again with both keys (the same payload, so the same
    /// sequence number); the next publish signs with `newKey` alone. Refused unless this
    /// publisher's key (or, for a rotation run again after it stopped midway, `newKey`) signed
    /// every head there.
    package func rotateKey(to newKey: Curve25519.Signing.PrivateKey) throws(Failure) -> Rotation {
        guard newKey.publicKey.rawRepresentation != key.publicKey.rawRepresentation else {
            throw .rotation("the new key is the one in use")
        }
        try makeFolder(ChannelLayout.keysFolder)
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }

        // A head signed by the old key, or already by the new one (a rotation that stopped
        // midway, run again).
        let accepted = [ChannelKey(key.publicKey), ChannelKey(newKey.publicKey)]
        var heads: [(path: String, payload: Data)] = []
        let channels = ((try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.channelsFolder))) ?? []).sorted()
        for name in channels where ChannelLayout.isChannelName(name) {
            let headPath = ChannelLayout.headPath(channel: name)
            guard let data = FileManager.default.contents(atPath: path(headPath)) else { continue }
            do {
                let payload = try SignedEnvelope.verifiedPayload(data, payloadType: ChannelHead.payloadType, keys: accepted)
                heads.append((headPath, payload))
            } catch {
                throw .rotation("\(headPath) is not signed by the key given; give the key that signs the channel now", cause: ErrorCause(error))
            }
        }
        let last = lastStatement()
        let own = ChannelKey(key.publicKey).description, new = ChannelKey(newKey.publicKey).description
        // The last statement already names the new key alone: the same rotation, run again after
        // it stopped midway; the statement is kept (statements are never replaced).
        let again = last?.keys == [new]
        if let last, !again, !last.keys.contains(own) { throw .keyReplaced(statement: ChannelLayout.keyStatementPath(version: last.version)) }
        let version = again ? (last?.version ?? 1) : (last?.version ?? 0) + 1
        let statementPath = ChannelLayout.keyStatementPath(version: version)
        do {
            if !again {
                let statement = try SignedEnvelope.signing(KeyStatement(version: version, keys: [ChannelKey(newKey.publicKey)]).encoded(),
                                                           payloadType: KeyStatement.payloadType, with: [key, newKey])
                try replaceAtomically(statementPath, with: statement.encoded())
            }
            // Signed by both keys: a client that has not taken the statement yet (a cache, an
            // upload in progress) still reads the head with the old key, one that has with the new.
            for head in heads {
                try replaceAtomically(head.path, with: SignedEnvelope.signing(head.payload, payloadType: ChannelHead.payloadType, with: [key, newKey]).encoded())
            }
        } catch let error as Failure {
            throw error
        } catch {
            throw .writing("signing failed", cause: ErrorCause(error))
        }
        return Rotation(statementPath: statementPath, heads: heads.map(\.path))
    }

    /// The channel folder's last key statement: its version and the keys it names (read, not
    /// verified: the folder is the publisher's own). Nil when there is none.
    func lastStatement() -> (version: Int, keys: [String])? {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.keysFolder))) ?? []).compactMap { name in
            ChannelLayout.keyStatementVersion(ofName: name).flatMap { (1..<ChannelHead.maximumSequence).contains($0) ? $0 : nil }
        }
        guard let version = versions.max() else { return nil }
        guard let data = FileManager.default.contents(atPath: path(ChannelLayout.keyStatementPath(version: version))),
              let payload = SignedEnvelope.unverifiedPayload(data),
              let statement = try? JSONDecoder().decode(KeyStatement.self, from: payload) else { return (version, []) }
        return (version, statement.keys)
    }

    /// Refuses a key that a key statement handed the channel over from.
    func refuseReplacedKey() throws(Failure) {
        guard let last = lastStatement(), !last.keys.contains(ChannelKey(key.publicKey).description) else { return }
        throw .keyReplaced(statement: ChannelLayout.keyStatementPath(version: last.version))
    }
}
