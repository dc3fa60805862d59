import CatalogModel
import Crypto
import Foundation

/// Keeps an app's catalogue up to date from a signed release channel, safely: the app always has
/// a bundle to open, and an update either installs a verified new one or leaves what it had.
///
/// The store's folder holds
///
///     store.json               the state: the highest sequence seen, the last head, the installed bundles
///     bundles/<sha256>.sqlite  the current bundle and the previous one
///     staging/<sha256>.part    a download in progress (a bundle's or a delta's), resumed by the next update
///
/// Every file is written beside its place, flushed and renamed, and `store.json` names a bundle
/// only once the bundle is in place: a process killed at any point, a lost network or a full disk
/// leaves the store serving the bundle it served before, or the new one, never a mix. Two updates
/// at once, in one process or two, take turns (a lock on the folder).
public final class BundleStore: Sendable {
    /// A release the store installed.
    public struct Release: Codable, Sendable, Equatable {
        public var releaseVersion: String
        public var releaseDate: Day
        /// The head's sequence number that installed it.
        public var sequence: Int
        public var contentDigest: String
        /// The bundle file's SHA-256, in lowercase hex.
        public var sha256: String
        public var bytes: Int
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
    }

    /// What an update did.
    public enum UpdateOutcome: Sendable, Equatable {
        /// A new release was downloaded, verified and installed (or, for a channel rolled back to
        /// the previous release, made current again). `current` gives it from now on; bundles
        /// already open keep reading what they read.
        case installed(Release)
        /// The channel's release is the one the app has.
        case upToDate(releaseVersion: String)
        /// The channel's head has expired, so nothing was installed from it: the host is stale,
        /// or someone is serving an old head. The app keeps what it has.
        case expired(releaseVersion: String, expired: Date)
        /// The release needs another bundle schema than this library reads; the app needs an
        /// update before it can take it.
        case schemaNotSupported(releaseVersion: String, schemaVersion: Int, supported: Int)
    }

    /// How delta updates have fared in this store: a delta (`ChannelHead.Delta`) is used when
    /// the store holds the exact bundle it starts from and it is less than half the bundle's
    /// size; when it fails (missing on the host, damaged, not giving the signed bundle), the
    /// same update downloads the whole bundle, and the fallback is counted here.
    public struct DeltaReport: Codable, Sendable, Equatable {
        /// Releases installed from a delta.
        public var applied = 0
        /// Updates whose delta failed and that downloaded the whole bundle instead.
        public var fallbacks = 0
        /// Why the last delta failed.
        public var lastFailure: String?
        /// Whether the release installed last came from a delta, and from which bundle (its SHA-256).
        public var lastInstalledFrom: String?

        public init() {}
    }

    /// The largest head the store reads.
    public static let headSizeLimit = SignedEnvelope.sizeLimit

    let folder: String
    let seed: String?
    let keys: [ChannelKey]
    let baseURL: URL
    let channel: String
    let trust: any BundleTrustStore
    let transport: any ChannelTransport
    let now: @Sendable () -> Date
    private let listeners = Listeners()

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
    ///   - trust: Where the bundles that passed their `quick_check` are remembered.
    public convenience init(
        folder: String, seed: String?, keys: [ChannelKey], baseURL: URL, channel: String = "stable",
        trust: any BundleTrustStore = InMemoryTrustStore.shared
    ) {
        self.init(folder: folder, seed: seed, keys: keys, baseURL: baseURL, channel: channel, trust: trust,
                  transport: URLSessionTransport(), now: { Date() })
    }

    package init(
        folder: String, seed: String?, keys: [ChannelKey], baseURL: URL, channel: String, trust: any BundleTrustStore,
        transport: any ChannelTransport, now: @escaping @Sendable () -> Date
    ) {
        self.folder = folder
        self.seed = seed
        self.keys = keys
        self.baseURL = baseURL
        self.channel = channel
        self.trust = trust
        self.transport = transport
        self.now = now
    }

    var statePath: String { folder + "/store.json" }
    var bundlesFolder: String { folder + "/bundles" }
    var stagingFolder: String { folder + "/staging" }
    func bundlePath(_ sha256: String) -> String { bundlesFolder + "/" + sha256 + ".sqlite" }
    func partPath(_ sha256: String) -> String { stagingFolder + "/" + sha256 + ".part" }

    /// The head's URL: `<baseURL>/channels/<channel>/head.json`.
    public var headURL: URL {
        baseURL.appendingPathComponent(ChannelLayout.headPath(channel: channel))
    }

