import CatalogModel
import Foundation

/// What a channel's head says: the release to install now. Published by `digno publish` as a
/// signed envelope (`SignedEnvelope`) at `channels/<channel>/head.json`; a client parses it only
/// once a pinned key has vouched for its exact bytes (`verified`).
package struct ChannelHead: Codable, Sendable, Equatable {
    /// A bundle file on the host, by its path from the channel folder's root.
    package struct BundleFile: Codable, Sendable, Equatable {
        /// `bundles/<sha256>.sqlite`.
        package var path: String
        /// The file's SHA-256, in lowercase hex.
        package var sha256: String
        package var bytes: Int

        package init(path: String, sha256: String, bytes: Int) {
            self.path = path
            self.sha256 = sha256
            self.bytes = bytes
        }
    }

    /// The release notes: what changed since the previous head's release, as `digno diff`
    /// shows it, in JSON (`CatalogChanges`) and Markdown, each a file on the host named by its
    /// SHA-256 under `notes/`.
    package struct Notes: Codable, Sendable, Equatable {
        /// The release the notes start from: the previous head's.
        package var since: String
        package var json: BundleFile
        package var markdown: BundleFile

        package init(since: String, json: BundleFile, markdown: BundleFile) {
            self.since = since
            self.json = json
            self.markdown = markdown
        }
    }

    /// A delta update: a VCDIFF file (RFC 3284) that turns the bundle whose SHA-256 is `from`
    /// into this head's bundle, under `deltas/<from>-<to>.vcdiff`. A client holding that exact
    /// bundle may fetch it instead of the whole bundle, and checks the result against the
    /// bundle's SHA-256.
    package struct Delta: Codable, Sendable, Equatable {
        /// The SHA-256 of the bundle the delta applies to, in lowercase hex.
        package var from: String
        package var path: String
        /// The delta file's SHA-256, in lowercase hex.
        package var sha256: String
        package var bytes: Int

        package init(from: String, path: String, sha256: String, bytes: Int) {
            self.from = from
            self.path = path
            self.sha256 = sha256
            self.bytes = bytes
        }

        /// The delta as a file on the host.
        package var file: BundleFile { BundleFile(path: path, sha256: sha256, bytes: bytes) }
    }

    /// The same release in another bundle schema than the head's own fields describe: its
    /// bundle, the bundles of earlier releases in that schema kept on the host, its deltas and
    /// release notes. A head's own fields are the oldest schema the channel serves, which
    /// clients built before `schemas` existed read (they ignore this key); `schemas` holds the
    /// newer ones. Each client installs the newest schema it reads (`forSchemas(_:)`).
    package struct SchemaRelease: Codable, Sendable, Equatable {
        package var schemaVersion: Int
        package var bundle: BundleFile
        package var retained: [BundleFile]
        package var notes: Notes?
        package var deltas: [Delta]?
        package var notesFrom: [Notes]?
        /// As the head's `releaseCount` and `releaseCountIsAtLeast`, for this schema.
        package var releaseCount: Int?
        package var releaseCountIsAtLeast: Bool?

        package init(schemaVersion: Int, bundle: BundleFile, retained: [BundleFile], notes: Notes? = nil, deltas: [Delta]? = nil,
                     notesFrom: [Notes]? = nil, releaseCount: Int? = nil, releaseCountIsAtLeast: Bool? = nil) {
            self.schemaVersion = schemaVersion
            self.bundle = bundle
            self.retained = retained
            self.notes = notes
            self.deltas = deltas
            self.notesFrom = notesFrom
            self.releaseCount = releaseCount
            self.releaseCountIsAtLeast = releaseCountIsAtLeast
        }
    }

    /// The envelope's payload type for a head.
    package static let payloadType = "application/vnd.cafedigno.channel-head+json"
    /// The head format this library reads.
    package static let formatVersion = 1
    /// The highest sequence number a head may have (2^53, the largest integer every JSON reader
    /// keeps exactly), far from where adding one overflows.
    package static let maximumSequence = 1 << 53

    package var format: Int
    /// The channel's name, such as `stable`.
    package var channel: String
    /// Strictly increasing from one head of the channel to the next: a client refuses a head
    /// whose number is lower than the highest it has seen, so an old head replayed cannot hold
    /// it back.
    package var sequence: Int
    package var releaseVersion: String
    package var releaseDate: Day
    /// The bundle schema version the release needs (`CatalogBundle` reads only its own).
    package var schemaVersion: Int
    package var contentDigest: String
    package var bundle: BundleFile
    /// After this time the head is stale: a client installs nothing from it and says so.
    package var expires: Date
    /// The bundles of earlier heads still on the host, so that a client midway through a
    /// download does not meet a 404.
    package var retained: [BundleFile]
    /// The release notes, absent for a channel's first head (and from heads written before
    /// them: a head without the key reads as one without notes).
    package var notes: Notes?
    /// Deltas to this head's bundle from recent releases' bundles, the newest release first;
    /// absent when there are none (and from heads written before them).
    package var deltas: [Delta]?
    /// Release notes to this head's release from older recent releases (those deltas start
    /// from, but the previous head's, which `notes` has), the newest first: an app several
    /// releases behind says what changed since the release it had. Absent when there are none
    /// (and from heads written before them; a client that does not know the key ignores it).
    package var notesFrom: [Notes]?
    /// The release in the newer schemas the channel serves, each once, oldest first; absent when
    /// it serves one (and from heads written before them).
    package var schemas: [SchemaRelease]?
    /// How many releases the channel has served in the head's own schema, this one included (a
    /// rollback or a renewal is no new release), so that retiring a schema can say how long it
    /// was served. Absent from heads written before it was counted. For the publisher alone:
    /// clients neither read nor check it.
    package var releaseCount: Int?
    /// True when the channel served the schema in heads written before releases were counted
    /// (each counted as one): `releaseCount` is then a lower bound. Absent otherwise.
    package var releaseCountIsAtLeast: Bool?

    package init(channel: String, sequence: Int, releaseVersion: String, releaseDate: Day, schemaVersion: Int,
                contentDigest: String, bundle: BundleFile, expires: Date, retained: [BundleFile], notes: Notes? = nil,
                deltas: [Delta]? = nil, notesFrom: [Notes]? = nil, schemas: [SchemaRelease]? = nil, releaseCount: Int? = nil,
                releaseCountIsAtLeast: Bool? = nil) {
        self.format = Self.formatVersion
        self.channel = channel
        self.sequence = sequence
        self.releaseVersion = releaseVersion
        self.releaseDate = releaseDate
        self.schemaVersion = schemaVersion
        self.contentDigest = contentDigest
        self.bundle = bundle
        self.expires = expires
        self.retained = retained
        self.notes = notes
        self.deltas = deltas
        self.notesFrom = notesFrom
        self.schemas = schemas
        self.releaseCount = releaseCount
        self.releaseCountIsAtLeast = releaseCountIsAtLeast
    }

    /// The release in every schema the head offers, its own fields' first.
    package var offered: [SchemaRelease] {
        [SchemaRelease(schemaVersion: schemaVersion, bundle: bundle, retained: retained, notes: notes, deltas: deltas, notesFrom: notesFrom,
                       releaseCount: releaseCount, releaseCountIsAtLeast: releaseCountIsAtLeast)]
            + (schemas ?? [])
    }

    /// The head as its release in `schema` alone, if it offers that schema.
    package func release(schema: Int) -> ChannelHead? {
        offered.contains { $0.schemaVersion == schema } ? forSchemas(schema...schema) : nil
    }

    /// The head as a client that reads the schemas `readable` sees it: its own fields those of
    /// the newest schema it offers that the client reads (the head's own schema, or one of
    /// `schemas`), without `schemas`. When it offers none the client reads, the newest it offers,
    /// which the client then refuses as needing an app update.
    package func forSchemas(_ readable: ClosedRange<Int>) -> ChannelHead {
        let chosen = offered.filter { readable.contains($0.schemaVersion) }.max { $0.schemaVersion < $1.schemaVersion }
            ?? offered.max { $0.schemaVersion < $1.schemaVersion }!
        var head = self
        head.schemaVersion = chosen.schemaVersion
        head.bundle = chosen.bundle
        head.retained = chosen.retained
        head.notes = chosen.notes
        head.deltas = chosen.deltas
        head.notesFrom = chosen.notesFrom
        head.releaseCount = chosen.releaseCount
        head.releaseCountIsAtLeast = chosen.releaseCountIsAtLeast
        head.schemas = nil
        return head
    }

    /// The head in the envelope `data`, once `threshold` of `keys` (one, by default) have
    /// signed its exact bytes and it reads as a head: this format, a sequence from 1, bundle
    /// paths under `bundles/` (notes under `notes/`, deltas under `deltas/`) that cannot climb
    /// out of the channel folder, SHA-256s in lowercase hex, sizes from 1 to 2^53.
    package static func verified(_ data: Data, keys: [ChannelKey], threshold: Int = 1) throws(ChannelError) -> ChannelHead {
        let payload = try SignedEnvelope.verifiedPayload(data, payloadType: payloadType, keys: keys, threshold: threshold)
        let head: ChannelHead
        do {
            head = try decoder.decode(ChannelHead.self, from: payload)
        } catch {
            throw .notAHead("its fields are not a head's", cause: ErrorCause(error))
        }
        guard head.format == formatVersion else { throw .notAHead("it is format \(head.format); this library reads format \(formatVersion)") }
        guard (1...maximumSequence).contains(head.sequence) else { throw .notAHead("its sequence number is \(head.sequence)") }
        let (bundles, notes, deltas) = (ChannelLayout.bundlesFolder + "/", ChannelLayout.notesFolder + "/", ChannelLayout.deltasFolder + "/")
        let releases = head.offered
        // Each schema once: a client picks one by its version.
        guard Set(releases.map(\.schemaVersion)).count == releases.count else {
            throw .notAHead("it offers schema \(releases.map(\.schemaVersion).sorted().map(String.init).joined(separator: ", ")), one of them twice")
        }
        var files: [(BundleFile, String)] = []
        for release in releases {
            files += ([release.bundle] + release.retained).map { ($0, bundles) }
            files += ((release.notes.map { [$0] } ?? []) + (release.notesFrom ?? [])).flatMap { [$0.json, $0.markdown] }.map { ($0, notes) }
            files += (release.deltas ?? []).map { ($0.file, deltas) }
            for delta in release.deltas ?? [] where !delta.from.isSHA256Hex {
                throw .notAHead("'\(delta.from)' is not a SHA-256 in lowercase hex")
            }
        }
        for (file, folder) in files {
            guard isFilePath(file.path, in: folder) else { throw .notAHead("'\(file.path)' is not a path under \(folder)") }
            guard file.sha256.isSHA256Hex else { throw .notAHead("'\(file.sha256)' is not a SHA-256 in lowercase hex") }
            // Above zero, and at most 2^53, so that no sum or product of sizes can overflow.
            guard (1...maximumSequence).contains(file.bytes) else { throw .notAHead("\(file.path) is \(file.bytes) bytes") }
        }
        return head
    }

    /// The head's bytes as published: JSON with sorted keys, dates in ISO 8601, so that the same
    /// head is the same bytes.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, numbers and dates always encode.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The head in the envelope `data`, its signatures unchecked: for a publisher or an editor
    /// reading their own channel folder, never for a client.
    package static func unverified(_ data: Data) -> ChannelHead? {
        SignedEnvelope.unverifiedPayload(data).flatMap { try? decoder.decode(ChannelHead.self, from: $0) }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `folder` (such as `bundles/`) and one name of letters, digits, `.`, `-` and `_`, not
    /// starting with a dot: nothing that climbs out of the channel folder.
    static func isFilePath(_ path: String, in folder: String) -> Bool {
        guard path.hasPrefix(folder) else { return false }
        let name = path.dropFirst(folder.count)
        return !name.isEmpty && name.first != "." && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
