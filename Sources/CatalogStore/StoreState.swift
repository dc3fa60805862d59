import CatalogModel
import ChannelFormat
import Foundation

/// What the store remembers, in `store.json`, replaced by rename so that a crash leaves the
/// old state or the new one: per channel, the highest sequence number seen and the last head
/// (with its ETag, for the next conditional request); and the installed bundles, current
/// first, then the previous one.
struct StoreState: Codable, Equatable {
    struct Channel: Codable, Equatable {
        var highestSequence: Int
        /// Where the head was fetched from; the ETag is that URL's.
        var headURL: String
        var etag: String?
        var head: ChannelHead
        /// The head's envelope as fetched, to check again when the app pins other keys.
        var envelope: Data
        /// The SHA-256 of the head's bundle if it was refused (not the signed bytes, or not a
        /// bundle): not downloaded again until the channel publishes a new head.
        var refusedBundle: String?
    }

    /// The keys trusted for a channel folder: those the app pins, until a key statement
    /// (`KeyStatement`) vouched for by them names others. Reset when the app pins other keys.
    struct Trust: Codable, Equatable {
        /// The pinned keys this trust started from.
        var pinned: [String]
        /// The last key statement taken; 0 for none.
        var version: Int
        var keys: [String]
    }

    /// The root a store pinning root keys kept in this file before 2026-12, by the channel
    /// folder's URL; its roots are files of their own now (`KeptRoots`). Read to take such a
    /// store over, never written.
    struct LegacyRootTrust: Codable, Equatable {
        var pinned: String
        var version: Int
        var envelope: Data
        var sequenceReset: Bool?
    }

    static let formatVersion = 1

    var format = formatVersion
    var channels: [String: Channel] = [:]
    /// For a store pinning release keys: the keys trusted, whatever URL the channel folder is
    /// served at (one channel, one trust). A store pinning root keys keeps its roots as files
    /// (`KeptRoots`).
    var keyTrust: Trust?
    /// The newest root a store pinning root keys took, under the pin it took it for: a floor
    /// its kept roots must prove again (`KeptRoots.proven`) before anything is dropped by them.
    /// Kept roots that prove less (a root file decayed, an app that no longer ships its root
    /// file) drop nothing, and the next update walks the host back up to it.
    struct RootTaken: Codable, Equatable {
        var pinned: String
        var version: Int
    }

    var rootTaken: RootTaken?
    /// Set when the keys trusted changed (a root dropped a release key) and a channel's seen
    /// head was forgotten for it: until a head is taken again, one naming a release older than
    /// an installed one the trusted keys vouch for is refused.
    var sequenceReset: Bool?
    /// What clients before 2026-12 kept by the channel folder's URL: read to take such a store
    /// over (`BundleStore.takenOver`), never written.
    var trust: [String: Trust]?
    var roots: [String: LegacyRootTrust]?
    var installed: [BundleStore.Release] = []
    /// How delta updates have fared; absent until the first install after they came.
    var deltas: BundleStore.DeltaReport?

    /// `deltas`, or an empty report.
    var deltaReport: BundleStore.DeltaReport {
        get { deltas ?? BundleStore.DeltaReport() }
        set { deltas = newValue }
    }

    /// The most bytes a state may have: a few heads of at most 64 KiB each and the keys they
    /// trust. Read under this cap, so that a damaged or planted file cannot fill the memory.
    static let sizeLimit = 1 << 20

    static func load(_ path: String) throws(BundleStoreError) -> StoreState {
        guard let data = try StoreFiles.contents(path, limit: sizeLimit) else { return StoreState() }
        guard let state = decoded(data) else {
            throw .storage(StorageFailure(path: path, errorNumber: nil,
                                             message: "\(path) is not a store's state; remove the store's folder to start again from the seed"))
        }
        return state
    }

    /// The state in `data`, nil when it is not a sound one.
    static func decoded(_ data: Data) -> StoreState? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let state = try? decoder.decode(StoreState.self, from: data), state.format == formatVersion, state.isSound else { return nil }
        return state
    }

    /// Whether what the state names can be files of the store: SHA-256s in hex (never a path
    /// such as `../../x`) and sizes a bundle may have.
    var isSound: Bool {
        installed.count <= 2 && installed.allSatisfy { $0.sha256.isSHA256Hex && (1...BundleStore.maximumBundleSize).contains($0.bytes) }
    }

    func save(_ path: String) throws(BundleStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(self) else { throw .storage(StorageFailure(path: nil, errorNumber: nil, message: "the store's state cannot be encoded")) }
        try StoreFiles.replace(path, with: data)
    }
}