    // MARK: - The current bundle

    /// The bundle to show: the release installed last, if it opens and passes its checks; else
    /// the one before it; else the seed. The seed also comes first when it is a newer release
    /// than any installed (an app update shipped newer content). Opening checks the file's
    /// identity and schema, and runs `quick_check` once per file per `trust` store.
    public func current() throws(BundleStoreError) -> Current {
        let installed = (try? StoreState.load(statePath))?.installed ?? []
        var problems: [String] = []
        var found: Current?
        for (index, release) in installed.enumerated() {
            let path = bundlePath(release.sha256)
            guard StoreFiles.size(path) == release.bytes else {
                problems.append("release \(release.releaseVersion) is missing or has another size")
                continue
            }
            do {
                let bundle = try CatalogBundle(path: path, trust: trust)
                guard bundle.release.contentDigest == release.contentDigest else {
                    problems.append("release \(release.releaseVersion) holds other content than installed")
                    continue
                }
                found = Current(bundle: bundle, source: index == 0 ? .installed(release) : .previous(release))
                break
            } catch {
                problems.append("\(error)")
            }
        }
        if let seed {
            do {
                let seedBundle = try CatalogBundle(path: seed, trust: trust)
                guard let installed = found else { return Current(bundle: seedBundle, source: .seed) }
                if ReleaseVersion.isNewer(seedBundle.release.releaseVersion, than: installed.bundle.release.releaseVersion) {
                    return Current(bundle: seedBundle, source: .seed)
                }
            } catch {
                problems.append("the seed: \(error)")
            }
        }
        if let found { return found }
        throw .noBundle(problems.isEmpty ? "nothing is installed and there is no seed" : problems.joined(separator: "; "))
    }

    /// Announces each release an update installs (in this process), for the app to switch to
    /// when it wants. Each call gives a new stream; it ends when the task iterating it ends.
    public func releases() -> AsyncStream<Release> {
        listeners.add()
    }

    // MARK: - Updating

    /// Fetches the channel's head and, when it names a newer release this app can read,
    /// downloads, verifies and installs it. Throws `refused` for what the channel must not be
    /// trusted with (a head not signed by a pinned key, an old head replayed, bytes that are not
    /// the signed ones), `transfer` when the network fails (a partial download is resumed next
    /// time), `storage` when the store's files cannot be written. In every case the store keeps
    /// serving what it served.
    public func update() async throws(BundleStoreError) -> UpdateOutcome {
        try StoreFiles.makeFolder(folder)
        let lock = try await StoreLock(folder)
        defer { withExtendedLifetime(lock) {} }
        var state = try StoreState.loadOrReset(statePath)
        let head = try await fetchHead(&state)

        if head.expires <= now() { return .expired(releaseVersion: head.releaseVersion, expired: head.expires) }
        guard head.schemaVersion == CatalogBundle.supportedSchemaVersion else {
            return .schemaNotSupported(releaseVersion: head.releaseVersion, schemaVersion: head.schemaVersion,
                                       supported: CatalogBundle.supportedSchemaVersion)
        }
        let release = Release(releaseVersion: head.releaseVersion, releaseDate: head.releaseDate, sequence: head.sequence,
                              contentDigest: head.contentDigest, sha256: head.bundle.sha256, bytes: head.bundle.bytes)
        if let current = state.installed.first, current.sha256 == head.bundle.sha256 {
            if opens(current) {
                removeUnlisted(state)
                // Notes that could not be fetched at the install are tried again.
                if let notes = head.notes, !FileManager.default.fileExists(atPath: notesPath(current.sha256)) {
                    await fetchNotes(notes.json, for: current)
                }
                return .upToDate(releaseVersion: current.releaseVersion)
            }
            // Damaged on the disk since it was installed: fetched again below.
            StoreFiles.remove(bundlePath(current.sha256))
        }
        if state.installed.isEmpty, let seed, let seedRelease = try? CatalogBundle(path: seed, trust: trust).release,
           seedRelease.contentDigest == head.contentDigest {
            return .upToDate(releaseVersion: seedRelease.releaseVersion)
        }
        // A channel rolled back to the release installed before: it is here already.
        var fromDelta: String?
        if !opens(release) {
            if state.channels[channel]?.refusedBundle == release.sha256 { throw .refused(.refusedBefore(sha256: release.sha256)) }
            do {
                switch try await applyDelta(head, installed: state.installed) {
                case .applied(let from): fromDelta = from
                case .failed(let reason):
                    // Counted now, so that a full download that fails too still shows it.
                    state.deltaReport.fallbacks += 1
                    state.deltaReport.lastFailure = reason
                    try state.save(statePath)
                case .none: break
                }
                if fromDelta == nil { try await download(head.bundle) }
                try install(release)
            } catch {
                if case .refused = error {
                    // Remembered, so that every launch does not download the same bad bytes.
                    state.channels[channel]?.refusedBundle = release.sha256
                    try? state.save(statePath)
                }
                throw error
            }
        }
        let previous = state.installed.first { $0.sha256 != release.sha256 }
        state.installed = [release] + (previous.map { [$0] } ?? [])
        if fromDelta != nil { state.deltaReport.applied += 1 }
        state.deltaReport.lastInstalledFrom = fromDelta
        try state.save(statePath)
        removeUnlisted(state)
        if let notes = head.notes { await fetchNotes(notes.json, for: release) }
        listeners.announce(release)
        return .installed(release)
    }

