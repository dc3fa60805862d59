import CatalogModel
import ChannelFormat
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps an app's catalogue up to date from a signed release channel, safely: the app always has
/// a bundle to open, and an update either installs a verified new one or leaves what it had.
///
/// The store's folder holds
///
///     store.json               the state: the highest sequence seen, the last head, the installed bundles
///     bundles/<sha256>.sqlite  the current bundle and the previous one
///     staging/<sha256>.part    a download in progress (a bundle's or a delta's), resumed by the next update
///     roots/<version>.json     the roots taken, for a store pinning root keys (`KeptRoots`)
///
/// Every file is written beside its place, flushed and renamed, and `store.json` names a bundle
/// only once the bundle is in place: a process killed at any point, a lost network or a full disk
/// leaves the store serving the bundle it served before, or the new one, never a mix. Two updates
/// at once, in one process or two, take turns (a lock on the folder).
public final class BundleStore: Sendable {
    /// A release the store installed; identified by its bundle's SHA-256.
    public struct Release: Codable, Sendable, Hashable, Identifiable {
        public var releaseVersion: String
        public var releaseDate: Day
        /// The head's sequence number that installed it.
        public var sequence: Int
        public var contentDigest: String
        /// The bundle file's SHA-256, in lowercase hex.
        public var sha256: String
        public var bytes: Int

        /// The bundle file's SHA-256, for `ForEach` and `List`.
        public var id: String { sha256 }
    }

    /// Where `current` found its bundle.
    public enum Source: Sendable, Equatable {
        /// The release installed last.
        case installed(Release)
        /// The release before it, because the last one did not open.
        case previous(Release)
        /// The bundle shipped in the app.
        case seed
    }

    /// The bundle to show, and where it came from.
    public struct Current: Sendable {
        public let bundle: CatalogBundle
        public let source: Source
        /// Why the releases installed after the one shown were passed over (a file missing,
        /// damaged, or another release than installed; the seed being newer), for the app's
        /// log; empty when the release installed last is shown.
        public let passedOver: [String]
        /// When the seed is shown and is a bundle of an older schema than this library reads
        /// best (`CatalogBundle.supportedSchemaVersion`): what the app misses, for its developer
        /// to see in development (`assertionFailure` in a debug build, say). The seed is shown
        /// all the same: the app always has a bundle. Nil otherwise.
        public let olderSeed: OlderSeed?

        init(bundle: CatalogBundle, source: Source, passedOver: [String]) {
            self.bundle = bundle
            self.source = source
            self.passedOver = passedOver
            let schema = bundle.release.schemaVersion
            olderSeed = source == .seed && schema < CatalogBundle.supportedSchemaVersion
                ? OlderSeed(schemaVersion: schema, best: CatalogBundle.supportedSchemaVersion) : nil
        }
    }

    /// A seed of an older bundle schema than the library reads best: the app shows less than it
    /// could until its first update (schema 2 holds the catalogue's default language alone).
    public struct OlderSeed: Sendable, Equatable, CustomStringConvertible {
        /// The seed's schema.
        public let schemaVersion: Int
        /// The schema this library reads best.
        public let best: Int

        public var description: String {
            let lacks = schemaVersion < 3
                ? "the catalogue's default language alone and one size of each picture"
                : "one size of each picture, not the sizes for each screen"
            return "the seed is a bundle of schema \(schemaVersion), which holds \(lacks); this library reads schema \(best): "
                + "ship dist/catalog.sqlite, the bundle digno build writes first (not catalog.schema-\(schemaVersion).sqlite, which is for older apps)"
        }
    }

    /// What an update did.
    public enum UpdateOutcome: Sendable, Equatable {
        /// A new release was downloaded, verified and installed (or, for a channel rolled back to
        /// the previous release, made current again). `current` gives it from now on; bundles
        /// already open keep reading what they read.
        case installed(Release)
        /// The release the app has was damaged on the device (a decayed file, or damage the app
        /// reported with `reportDamage(in:)`) and was fetched again: the same release, with the
        /// same notes. Not a new release to the app: `releases()` does not announce it. `current()`
        /// gives it again, so reopen the bundle when the app was showing an older one meanwhile.
        case repaired(Release)
        /// The channel's release is the one the app has.
        case upToDate(releaseVersion: String)
        /// The channel's head has expired, so nothing was installed from it: the host is stale,
        /// or someone is serving an old head. The app keeps what it has.
        case expired(releaseVersion: String, expired: Date)
        /// The release needs another bundle schema than this library reads; the app needs an
        /// update before it can take it.
        case schemaNotSupported(releaseVersion: String, schemaVersion: Int, supported: Int)
    }

