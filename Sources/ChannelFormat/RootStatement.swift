import CatalogModel
import Foundation

/// A channel folder's root of trust: which release keys sign its heads, and how many of them
/// must (`releaseThreshold`), stated by root keys kept offline, how many of which must sign a
/// root (`rootThreshold`). `roots/<version>.json` in the channel folder, a signed envelope like
/// the head, written by `digno root`. An app pins the root keys; a release key that leaks is
/// replaced by the next root, signed offline, with no app update (as TUF's root role does).
///
/// Versions count from 1, one file each, never replaced. Root N+1 is taken only when at least
/// root N's `rootThreshold` of root N's root keys signed it, and at least its own
/// `rootThreshold` of its own root keys (so that rotating the root keys needs both the old and
/// the new ones); a client that missed some walks them in order. Only the newest root taken
/// counts: heads need `releaseThreshold` signatures by the release keys it names, and a
/// signature by any other key is ignored. A root expires; once the newest one a client has
/// taken has expired, it installs nothing until the channel serves a renewed one.
package struct RootStatement: Codable, Sendable, Equatable {
    /// The envelope's payload type for a root.
    package static let payloadType = "application/vnd.cafedigno.channel-root+json"
    /// The root format this library reads.
    package static let formatVersion = 1
    /// The most keys of each kind a root may name.
    package static let keyLimit = 8

    package var format: Int
    /// 1 for the first root, then one more each time.
    package var version: Int
    /// When the root stops being trusted (ISO 8601, UTC, to the second).
    package var expires: Date
    /// The keys that sign roots, kept offline, as `digno keygen` prints them.
    package var rootKeys: [String]
    /// How many of `rootKeys` must sign a root: this one, and the next.
    package var rootThreshold: Int
    /// The keys that sign the channel's heads, as `digno keygen` prints them.
    package var releaseKeys: [String]
    /// How many of `releaseKeys` must sign a head.
    package var releaseThreshold: Int

    package init(version: Int, expires: Date, rootKeys: [ChannelKey], rootThreshold: Int, releaseKeys: [ChannelKey], releaseThreshold: Int) {
        format = Self.formatVersion
        self.version = version
        self.expires = expires
        self.rootKeys = rootKeys.map(\.description)
        self.rootThreshold = rootThreshold
        self.releaseKeys = releaseKeys.map(\.description)
        self.releaseThreshold = releaseThreshold
    }

    /// A root's keys parsed, and its thresholds checked against them.
    package struct Keys: Sendable, Equatable {
        package var root: [ChannelKey]
        package var release: [ChannelKey]
    }

    /// The keys the root names, parsed; throws when the root is not one to take: another
    /// format, no keys or more than `keyLimit` of a kind, a key named twice, a threshold that
    /// is not from 1 to its keys' count.
    package func checkedKeys() throws(ChannelError) -> Keys {
        guard format == Self.formatVersion else { throw .notARoot("it is format \(format); this library reads format \(Self.formatVersion)") }
        guard version >= 1, version < ChannelHead.maximumSequence else { throw .notARoot("its version is \(version)") }
        func parsed(_ texts: [String], threshold: Int, kind: String) throws(ChannelError) -> [ChannelKey] {
            guard (1...Self.keyLimit).contains(texts.count) else { throw .notARoot("it names \(texts.count) \(kind) keys; from 1 to \(Self.keyLimit) may be named") }
            var keys: [ChannelKey] = []
            for text in texts {
                let key: ChannelKey
                do { key = try ChannelKey(text) } catch { throw .notARoot("its \(kind) key '\(text)' is not a key") }
                guard !keys.contains(key) else { throw .notARoot("it names the \(kind) key \(key) twice") }
                keys.append(key)
            }
            guard (1...keys.count).contains(threshold) else {
                throw .notARoot("its \(kind) threshold is \(threshold), and it names \(keys.count) \(kind) key\(keys.count == 1 ? "" : "s")")
            }
            return keys
        }
        return Keys(root: try parsed(rootKeys, threshold: rootThreshold, kind: "root"),
                    release: try parsed(releaseKeys, threshold: releaseThreshold, kind: "release"))
    }

    /// The root in the envelope `data` at the place of `version`, once checked: signed by at
    /// least `threshold` of `trusted` (the previous root's root keys and threshold, or the keys
    /// and threshold the app pins, for the first root it takes), and by at least its own
    /// threshold of its own root keys; a root as `checkedKeys` says. Expiry is not checked here:
    /// a client walks through expired roots to the newest, which must not have expired.
    package static func verified(_ data: Data, trusted: [ChannelKey], threshold: Int, version: Int) throws(ChannelError) -> (root: RootStatement, keys: Keys) {
        let (payload, signers, keyIDs) = try SignedEnvelope.signed(data, payloadType: payloadType, keys: trusted)
        guard signers.count >= threshold else {
            throw signers.isEmpty ? .notSigned(keyIDs: keyIDs) : .tooFewSignatures(found: signers.count, needed: threshold, of: "the trusted root keys")
        }
        let root: RootStatement
        do {
            root = try decoder.decode(RootStatement.self, from: payload)
        } catch {
            throw .notARoot("its fields are not a root's", cause: ErrorCause(error))
        }
        let keys = try root.checkedKeys()
        guard root.version == version else { throw .notARoot("it says version \(root.version), at the place of version \(version)") }
        let own = try SignedEnvelope.signed(data, payloadType: payloadType, keys: keys.root).signers
        guard own.count >= root.rootThreshold else {
            throw .tooFewSignatures(found: own.count, needed: root.rootThreshold, of: "its own root keys")
        }
        return (root, keys)
    }

    /// The root's bytes as published: JSON with sorted keys, the expiry to the second.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(self)) ?? Data()  // strings, numbers and dates always encode
    }

    package static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
