import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import GRDB

/// A static host in memory, behind the store's transport, with the failures a real one has:
/// a status instead of the file, a connection cut after some bytes, more or fewer bytes than
/// the file. It answers `If-None-Match` with 304 and `Range` with 206, as nginx does, and sends
/// bodies in 16 KiB pieces. `StoreAgainstNginx` (the Python suite) does the same against nginx.
final class FakeHost: ChannelTransport, @unchecked Sendable {
    enum Fault: Equatable {
        case status(Int)
        /// The connection is lost after this many bytes of the body.
        case cutAfter(Int)
        /// These bytes are sent after the file.
        case extra(Data)
        /// Only the first this many bytes are the file (a complete, shorter response).
        case truncated(Int)
        /// This byte of the file is flipped.
        case flipped(Int)
        /// Range requests are answered 416.
        case noResume
    }

    struct Request: Equatable {
        var path: String
        var headers: [String: String]
    }

    static let base = URL(string: "https://cdn.example.com/catalog")!

    /// Where this host serves the channel folder: `FakeHost.base` unless another is given (a
    /// channel moved to a new host).
    let base: URL
    /// What the host answers, with status 200, for a path it has no file for: nil answers 404,
    /// as a static host should; an HTML page, as some hosts and CDNs answer any path.
    private var everythingElseBody: Data?
    var everythingElse: Data? {
        get { lock.withLock { everythingElseBody } }
        set { lock.withLock { everythingElseBody = newValue } }
    }

    init(base: URL = FakeHost.base) {
        self.base = base
    }

    private let lock = NSLock()
    private var files: [String: Data] = [:]
    private var faults: [String: Fault] = [:]
    private(set) var requests: [Request] = []
    /// Called before each piece of a body; tests use it to act midway through a download.
    private var beforePieceHandler: (@Sendable (String, Int) async -> Void)?
    var beforePiece: (@Sendable (String, Int) async -> Void)? {
        get { lock.withLock { beforePieceHandler } }
        set { lock.withLock { beforePieceHandler = newValue } }
    }

    func put(_ path: String, _ data: Data) { lock.withLock { files[path] = data } }
    func file(_ path: String) -> Data? { lock.withLock { files[path] } }
    /// Every file the host serves, to copy a channel to another host.
    func filesPublished() -> [String: Data] { lock.withLock { files } }
    func remove(_ path: String) { _ = lock.withLock { files.removeValue(forKey: path) } }
    func fail(_ path: String, _ fault: Fault?) { lock.withLock { faults[path] = fault } }
    func requestLog() -> [Request] { lock.withLock { requests } }
    func clearLog() { lock.withLock { requests = [] } }