    /// How delta updates have fared in this store (`DeltaReport`), for an app's diagnostics.
    public func deltaReport() -> DeltaReport {
        (try? StoreState.load(statePath))?.deltaReport ?? DeltaReport()
    }

    /// What trying a delta came to.
    enum DeltaAttempt: Equatable {
        /// No delta to use: none starts from a bundle the store holds, or none is small enough.
        case none
        /// `staging/<sha256>.part` is the head's bundle, made from the bundle `from`, its
        /// SHA-256 checked.
        case applied(from: String)
        /// The delta failed; the bundle is to be downloaded whole.
        case failed(String)
    }

    /// Makes the head's bundle from a delta, if the head has one from a bundle the store holds
    /// (an installed release, or the seed) that is less than half the bundle's size: downloads
    /// it (resumed like a bundle, checked against its signed SHA-256 and size), applies it to
    /// a file of its own in the staging folder, checks the result's SHA-256 against the
    /// bundle's signed one, and only then renames it to the bundle's part. The installed
    /// bundles are only read. Any failure but cancellation is `failed`; a cancelled delta's
    /// download is kept, to be resumed.
    private func applyDelta(_ head: ChannelHead, installed: [Release]) async throws(BundleStoreError) -> DeltaAttempt {
        // Less than half the bundle (sizes are at most 2^53: `verified` checks them).
        let deltas = (head.deltas ?? []).filter { $0.bytes <= (head.bundle.bytes - 1) / 2 }
        let part = partPath(head.bundle.sha256)
        // A part already whole (an update stopped before installing it) needs no delta.
        guard !deltas.isEmpty, StoreFiles.size(part) != head.bundle.bytes else { return .none }
        var sources: [String: String] = [:]
        for release in installed where StoreFiles.size(bundlePath(release.sha256)) == release.bytes {
            sources[release.sha256] = bundlePath(release.sha256)
        }
        if let seed, !deltas.contains(where: { sources[$0.from] != nil }), let digest = BundleFileDigest.sha256(path: seed) {
            sources[digest.hex] = seed
        }
        guard let delta = deltas.first(where: { sources[$0.from] != nil }), let source = sources[delta.from] else { return .none }
        let deltaPart = partPath(delta.sha256)
        let result = stagingFolder + "/" + head.bundle.sha256 + ".from-delta"
        var keepDelta = false
        defer {
            if !keepDelta { StoreFiles.remove(deltaPart) }
            StoreFiles.remove(result)
        }
        do {
            try await download(delta.file, keeping: part)
            _ = try VCDIFFDecoder(source: source, targetLimit: head.bundle.bytes).apply(delta: deltaPart, to: result)
            guard let digest = BundleFileDigest.sha256(path: result) else { throw BundleStoreError.storage("\(result) cannot be read") }
            guard digest.hex == head.bundle.sha256 else {
                return .failed("\(delta.path) gives a bundle whose SHA-256 is \(digest.hex), not the signed \(head.bundle.sha256)")
            }
            try StoreFiles.sync(result)
            try StoreFiles.move(result, to: part)
            return .applied(from: delta.from)
        } catch BundleStoreError.cancelled {
            keepDelta = true
            throw .cancelled
        } catch BundleStoreError.refused(.bundleDigest(let found, let signed)) {
            return .failed("\(delta.path): its SHA-256 is \(found), not the signed \(signed)")
        } catch {
            return .failed("\(delta.path): \(error)")
        }
    }

