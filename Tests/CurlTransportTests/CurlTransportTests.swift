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
// Each limit is told by the error it gives and by what the host had sent, not by the clock;
// the suite's time limit is only a guard against a hang.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CurlTransportTests {
    /// Fetches `url`; the error, if any.
    static func fetch(_ url: URL, idle: TimeInterval, whole: TimeInterval,
                      body: @escaping @Sendable (Data) throws(BundleStoreError) -> Void = { _ in }) async -> BundleStoreError? {
        do {
            _ = try await CurlTransport(idleTimeout: idle).get(url, headers: ["If-None-Match": "\"x\""], timeout: whole, response: { _ in }, body: body)
            return nil
        } catch {
            return error
        }
    }

    /// Waits until the host has seen its connection closed (a client that never closes it is
    /// a hang, which the suite's time limit ends).
    static func waitUntilClosed(_ host: TricklingHost) async throws {
        while host.closedAfter.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
    }

    @Test func aHostThatTricklesIsStoppedAtTheWholeTransfersLimit() async throws {
        let host = try TricklingHost(length: 3_000, interval: 0.1)
        defer { host.stop() }
        let error = await Self.fetch(host.url, idle: 30, whole: 2)
        #expect(error == .transfer(.failed(host.url, .timeLimit, "it took longer than 2 s, the limit for its size")))
        // Cut short: the host's 300 s of trickling were not waited out.
        try await Self.waitUntilClosed(host)
        #expect(host.closedAfter.count == 1 && host.closedAfter.allSatisfy { $0 < 3_000 }, "\(host.closedAfter)")
    }

    @Test func aHostThatFallsSilentIsStoppedAtTheIdleLimit() async throws {
        let host = try TricklingHost(length: 1_000, interval: nil)
        defer { host.stop() }
        let error = await Self.fetch(host.url, idle: 1, whole: 600)
        #expect(error == .transfer(.failed(host.url, .timeLimit, "nothing arrived for 1 s")))
        try await Self.waitUntilClosed(host)
        #expect(host.closedAfter == [0])
    }

    @Test func theBodyComesInPiecesAndTheStoreCanStopIt() async throws {
        let host = try TricklingHost(length: 1_000, interval: 0.001)
        defer { host.stop() }
        let received = Received()
        let error = await Self.fetch(host.url, idle: 30, whole: 60) { data throws(BundleStoreError) in
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
        let task = Task { await Self.fetch(host.url, idle: 600, whole: 600) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // libcurl asks about once a second whether to go on; the limits are 600 s.
        #expect(await task.value == .cancelled)
    }

    @Test func aHostThatIsNotThereIsATransferError() async throws {
        let host = try TricklingHost(length: 1, interval: nil)
        let url = host.url
        host.stop()
        let error = await Self.fetch(url, idle: 5, whole: 5)
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
