import CatalogModel
import Foundation

/// A channel's new keys, announced without an app update: `keys/<version>.json` in the channel
/// folder, a signed envelope like the head. Written by `digno rotate-key`.
///
/// A statement is taken only when a key the client trusts now signed it, and when every key it
/// names signed it too (whoever announces a key shows they hold it). Versions count from 1, one
/// file each, never replaced, so that a client that missed some walks them in order, each
/// vouched for by the keys before it. Once taken, the statement's keys replace the trusted ones:
/// heads signed by a key it leaves out are refused.
package struct KeyStatement: Codable, Sendable, Equatable {
    /// The envelope's payload type for a key statement.
    package static let payloadType = "application/vnd.cafedigno.channel-keys+json"
    /// The statement format this library reads.
    package static let formatVersion = 1
    /// The most keys a statement may name.
    package static let keyLimit = 8

    package var format: Int
    /// 1 for the first rotation, then one more each time.
    package var version: Int
    /// The keys that sign the channel's heads from now on, as `digno keygen` prints them.
    package var keys: [String]

    package init(version: Int, keys: [ChannelKey]) {
        format = Self.formatVersion
        self.version = version
        self.keys = keys.map(\.description)
    }

    /// The statement in the envelope `data`, once checked: signed by one of `trusted`, of this
    /// format and `version`, naming one to `keyLimit` keys, each of which signed it too.
    package static func verified(_ data: Data, trusted: [ChannelKey], version: Int) throws(ChannelError) -> (statement: KeyStatement, keys: [ChannelKey]) {
        let payload = try SignedEnvelope.verifiedPayload(data, payloadType: payloadType, keys: trusted)
        let statement: KeyStatement
        do {
            statement = try JSONDecoder().decode(KeyStatement.self, from: payload)
        } catch {
            throw .notAKeyStatement("its fields are not a key statement's", cause: ErrorCause(error))
        }
        guard statement.format == formatVersion else { throw .notAKeyStatement("it is format \(statement.format); this library reads format \(formatVersion)") }
        guard statement.version == version else { throw .notAKeyStatement("it says version \(statement.version), at the place of version \(version)") }
        guard (1...keyLimit).contains(statement.keys.count) else { throw .notAKeyStatement("it names \(statement.keys.count) keys") }
        var keys: [ChannelKey] = []
        for text in statement.keys { keys.append(try ChannelKey(text)) }
        let signers = try SignedEnvelope.signed(data, payloadType: payloadType, keys: keys).signers
        for key in keys where !signers.contains(key.id) {
            throw .notAKeyStatement("the key \(key) it names did not sign it")
        }
        return (statement, keys)
    }

    /// The statement's bytes as published: JSON with sorted keys.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()  // strings and numbers always encode
    }
}