    /// The most bytes of release notes the store fetches.
    public static let notesSizeLimit = 16 << 20

    /// The current installed release's notes: what changed since the release before it on the
    /// channel, for a "what's new". Nil when the release came with none (a channel's first, or
    /// notes that could not be fetched), or the app shows the seed.
    public func releaseNotes() -> CatalogChanges? {
        guard let current = (try? StoreState.load(statePath))?.installed.first,
              let data = FileManager.default.contents(atPath: notesPath(current.sha256)) else { return nil }
        return CatalogChanges.decoded(from: data)
    }

    /// Where the notes of the installed release `sha256` are kept: `bundles/<sha256>.notes.json`.
    public func notesPath(_ sha256: String) -> String { bundlesFolder + "/" + sha256 + ".notes.json" }

    /// Fetches the release notes for `release` and keeps them beside its bundle, if their
    /// SHA-256 is the signed one. Notes are a courtesy: a failure leaves the release without
    /// them and does not fail the update.
    private func fetchNotes(_ file: ChannelHead.BundleFile, for release: Release) async {
        guard file.bytes <= Self.notesSizeLimit else { return }
        let buffer = ByteBuffer()
        let url = baseURL.appendingPathComponent(file.path)
        guard let response = try? await transport.get(url, headers: [:], timeout: Self.signedFileTimeout, response: { response throws(BundleStoreError) in
            guard response.status == 200 else { throw .transfer("\(url.absoluteString) answered HTTP \(response.status)") }
        }, body: { data throws(BundleStoreError) in
            guard buffer.append(data, limit: file.bytes) else { throw .refused(.bundleTooLong(declared: file.bytes)) }
        }), response.status == 200 else { return }
        let data = buffer.data
        guard data.count == file.bytes, SHA256.hash(data: data).hexString == file.sha256 else { return }
        try? StoreFiles.replace(notesPath(release.sha256), with: data)
    }

    /// Whether the release's file is in `bundles/`, whole, and opens with its content.
    private func opens(_ release: Release) -> Bool {
        let path = bundlePath(release.sha256)
        guard StoreFiles.size(path) == release.bytes, let bundle = try? CatalogBundle(path: path, trust: trust) else { return false }
        return bundle.release.contentDigest == release.contentDigest
    }

    /// Fetches and verifies the head, with the ETag of the last one; an unchanged head (304) is
    /// the last one. A changed head is verified with the keys trusted after any new key
    /// statements; its sequence number is checked against the highest seen and, once it passes,
    /// saved before anything else is done with the head. When the app pins other keys than
    /// before, no ETag is sent, and what was seen is kept only if the keys trusted now vouch for
    /// it: a head signed with a leaked key cannot hold back the app that pins its replacement.
    private func fetchHead(_ state: inout StoreState) async throws(BundleStoreError) -> ChannelHead {
        let url = headURL
        let pinnedChanged = state.trust[baseURL.absoluteString]?.pinned != pinnedKeys
        let known = pinnedChanged ? nil : state.channels[channel].flatMap { $0.headURL == url.absoluteString ? $0 : nil }
        var headers: [String: String] = [:]
        if let etag = known?.etag { headers["If-None-Match"] = etag }
        let (response, data) = try await fetchSigned(url, headers: headers, notModified: known != nil)
        if response.status == 304, let known { return known.head }

        let trusted = try await trustedKeys(&state)
        if pinnedChanged, let seen = state.channels[channel], (try? ChannelHead.verified(seen.envelope, keys: trusted)) != seen.head {
            state.channels[channel] = nil
        }
        let envelope = data ?? Data()
        let head: ChannelHead
        do { head = try ChannelHead.verified(envelope, keys: trusted) } catch { throw .refused(.head(error)) }
        guard head.channel == channel else { throw .refused(.otherChannel(head.channel)) }
        if let seen = state.channels[channel] {
            guard head.sequence >= seen.highestSequence else {
                throw .refused(.replayed(sequence: head.sequence, highestSeen: seen.highestSequence))
            }
            if head.sequence == seen.highestSequence && head != seen.head { throw .refused(.sequenceReused(head.sequence)) }
            if head == seen.head {
                // The same head, signed again (a key rotation) or served with another ETag: what
                // was learnt of it stays.
                state.channels[channel]?.etag = response.headers["etag"]
                state.channels[channel]?.envelope = envelope
                try state.save(statePath)
                return head
            }
        }
        state.channels[channel] = .init(highestSequence: head.sequence, headURL: url.absoluteString,
                                        etag: response.headers["etag"], head: head, envelope: envelope)
        try state.save(statePath)
        return head
    }