    func get(
        _ url: URL, headers: [String: String], timeout: TimeInterval,
        response: @escaping @Sendable (ChannelResponse) throws(BundleStoreError) -> Void,
        body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void
    ) async throws(BundleStoreError) -> ChannelResponse {
        var path = url.absoluteString.hasPrefix(base.absoluteString) ? String(url.absoluteString.dropFirst(base.absoluteString.count)) : url.absoluteString
        while path.hasPrefix("/") { path.removeFirst() }
        let (file, fault) = lock.withLock {
            requests.append(Request(path: path, headers: headers))
            return (files[path] ?? everythingElseBody, faults[path])
        }
        if case .status(let status)? = fault {
            let answer = ChannelResponse(status: status, headers: [:])
            try response(answer)
            return answer
        }
        guard var file else {
            let answer = ChannelResponse(status: 404, headers: [:])
            try response(answer)
            return answer
        }
        let etag = "\"" + SHA256.hash(data: file).prefix(8).map { String(format: "%02x", $0) }.joined() + "\""
        if headers["If-None-Match"] == etag {
            let answer = ChannelResponse(status: 304, headers: ["etag": etag])
            try response(answer)
            return answer
        }
        switch fault {
        case .extra(let more)?: file += more
        case .truncated(let count)?: file = file.prefix(count)
        case .flipped(let index)?: file[index] ^= 0x01
        default: break
        }
        var answer = ChannelResponse(status: 200, headers: ["etag": etag])
        var start = 0
        if let range = headers["Range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
           let from = Int(range.dropFirst(6).dropLast()) {
            guard from < file.count, fault != .noResume else {
                let refused = ChannelResponse(status: 416, headers: [:])
                try response(refused)
                return refused
            }
            start = from
            answer = ChannelResponse(status: 206, headers: ["etag": etag, "content-range": "bytes \(from)-\(file.count - 1)/\(file.count)"])
        }
        try response(answer)
        var offset = start
        while offset < file.count {
            let end = min(offset + 16_384, file.count)
            if case .cutAfter(let count)? = fault, end - start > count {
                try body(file.subdata(in: offset..<max(offset, start + count)))
                throw .transfer(.failed(url, .network(code: URLError.Code.networkConnectionLost.rawValue), "the connection was lost"))
            }
            await beforePiece?(path, offset)
            if Task.isCancelled { throw .cancelled }
            try body(file.subdata(in: offset..<end))
            offset = end
        }
        return answer
    }
}

/// Bundles and signed heads for the store's tests, from CatalogModel's committed fixtures.
struct ChannelFixture {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shipped = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/shipped.sqlite").path
    static let small = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/small.sqlite").path
    /// The small fixture as the compiler wrote it before schema 3: what apps in the field read.
    static let smallSchema2 = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/small-schema2.sqlite").path
    /// The small fixture as the compiler wrote it before schema 4: what apps in the field read.
    static let smallSchema3 = repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/small-schema3.sqlite").path

    let folder: URL
    let key = Curve25519.Signing.PrivateKey()
    let host = FakeHost()
    var sequence = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var storeFolder: String { folder.appendingPathComponent("store").path }

    func store(now: Date = Date(timeIntervalSince1970: 1_795_000_000), seed: String? = ChannelFixture.small,
               keys: [ChannelKey]? = nil, trust: any BundleTrustStore = InMemoryTrustStore()) -> BundleStore {
        BundleStore(folder: storeFolder, seed: seed, keys: keys ?? [ChannelKey(key.publicKey)], baseURL: FakeHost.base,
                    channel: "stable", trust: trust, transport: host, now: { now })
    }

    /// A copy of `bundle` as another release: `release_version` changed, so another file with
    /// the same content digest, or a changed digest too when `digest` is given.
    func release(_ version: String, from bundle: String = ChannelFixture.shipped, digest: String? = nil) throws -> Data {
        let path = folder.appendingPathComponent("release-\(version)-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: bundle, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE bundle_info SET value = ? WHERE key = 'release_version'", arguments: [version])
            if let digest { try db.execute(sql: "UPDATE bundle_info SET value = ? WHERE key = 'content_digest'", arguments: [digest]) }
        }
        try queue.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A delta for a head: announced as starting from `from`, made by xdelta3 (as `digno
    /// publish` runs it) from `encodedFrom` (another bundle, for a delta from another source).
    struct DeltaSource {
        var from: Data
        var encodedFrom: Data

        init(from: Data, encodedFrom: Data? = nil) {
            self.from = from
            self.encodedFrom = encodedFrom ?? from
        }
    }

    /// The VCDIFF delta from `source` to `target`, by `xdelta3 -e -9 -S none -A` (Debian's
    /// xdelta3, which `.ci/run` installs).
    func xdelta(from source: Data, to target: Data) throws -> Data {
        let paths = ["source", "target", "delta"].map { folder.appendingPathComponent("xdelta-\($0)-\(UUID().uuidString)").path }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        try source.write(to: URL(fileURLWithPath: paths[0]))
        try target.write(to: URL(fileURLWithPath: paths[1]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try installedTool("xdelta3", debian: "xdelta3"))
        process.arguments = ["-e", "-9", "-S", "none", "-A", "-s", paths[0], paths[1], paths[2]]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return try Data(contentsOf: URL(fileURLWithPath: paths[2]))
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).hexString
    }

