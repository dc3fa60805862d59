import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// Downloads cut, cancelled, resumed or kept: what the next update does with the bytes it has.
extension BundleStoreTests {
    /// Runs an update of `store` and cancels it once the host is about to send `path` from
    /// `offset` on; the update must end as cancelled.
    func cancelUpdate(of store: BundleStore, on host: FakeHost, at path: String, offset: Int) async throws {
        let started = AsyncStream<Void>.makeStream()
        host.beforePiece = { piecePath, pieceOffset in
            guard piecePath == path, pieceOffset >= offset else { return }
            started.continuation.yield()
            try? await Task.sleep(nanoseconds: 10_000_000_000)
        }
        defer { host.beforePiece = nil }
        let task = Task { try await store.update() }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: BundleStoreError.cancelled) { try await task.value }
    }

    @Test func aCancelledUpdateKeepsItsDownloadForTheNextOne() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        let store = fixture.store()
        try await cancelUpdate(of: store, on: fixture.host, at: head.bundle.path, offset: 65_536)
        #expect(try await store.current().source == .seed)
        let kept = try #require(StoreFiles.size(fixture.storeFolder + "/staging/\(head.bundle.sha256).part"))
        #expect(kept == 65_536)
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        #expect(fixture.host.requestLog().last?.headers["Range"] == "bytes=65536-")
    }

    @Test func keptBytesThatAreNotTheBundleAreFetchedAgainNotRefused() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        // A whole part of other bytes, as a power cut can leave one whose writes never reached
        // the disk.
        try FileManager.default.createDirectory(atPath: fixture.storeFolder + "/staging", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: fixture.storeFolder + "/staging/\(head.bundle.sha256).part",
                                               contents: Data(repeating: 0, count: head.bundle.bytes)))
        let store = fixture.store()
        guard case .installed(let release) = try await store.update() else { Issue.record("not installed"); return }
        #expect(release.sha256 == head.bundle.sha256)
        #expect(fixture.host.requestLog().filter { $0.path == head.bundle.path }.map { $0.headers["Range"] } == [nil])
    }

    @Test func aHostThatWillNotResumeIsAskedForTheWholeFile() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let head = try fixture.publish(fixture.release("2026.11.1"))
        let store = fixture.store()
        fixture.host.fail(head.bundle.path, .cutAfter(100_000))
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        fixture.host.fail(head.bundle.path, .noResume)
        fixture.host.clearLog()
        guard case .installed = try await store.update() else { Issue.record("not installed"); return }
        let requests = fixture.host.requestLog().filter { $0.path == head.bundle.path }
        #expect(requests.map { $0.headers["Range"] } == ["bytes=100000-", nil])
    }
}