    /// The pinned keys as the state records them.
    private var pinnedKeys: [String] { keys.map(\.description).sorted() }

    /// The most key statements one update reads.
    static let keyStatementLimit = 32

    /// The keys trusted now: the pinned ones, then each key statement after the last one taken
    /// (`keys/<version>.json`, until the host has no next one) that the keys trusted before it
    /// vouch for. One the trusted keys did not sign is passed over, so that an app that pins a
    /// newer key than the store saw finds the statement that names it.
    private func trustedKeys(_ state: inout StoreState) async throws(BundleStoreError) -> [ChannelKey] {
        let pinned = pinnedKeys
        let folderURL = baseURL.absoluteString
        var trust = state.trust[folderURL].flatMap { $0.pinned == pinned ? $0 : nil } ?? .init(pinned: pinned, version: 0, keys: pinned)
        var trusted = trust.version == 0 ? keys : trust.keys.compactMap { try? ChannelKey($0) }
        var version = trust.version + 1
        for _ in 0..<Self.keyStatementLimit {
            let url = baseURL.appendingPathComponent(ChannelLayout.keyStatementPath(version: version))
            guard let data = try await fetchSigned(url, headers: [:], missing: true).data else { break }
            if let (_, keys) = try? KeyStatement.verified(data, trusted: trusted, version: version) {
                trusted = keys
                trust.version = version
                trust.keys = keys.map(\.description)
            }
            version += 1
        }
        if state.trust[folderURL] != trust {
            state.trust[folderURL] = trust
            try state.save(statePath)
        }
        return trusted
    }

    /// How long fetching a signed file may take in all.
    static let signedFileTimeout: TimeInterval = 60

    /// GETs a signed file, at most `headSizeLimit` bytes. 200 gives the bytes; 304 is accepted
    /// when `notModified`, and a file the host does not have (404, 410, or 403 as S3 answers
    /// without a listing permission) when `missing`, as no data. Any other status is an error.
    /// The body of any answer but 200 is not kept.
    private func fetchSigned(_ url: URL, headers: [String: String], notModified: Bool = false, missing: Bool = false)
        async throws(BundleStoreError) -> (response: ChannelResponse, data: Data?) {
        let limit = Self.headSizeLimit
        let buffer = ByteBuffer()
        let response = try await transport.get(url, headers: headers, timeout: Self.signedFileTimeout, response: { response throws(BundleStoreError) in
            guard response.status == 200 || (response.status == 304 && notModified) || ([403, 404, 410].contains(response.status) && missing) else {
                throw .transfer("\(url.absoluteString) answered HTTP \(response.status)")
            }
            buffer.keep(response.status == 200)
        }, body: { data throws(BundleStoreError) in
            guard buffer.append(data, limit: limit) else { throw .refused(.headTooLarge(limit: limit)) }
        })
        return (response, response.status == 200 ? buffer.data : nil)
    }

    /// How long a bundle's download may take in all: a minute, and a second for every 16 KiB
    /// (a slow mobile connection); a host that trickles bytes cannot hold the store's lock for
    /// longer.
    static func downloadTimeout(bytes: Int) -> TimeInterval {
        60 + TimeInterval(bytes / 16_384)
    }