    /// Puts `bundle` on the host and a head naming it, with the next sequence number unless one
    /// is given, and the deltas to it from `deltas`. Returns the head.
    @discardableResult
    mutating func publish(_ bundle: Data, sequence: Int? = nil, schema: Int = 2, expires: Date = Date(timeIntervalSince1970: 1_800_000_000),
                          signer: Curve25519.Signing.PrivateKey? = nil, channel: String = "stable", notes: Data? = nil,
                          notesSince: String = "2026.10.0", notesFrom: [(since: String, notes: Data)] = [],
                          deltas: [DeltaSource] = [], schemas: [(schema: Int, bundle: Data)] = []) throws -> ChannelHead {
        self.sequence = sequence ?? self.sequence + 1
        let sha = Self.sha256(bundle)
        let path = "bundles/\(sha).sqlite"
        host.put(path, bundle)
        var publishedDeltas: [ChannelHead.Delta] = []
        for source in deltas {
            let delta = try xdelta(from: source.encodedFrom, to: bundle)
            let from = Self.sha256(source.from)
            let deltaPath = "deltas/\(from)-\(sha).vcdiff"
            host.put(deltaPath, delta)
            publishedDeltas.append(ChannelHead.Delta(from: from, path: deltaPath, sha256: Self.sha256(delta), bytes: delta.count))
        }
        let info = try Self.info(of: bundle, in: folder)
        func put(_ notes: Data, since: String) -> ChannelHead.Notes {
            let notesSHA = Self.sha256(notes)
            host.put("notes/\(notesSHA).json", notes)
            let file = ChannelHead.BundleFile(path: "notes/\(notesSHA).json", sha256: notesSHA, bytes: notes.count)
            return ChannelHead.Notes(since: since, json: file, markdown: file)
        }
        let published = notes.map { put($0, since: notesSince) }
        let older = notesFrom.map { put($0.notes, since: $0.since) }
        let head = ChannelHead(
            channel: channel, sequence: self.sequence, releaseVersion: info.releaseVersion, releaseDate: info.releaseDate,
            schemaVersion: schema, contentDigest: info.contentDigest, bundle: .init(path: path, sha256: sha, bytes: bundle.count),
            expires: expires, retained: [], notes: published, deltas: publishedDeltas.isEmpty ? nil : publishedDeltas,
            notesFrom: older.isEmpty ? nil : older,
            schemas: schemas.isEmpty ? nil : schemas.map { schema, bundle in
                let sha = Self.sha256(bundle)
                host.put("bundles/\(sha).sqlite", bundle)
                return ChannelHead.SchemaRelease(schemaVersion: schema, bundle: .init(path: "bundles/\(sha).sqlite", sha256: sha, bytes: bundle.count),
                                                 retained: [])
            })
        try sign(head, with: signer)
        return head
    }

    /// Serves `head`, signed with `signer` (the channel's key by default), as the channel's head.
    func sign(_ head: ChannelHead, with signer: Curve25519.Signing.PrivateKey? = nil) throws {
        host.put("channels/stable/head.json", try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: signer ?? key).encoded())
    }

    /// Serves `head` signed by each of `signers`.
    func sign(_ head: ChannelHead, with signers: [Curve25519.Signing.PrivateKey]) throws {
        host.put("channels/stable/head.json", try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: signers).encoded())
    }

    /// Publishes release `version` and has `store` install it; returns the bundle's bytes.
    mutating func installed(_ version: String, in store: BundleStore) async throws -> Data {
        let bundle = try release(version)
        try publish(bundle)
        _ = try await store.update()
        return bundle
    }

    static func info(of bundle: Data, in folder: URL) throws -> ReleaseInfo {
        let path = folder.appendingPathComponent("info-\(UUID().uuidString).sqlite").path
        try bundle.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try CatalogBundle(path: path, trust: InMemoryTrustStore()).release
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
