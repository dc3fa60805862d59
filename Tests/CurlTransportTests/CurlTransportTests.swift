#if canImport(CurlTransport)
import CatalogStore
@testable import CurlTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `digno update`'s transport on Linux against a real server that trickles (TricklingHost, the
/// same as URLSessionTransport's tests): its time limits, cancellation, and a body handed over
/// piece by piece that the store can stop. The gzip bombs are in Tests/Channel/test_hostile.py,
/// against the installed binary.
// Serialized, as TransportTimeLimitTests are: a host's closed socket number may be reused.
@Suite(.serialized) struct CurlTransportTests {
    /// Fetches `url`; the error, the body's pieces and how long it took.
    static func fetch(_ url: URL, idle: TimeInterval, whole: TimeInterval,
                      body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void = { _ in }) async -> (BundleStoreError?, Duration) {
        let started = ContinuousClock.now
        do {
            _ = try await CurlTransport(idleTimeout: idle).get(url, headers: ["If-None-Match": "\"x\""], timeout: whole, response: { _ in }, body: body)
            return (nil, ContinuousClock.now - started)
        } catch {
            return (error, ContinuousClock.now - started)
        }
    }

    @Test func aHostThatTricklesIsStoppedAtTheWholeTransfersLimit() async throws {
        let host = try TricklingHost(length: 3_000, interval: 0.1)
        defer { host.stop() }
        let (error, took) = await Self.fetch(host.url, idle: 30, whole: 2)
        #expect(error == .transfer(.failed(host.url, .timeLimit, "it took longer than 2 s, the limit for its size")))
        // A hang guard, below the host's 300 s of trickling (the limit is 2 s): the time is
        // taken across an await, so it includes waiting for Swift's cooperative pool, which the
        // whole suite's synchronous tests hold on two cores (22 to 52 s were seen beside two
        // compilers; 102 to 130 s on 2026-11-27, the suite alone).
        #expect(took < .seconds(200))
    }

    @Test func aHostThatFallsSilentIsStoppedAtTheIdleLimit() async throws {
        let host = try TricklingHost(length: 1_000, interval: nil)
        defer { host.stop() }
        let (error, took) = await Self.fetch(host.url, idle: 1, whole: 600)
        #expect(error == .transfer(.failed(host.url, .timeLimit, "nothing arrived for 1 s")))
        #expect(took < .seconds(20))
    }

    @Test func theBodyComesInPiecesAndTheStoreCanStopIt() async throws {
        let host = try TricklingHost(length: 1_000, interval: 0.001)
        defer { host.stop() }
        let received = Received()
        let (error, _) = await Self.fetch(host.url, idle: 30, whole: 60) { data throws(BundleStoreError) in
            // As the store does past a file's declared size.
            if received.add(data.count) > 200 { throw .refused(.bundleTooLong(declared: 200)) }
        }
        #expect(error == .refused(.bundleTooLong(declared: 200)))
        // Stopped at the first piece past the limit, nothing read after it. (On a busy machine
        // libcurl hands over what arrived meanwhile together: pieces are one byte or several.)
        #expect(received.count > 200 && received.count - received.lastPiece <= 200, "\(received.count) bytes, the last \(received.lastPiece)")
        #expect(received.pieces > 1)
    }

    @Test func aCancelledTransferEndsAsCancelled() async throws {
        let host = try TricklingHost(length: 1_000, interval: nil)
        defer { host.stop() }
        let started = ContinuousClock.now
        let task = Task { await Self.fetch(host.url, idle: 600, whole: 600) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let (error, _) = await task.value
        #expect(error == .cancelled)
        // libcurl asks about once a second whether to go on: a hang guard.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aHostThatIsNotThereIsATransferError() async throws {
        let host = try TricklingHost(length: 1, interval: nil)
        let url = host.url
        host.stop()
        let (error, _) = await Self.fetch(url, idle: 5, whole: 5)
        guard case .transfer(let failure)? = error else { Issue.record("not a transfer error: \(String(describing: error))"); return }
        #expect(failure.description.hasPrefix(url.absoluteString + ": "))
        // In URLSession's words, as an app would see it: no connection, not a host's answer.
        #expect(failure.urlErrorCode == .cannotConnectToHost && failure.isConnectionProblem)
    }
}

/// What a body callback has counted, across its calls.
private final class Received: @unchecked Sendable {
    // @unchecked Sendable: used under `lock` only.
    private let lock = NSLock()
    private var total = 0
    private var calls = 0
    private var last = 0

    func add(_ bytes: Int) -> Int {
        lock.withLock {
            total += bytes
            calls += 1
            last = bytes
            return total
        }
    }

    var lastPiece: Int { lock.withLock { last } }

    var count: Int { lock.withLock { total } }
    var pieces: Int { lock.withLock { calls } }
}
#endif