    /// Downloads `file` into the staging folder, resuming a partial download with a Range
    /// request, never past its declared size, and checks its size and SHA-256. A host that
    /// will not resume from where the part stops (416, or another range) gets one more try
    /// from the start, and so does a resumed file whose SHA-256 is wrong (`resumed` is false
    /// for that try). The staging folder's other files are removed, but for `keeping` (a
    /// bundle's part, kept while its delta is fetched).
    private func download(_ file: ChannelHead.BundleFile, keeping: String? = nil, resumed: Bool = true) async throws(BundleStoreError) {
        try StoreFiles.makeFolder(stagingFolder)
        let part = partPath(file.sha256)
        for name in StoreFiles.names(in: stagingFolder) where stagingFolder + "/" + name != part && stagingFolder + "/" + name != keeping {
            StoreFiles.remove(stagingFolder + "/" + name)
        }
        var offset = StoreFiles.size(part) ?? 0
        if offset > file.bytes {
            StoreFiles.remove(part)
            offset = 0
        }
        let resumed = resumed && offset > 0
        var attempts = 0
        while offset < file.bytes {
            attempts += 1
            let sink = try PartFile(part, offset: offset, limit: file.bytes)
            var headers: [String: String] = [:]
            if offset > 0 {
                // The plain bytes from `offset`: a compressed response's ranges would be of the
                // compressed bytes.
                headers["Range"] = "bytes=\(offset)-"
                headers["Accept-Encoding"] = "identity"
            }
            let url = baseURL.appendingPathComponent(file.path)
            do {
                _ = try await transport.get(url, headers: headers, timeout: Self.downloadTimeout(bytes: file.bytes), response: { response throws(BundleStoreError) in
                    try sink.begin(response, url: url)
                }, body: { data throws(BundleStoreError) in
                    try sink.write(data)
                })
                sink.finish()
                break
            } catch {
                sink.finish()
                if case .refused = error { StoreFiles.remove(part) }
                guard sink.rangeRefused && attempts == 1 else { throw error }
                StoreFiles.remove(part)
                offset = 0
            }
        }
        let received = StoreFiles.size(part) ?? 0
        guard received == file.bytes else {
            StoreFiles.remove(part)
            throw .refused(.bundleTooShort(received: received, declared: file.bytes))
        }
        guard let digest = BundleFileDigest.sha256(path: part) else { throw .storage("\(part) cannot be read") }
        guard digest.hex == file.sha256 else {
            StoreFiles.remove(part)
            // Bytes kept from an earlier update (lost to a power cut before they reached the
            // disk, say) are not the host's fault: the file is fetched once more from the start,
            // and only bytes all fetched now are refused.
            if resumed { return try await download(file, keeping: keeping, resumed: false) }
            throw .refused(.bundleDigest(found: digest.hex, signed: file.sha256))
        }
    }

    /// Opens the downloaded bundle as the app will (identity, schema, `quick_check`), checks
    /// that it is the release the head announced, flushes it and renames it into place.
    private func install(_ release: Release) throws(BundleStoreError) {
        let part = partPath(release.sha256)
        let bundle: CatalogBundle
        do {
            bundle = try CatalogBundle(path: part, trust: trust)
        } catch {
            if case .fileMissing = error { throw .storage("\(part) is gone") }
            StoreFiles.remove(part)
            throw .refused(.bundleUnreadable("\(error)"))
        }
        guard bundle.release.contentDigest == release.contentDigest, bundle.release.releaseVersion == release.releaseVersion else {
            StoreFiles.remove(part)
            throw .refused(.bundleUnreadable(
                "it is release \(bundle.release.releaseVersion) with content \(bundle.release.contentDigest), "
                    + "not the head's \(release.releaseVersion) with \(release.contentDigest)"))
        }
        try StoreFiles.sync(part)
        try StoreFiles.makeFolder(bundlesFolder)
        try StoreFiles.move(part, to: bundlePath(release.sha256))
        try StoreFiles.sync(stagingFolder)
    }

    /// Removes the bundles the state does not name. An app still reading one keeps reading it:
    /// the system frees a removed file's bytes when the last reader closes it.
    private func removeUnlisted(_ state: StoreState) {
        let listed = Set(state.installed.flatMap { [$0.sha256 + ".sqlite", $0.sha256 + ".notes.json"] })
        for name in StoreFiles.names(in: bundlesFolder) where !listed.contains(name) {
            StoreFiles.remove(bundlesFolder + "/" + name)
        }
    }
}

/// A signed file's bytes as they arrive, up to a limit; none of an answer that is not the file.
private final class ByteBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    private var keeping = true

    var data: Data { lock.withLock { bytes } }

    /// Whether the body is the file, to keep.
    func keep(_ keep: Bool) {
        lock.withLock { keeping = keep }
    }

    /// Appends `data`, unless that would pass `limit`.
    func append(_ data: Data, limit: Int) -> Bool {
        lock.withLock {
            guard keeping else { return true }
            guard bytes.count + data.count <= limit else { return false }
            bytes.append(data)
            return true
        }
    }
}

/// The continuations of `releases()`' streams.
private final class Listeners: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<BundleStore.Release>.Continuation] = [:]

    func add() -> AsyncStream<BundleStore.Release> {
        let (stream, continuation) = AsyncStream<BundleStore.Release>.makeStream()
        let id = UUID()
        lock.withLock { continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func announce(_ release: BundleStore.Release) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(release) }
    }
}