    /// How delta updates have fared in this store: a delta the head lists is used when
    /// the store holds the exact bundle it starts from and it is less than half the bundle's
    /// size; when it fails (missing on the host, damaged, not giving the signed bundle), the
    /// same update downloads the whole bundle, and the fallback is counted here.
    public struct DeltaReport: Codable, Sendable, Equatable {
        /// Releases installed from a delta.
        public var applied = 0
        /// Updates whose delta failed and that downloaded the whole bundle instead.
        public var fallbacks = 0
        /// Why the last delta failed: its path and the failure in words.
        public var lastFailure: String?
        /// The last failure's code (`ErrorCause.code`: `http:404`, `bundle:digest`,
        /// `network:-1005`, `errno:28`, `vcdiff:checksum`); nil in a report
        /// kept before 2026-11.
        public var lastFailureCode: String?
        /// Whether the release installed last came from a delta, and from which bundle (its SHA-256).
        public var lastInstalledFrom: String?

        public init() {}
    }

    /// The largest head the store reads.
    package static let headSizeLimit = SignedEnvelope.sizeLimit

    /// What the app trusts the channel folder by.
    package enum Anchor: Sendable, Equatable {
        /// Release keys, as every app pinned them before roots; key statements replace them.
        case keys([ChannelKey])
        /// Root keys: the newest root taken names the release keys.
        case root(PinnedRoot)
    }

    let folder: String
    let seed: String?
    let anchor: Anchor
    /// The release keys the app pins; none when it pins root keys.
    var keys: [ChannelKey] {
        if case .keys(let keys) = anchor { return keys }
        return []
    }
    let baseURL: URL
    let channel: String
    let trust: any BundleTrustStore
    let transport: any ChannelTransport
    let now: @Sendable () -> Date
    var listeners: ReleaseListeners { ReleaseListeners.of(folder: folder) }
    let hashedBundles = HashedBundles()
    let opened = OpenedCurrent()

    /// A store in `folder` (created when missing) for `channel` of the channel folder served at
    /// `baseURL`, whose heads must be signed by one of `keys`.
    ///
    /// - Parameters:
    ///   - folder: The store's folder, in the app's own storage (Application Support on iOS).
    ///   - seed: The bundle shipped inside the app, used until a release is installed.
    ///   - keys: The channel's public keys, as `digno keygen` printed them.
    ///   - baseURL: Where the channel folder is served: the head is
    ///     `<baseURL>/channels/<channel>/head.json`.
    ///   - channel: The channel's name, such as `stable`.
    ///   - trust: Where the bundles that passed their `quick_check` are remembered; by default
    ///     a `FileTrustStore` in the store's folder (`trusted.txt`), so that the check runs once
    ///     per file, not at every launch.
    ///   - configuration: The app's own `URLSessionConfiguration`, for its policy on cellular
    ///     data and Low Data Mode (`allowsCellularAccess`, `allowsConstrainedNetworkAccess`),
    ///     its headers or its proxy; copied. The store sets its own cache policy (none) and time
    ///     limits on the copy. A background configuration is not for this: run `update()` in a
    ///     background task instead. Nil: an ephemeral configuration.
    public convenience init(
        folder: String, seed: String?, keys: [ChannelKey], baseURL: URL, channel: String = "stable",
        trust: (any BundleTrustStore)? = nil, configuration: URLSessionConfiguration? = nil
    ) {
        self.init(folder: folder, seed: seed, anchor: .keys(keys), baseURL: baseURL, channel: channel,
                  trust: trust ?? FileTrustStore(path: Self.trustPath(in: folder)),
                  transport: URLSessionTransport(configuration: configuration), now: { Date() })
    }

