import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The transport's time limits against a real server that trickles, and the lock's wait limit:
/// a host cannot hold an update, nor an update the store, for longer than documented. Each
/// limit is told by the error it gives and by what the host had sent when the client let go,
/// not by the clock: the suite's time limit is only a guard against a hang.
// Serialized: each host's listening socket is closed while its accept thread may still hold
// its number, which a host of a test beside it could be given.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TransportTimeLimitTests {
    /// Fetches `url` through URLSession with the limits given; the error, if any.
    static func fetch(_ url: URL, idle: TimeInterval, whole: TimeInterval) async -> BundleStoreError? {
        do {
            _ = try await URLSessionTransport(idleTimeout: idle).get(url, headers: [:], timeout: whole, response: { _ in }, body: { _ in })
            return nil
        } catch {
            return error
        }
    }

    /// Waits until the host has seen its connection closed: the client's socket may be closed
    /// a moment after the error is thrown. (A client that never closes it is a hang, which the
    /// suite's time limit ends.)
    static func waitUntilClosed(_ host: TricklingHost) async throws {
        while host.closedAfter.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
    }

    @Test func aHostThatTricklesIsStoppedAtTheWholeTransfersLimit() async throws {
        // 3,000 bytes, one every 0.1 s: 300 s in all, against a limit of 2 s.
        let host = try TricklingHost(length: 3_000, interval: 0.1)
        defer { host.stop() }
        let error = await Self.fetch(host.url, idle: 30, whole: 2)
        #expect(error == .transfer(.failed(host.url, .timeLimit, "it took longer than 2 s, the limit for its size")))
        try await Self.waitUntilClosed(host)
        #expect(host.closedAfter.count == 1 && host.closedAfter.allSatisfy { $0 < 3_000 }, "\(host.closedAfter)")
    }

    @Test func aHostThatFallsSilentIsStoppedAtTheIdleLimit() async throws {
        let host = try TricklingHost(length: 1_000, interval: nil)
        defer { host.stop() }
        let error = await Self.fetch(host.url, idle: 1, whole: 600)
        // The idle limit's words: the whole transfer's limit (600 s) did not act.
        #expect(error == .transfer(.failed(host.url, .timeLimit, "nothing arrived for 1 s")))
        try await Self.waitUntilClosed(host)
        #expect(host.closedAfter == [0])
    }

    /// As an app calls it (the public initialiser, URLSession): an update whose task is
    /// cancelled while the host says nothing throws `.cancelled`, and changes nothing.
    @Test func anUpdateTheAppCancelsIsCancelled() async throws {
        let host = try TricklingHost(length: 1_000, interval: nil)
        defer { host.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-cancel-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = BundleStore(folder: folder, seed: nil, keys: [ChannelKey(Curve25519.Signing.PrivateKey().publicKey)],
                                baseURL: URL(string: "http://127.0.0.1:\(host.port)")!)
        let update = Task { try await store.update() }
        try await Task.sleep(for: .milliseconds(300))
        update.cancel()
        // Cancelled, not ended by the transfer's own limits (30 s idle, a minute in all).
        await #expect(throws: BundleStoreError.cancelled) { try await update.value }
        #expect { try store.current() } throws: { error in
            if case BundleStoreError.noBundle = error { true } else { false }
        }
    }

    /// The causes an app tells its user apart: no connection, and the phone's storage.
    @Test func failuresKeepTheirCause() async throws {
        let host = try TricklingHost(length: 1, interval: nil)
        let url = host.url
        host.stop()
        let error = await Self.fetch(url, idle: 5, whole: 5)
        guard case .transfer(let failure)? = error else { Issue.record("not a transfer error: \(String(describing: error))"); return }
        #expect(failure.isConnectionProblem && failure.urlErrorCode == .cannotConnectToHost, "\(failure)")
        #expect(failure.url == url.absoluteString)
        #expect(TransferFailure.status(404, url: url).isConnectionProblem == false)

        // A store whose folder cannot be made (a file is in the way): the system's error number.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-folder-\(UUID().uuidString)").path
        try Data().write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let store = BundleStore(folder: file + "/store", seed: nil, keys: [ChannelKey(Curve25519.Signing.PrivateKey().publicKey)], baseURL: url)
        await #expect {
            try await store.update()
        } throws: { error in
            guard case BundleStoreError.storage(let failure) = error else { return false }
            return failure.errorNumber == ENOTDIR && failure.path == file + "/store" && !failure.isDiskFull
        }
    }

    /// The app's own configuration (its headers, its cellular policy) reaches the requests, and
    /// the store's settings do not reach the app's object.
    @Test func theAppsSessionConfigurationIsUsed() async throws {
        let host = try TricklingHost(length: 0, interval: nil)
        defer { host.stop() }
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-Catalog-App": "cafe-digno/1.0"]
        configuration.allowsCellularAccess = false
        let store = BundleStore(folder: FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path,
                                seed: nil, keys: [ChannelKey(Curve25519.Signing.PrivateKey().publicKey)],
                                baseURL: URL(string: "http://127.0.0.1:\(host.port)")!, configuration: configuration)
        _ = try? await store.update()
        #expect(host.requests.first?.contains("X-Catalog-App: cafe-digno/1.0") == true, "\(host.requests)")
        #expect(configuration.timeoutIntervalForRequest == URLSessionConfiguration.default.timeoutIntervalForRequest)
        #expect(configuration.urlCache != nil || URLSessionConfiguration.default.urlCache == nil)
    }

    @Test func anUpdateWaitingForAnotherGivesUpAsBusy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-lock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let other = try DurableFile.FolderLock(folder)  // another updater, as another process holds it
        #expect(try other.tryLock())
        await #expect(throws: BundleStoreError.busy) { try await StoreLock(folder, waitLimit: .milliseconds(300)) }
        withExtendedLifetime(other) {}
    }
}
