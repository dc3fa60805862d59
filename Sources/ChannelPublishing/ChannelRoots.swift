import CatalogModel
import ChannelFormat
import Crypto
import Foundation

/// A channel folder's roots (`roots/<version>.json`, `RootStatement`), as `digno root` makes
/// them: a draft of the next root written to a file, signed on each root key's own machine (one
/// signature added per step, the file carried between them), then published into the folder
/// once enough root keys have signed it. The folder is the release manager's own: what it holds
/// is read without checking signatures, but a root is checked as a client checks it before it
/// is published.
package struct ChannelRoots {
    package var channelFolder: String

    package init(channelFolder: String) {
        self.channelFolder = channelFolder
    }

    /// Why a root could not be drafted, signed or published.
    package enum Failure: CausedError, Equatable, CustomStringConvertible {
        /// The draft file cannot be read or is not a root's envelope.
        case notARoot(String, cause: ErrorCause? = nil)
        /// What the root says cannot be: no keys, a threshold out of range, an expiry passed.
        case invalid(String)
        /// Published roots are never replaced: another root has that version.
        case versionTaken(Int)
        /// Not signed by enough keys to be taken by a client.
        /// Too few of `keys` (the previous root's root keys, or its own for the first) signed it.
        case notEnoughSignatures(ChannelError, keys: [ChannelKey])
        case writing(String, cause: ErrorCause? = nil)

        package var description: String {
            switch self {
            case .notARoot(let reason, let cause): "not a root to sign or publish: \(reason)" + (cause.map { ": \($0)" } ?? "")
            case .invalid(let reason): "the root cannot be: \(reason)"
            case .versionTaken(let version):
                "the channel folder has another root \(version) (\(ChannelLayout.rootPath(version: version))); roots are never replaced: draft root \(version + 1)"
            case .notEnoughSignatures(let error, let keys):
                "an app would not take this root: \(error); sign it with more of the root keys "
                    + keys.map(\.description).joined(separator: ", ") + " (digno root sign; digno root show says who signed)"
            case .writing(let reason, let cause): "cannot write the root: \(reason)" + (cause.map { ": \($0)" } ?? "")
            }
        }

        package var cause: ErrorCause? {
            switch self {
            case .notARoot(_, let cause), .writing(_, let cause): cause
            case .notEnoughSignatures(let error, _): ErrorCause(error)
            case .invalid, .versionTaken: nil
            }
        }
    }

    // MARK: - Reading the folder

    /// The versions of the folder's root files, readable or not.
    package func versions() -> [Int] {
        guard !channelFolder.isEmpty else { return [] }
        let folder = channelFolder + "/" + ChannelLayout.rootsFolder
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap(ChannelLayout.rootVersion(ofName:)).sorted()
    }

    /// The folder's roots, by version, as published (not verified: the folder is the release
    /// manager's own); none without a folder (`channelFolder` empty). A file that does not read
    /// as a root is left out here, but its version is taken (`versions`).
    package func published() -> [(version: Int, root: RootStatement, envelope: Data)] {
        versions().compactMap { version in
            guard let data = FileManager.default.contents(atPath: channelFolder + "/" + ChannelLayout.rootPath(version: version)),
                  let payload = SignedEnvelope.unverifiedPayload(data),
                  let root = try? RootStatement.decoder.decode(RootStatement.self, from: payload), root.version == version else { return nil }
            return (version, root, data)
        }
    }

    /// The newest root published, if any.
    package func newest() -> RootStatement? { published().last?.root }

    // MARK: - Drafting, signing, publishing

    /// The next root's draft (an envelope with no signature yet): version one more than the
    /// newest published (1 for the first), naming `releaseKeys` (of which `releaseThreshold`
    /// sign each head) and `rootKeys` (of which `rootThreshold` sign each root; the newest
    /// root's when nil), expiring at `expires`, which must be after `now`.
    package func draft(releaseKeys: [ChannelKey], releaseThreshold: Int, rootKeys: [ChannelKey]?, rootThreshold: Int?,
                       expires: Date, now: Date) throws(Failure) -> (root: RootStatement, envelope: Data) {
        let newest = newest()
        let keys: [ChannelKey]
        if let rootKeys {
            keys = rootKeys
        } else if let newest {
            keys = newest.rootKeys.compactMap { try? ChannelKey($0) }
        } else {
            throw .invalid("the channel has no root yet: give its root keys (--root-key, one per key)")
        }
        // After the last file of the folder, read or not: a version is never taken twice.
        let root = RootStatement(version: (versions().last ?? 0) + 1, expires: expires, rootKeys: keys,
                                 rootThreshold: rootThreshold ?? newest?.rootThreshold ?? 1,
                                 releaseKeys: releaseKeys, releaseThreshold: releaseThreshold)
        do { _ = try root.checkedKeys() } catch { throw .invalid("\(error)") }
        guard expires > now else { throw .invalid("it would expire at \(ISO8601DateFormatter().string(from: expires)), which has passed") }
        let envelope = SignedEnvelope(payloadType: RootStatement.payloadType, payload: root.encoded().base64EncodedString(), signatures: [])
        return (root, envelope.encoded())
    }

    /// The root's envelope in `data` with `key`'s signature added (replacing an earlier one by
    /// the same key), and the root. Refused when `key` is none of the root's root keys nor of
    /// the previous root's (whose signatures the client needs too).
    package func sign(_ data: Data, with key: Curve25519.Signing.PrivateKey) throws(Failure) -> (root: RootStatement, envelope: Data) {
        let (envelope, root) = try Self.read(data)
        let signer = ChannelKey(key.publicKey)
        let previous = published().first { $0.version == root.version - 1 }?.root
        let allowed = Set(root.rootKeys + (previous?.rootKeys ?? []))
        guard allowed.contains(signer.description) else {
            throw .invalid("the key \(signer) is not one of root \(root.version)'s root keys\(previous == nil ? "" : " nor of root \(root.version - 1)'s")")
        }
        guard let payload = Data(base64Encoded: envelope.payload) else { throw .notARoot("its payload is not base64") }
        let input = SignedEnvelope.signingInput(payloadType: envelope.payloadType, payload: payload)
        let signature: Data
        do { signature = try key.signature(for: input) } catch { throw .writing("signing failed", cause: ErrorCause(error)) }
        var signed = envelope
        signed.signatures.removeAll { $0.keyid == signer.id }
        signed.signatures.append(SignedEnvelope.Signature(keyid: signer.id, sig: signature.base64EncodedString()))
        signed.signatures.sort { $0.keyid < $1.keyid }
        return (root, signed.encoded())
    }

    /// Publishes the root in `data` as `roots/<version>.json`, once it is checked as a client
    /// checks it: the next version, not expired at `now`, signed by the previous root's
    /// threshold of its root keys (for the first, by its own) and by its own threshold of its
    /// own. The same bytes published again are nothing to do; any other file at that version
    /// (even one that does not read) is never replaced.
    package func publish(_ data: Data, now: Date) throws(Failure) -> (root: RootStatement, path: String) {
        let (_, said) = try Self.read(data)
        let published = published()
        let newestVersion = versions().last ?? 0
        let path = ChannelLayout.rootPath(version: said.version)
        if FileManager.default.fileExists(atPath: channelFolder + "/" + path) {
            guard published.first(where: { $0.version == said.version })?.envelope == data else { throw .versionTaken(said.version) }
            return (said, path)
        }
        guard said.expires > now else {
            throw .invalid("it expired at \(ISO8601DateFormatter().string(from: said.expires)); draft it again with a later --expires")
        }
        guard said.version == newestVersion + 1 else {
            throw .invalid("it is root \(said.version), and the channel's newest is \(newestVersion): publish root \(newestVersion + 1) next")
        }
        let trusted: (keys: [ChannelKey], threshold: Int)
        if let previous = published.last?.root {
            trusted = (previous.rootKeys.compactMap { try? ChannelKey($0) }, previous.rootThreshold)
        } else {
            trusted = (said.rootKeys.compactMap { try? ChannelKey($0) }, said.rootThreshold)
        }
        do {
            _ = try RootStatement.verified(data, trusted: trusted.keys, threshold: trusted.threshold, version: said.version)
        } catch {
            throw .notEnoughSignatures(error, keys: trusted.keys)
        }
        do {
            try DurableFile.makeFolder(channelFolder)
            try DurableFile.makeFolder(channelFolder + "/" + ChannelLayout.rootsFolder)
            let target = channelFolder + "/" + path
            let temporary = DurableFile.temporaryPath(for: target)
            try DurableFile.writeFlushed(data, to: temporary)
            try DurableFile.move(temporary, to: target)
        } catch {
            throw .writing("'\(path)' cannot be written", cause: ErrorCause(errno: error.code))
        }
        return (said, path)
    }

    /// The envelope in `data` and the root it holds, read but not verified.
    package static func read(_ data: Data) throws(Failure) -> (SignedEnvelope, RootStatement) {
        guard data.count <= SignedEnvelope.sizeLimit else { throw .notARoot("it is \(data.count) bytes; a root is at most \(SignedEnvelope.sizeLimit)") }
        let envelope: SignedEnvelope
        do { envelope = try JSONDecoder().decode(SignedEnvelope.self, from: data) } catch {
            throw .notARoot("it is not a signed envelope in JSON", cause: ErrorCause(error))
        }
        guard envelope.payloadType == RootStatement.payloadType else { throw .notARoot("it holds '\(envelope.payloadType)'") }
        guard let payload = Data(base64Encoded: envelope.payload) else { throw .notARoot("its payload is not base64") }
        let root: RootStatement
        do { root = try RootStatement.decoder.decode(RootStatement.self, from: payload) } catch {
            throw .notARoot("its fields are not a root's", cause: ErrorCause(error))
        }
        do { _ = try root.checkedKeys() } catch { throw .invalid("\(error)") }
        return (envelope, root)
    }
}

extension ChannelPublisher {
    /// Every release key a root in the folder names.
    func rootReleaseKeys() -> [ChannelKey] {
        Array(Set(ChannelRoots(channelFolder: channelFolder).published().flatMap(\.root.releaseKeys))).sorted().compactMap { try? ChannelKey($0) }
    }

    /// Refuses to publish when the folder has a root and this publisher's keys are fewer of
    /// its release keys than a head needs: apps would refuse the head.
    func refuseTooFewRootSignatures() throws(Failure) {
        guard let root = ChannelRoots(channelFolder: channelFolder).newest() else { return }
        let named = Set(root.releaseKeys.compactMap { try? ChannelKey($0) })
        let signing = Set(keys.map { ChannelKey($0.publicKey) }).intersection(named)
        guard signing.count < root.releaseThreshold else { return }
        throw .root("root \(root.version) asks for \(root.releaseThreshold) of its release keys, and \(signing.count) of the keys given "
            + "\(signing.count == 1 ? "is" : "are") among them; give each with --key")
    }
}