    /// A store in `folder` for `channel` of the channel folder served at `baseURL`, whose heads
    /// must be signed by the release keys that the newest root names, as many as it says; the
    /// roots are signed by `root`'s keys, kept offline, and by the root keys each root names
    /// after them. The other parameters are as for `init(folder:seed:keys:baseURL:channel:trust:configuration:)`.
    public convenience init(
        folder: String, seed: String?, root: PinnedRoot, baseURL: URL, channel: String = "stable",
        trust: (any BundleTrustStore)? = nil, configuration: URLSessionConfiguration? = nil
    ) {
        self.init(folder: folder, seed: seed, anchor: .root(root), baseURL: baseURL, channel: channel,
                  trust: trust ?? FileTrustStore(path: Self.trustPath(in: folder)),
                  transport: URLSessionTransport(configuration: configuration), now: { Date() })
    }

    package convenience init(
        folder: String, seed: String?, keys: [ChannelKey], baseURL: URL, channel: String, trust: any BundleTrustStore,
        transport: any ChannelTransport, now: @escaping @Sendable () -> Date
    ) {
        self.init(folder: folder, seed: seed, anchor: .keys(keys), baseURL: baseURL, channel: channel, trust: trust, transport: transport, now: now)
    }

    package init(
        folder: String, seed: String?, anchor: Anchor, baseURL: URL, channel: String, trust: any BundleTrustStore,
        transport: any ChannelTransport, now: @escaping @Sendable () -> Date
    ) {
        self.folder = folder
        self.seed = seed
        self.anchor = anchor
        self.baseURL = baseURL
        self.channel = channel
        self.trust = trust
        self.transport = transport
        self.now = now
    }

    /// The file of the default trust store in a store's folder.
    package static func trustPath(in folder: String) -> String { StoreLayout(folder: folder).trust }

    /// Every path of the store's folder.
    var layout: StoreLayout { StoreLayout(folder: folder) }

    /// The head's URL: `<baseURL>/channels/<channel>/head.json`.
    package var headURL: URL {
        baseURL.appendingPathComponent(ChannelLayout.headPath(channel: channel))
    }

    // MARK: - Releases

    /// Announces each release an update installs in this process, by this store or by any other
    /// ``BundleStore`` on the same folder (a background refresh task's, say), for the app to
    /// switch to when it wants. Each call gives a new stream; it ends when the task iterating it
    /// ends. An install by another process (an app extension sharing an App Group folder) is
    /// not announced; `current()` gives it at its next call.
    public func releases() -> AsyncStream<Release> {
        listeners.add()
    }

    // MARK: - Updating

    /// Fetches the channel's head and, when it names a newer release this app can read,
    /// downloads, verifies and installs it. Throws `refused` for what the channel must not be
    /// trusted with (a head not signed by a pinned key, an old head replayed, bytes that are not
    /// the signed ones), `transfer` when the network fails (a partial download is resumed next
    /// time), `storage` when the store's files cannot be written. In every case the store keeps
    /// serving what it served, but for a bundle whose bytes decayed on the device: the first
    /// update of each store instance hashes the installed bundles, stops serving any that is no
    /// longer the signed one (even offline) and fetches it again.
    public func update() async throws(BundleStoreError) -> UpdateOutcome {
        try await updateOnce()
    }

    /// `update()`, telling `progress` how far the download of the bundle (or of a delta) has come:
    /// at its start, at each new hundredth and at its end, from the transport's thread (hop to the
    /// main actor to show it); then `.verifying` as the downloaded bundle is opened and checked,
    /// and `.done` just before it returns having installed it. Nothing is said when nothing is
    /// downloaded.
    public func update(progress: @escaping @Sendable (UpdateProgress) -> Void) async throws(BundleStoreError) -> UpdateOutcome {
        let result: Result<UpdateOutcome, BundleStoreError> = await Self.$progress.withValue(progress) {
            do throws(BundleStoreError) { return .success(try await updateOnce()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// How delta updates have fared in this store (`DeltaReport`), for an app's diagnostics.
    public func deltaReport() -> DeltaReport {
        (try? StoreState.load(layout.state))?.deltaReport ?? DeltaReport()
    }
}

extension BundleStore {
    /// The release a head announces.
    static func release(of head: ChannelHead) -> Release {
        Release(releaseVersion: head.releaseVersion, releaseDate: head.releaseDate, sequence: head.sequence,
                contentDigest: head.contentDigest, sha256: head.bundle.sha256, bytes: head.bundle.bytes)
    }
}
