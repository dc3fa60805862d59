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
        // An update that ends before the host sends that piece (a refusal, a wrong fixture)
        // ends the wait too, and the expectation below then fails: it must not hang the run.
        let task = Task {
            defer { started.continuation.finish() }
            return try await store.update()
        }
        var iterator = started.stream.makeAsyncIterator()
        let reached = await iterator.next() != nil
        #expect(reached, "the update ended before the host sent \(path) from \(offset)")
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

// Progress for a progress bar (issue 34).
extension BundleStoreTests {
    /// The progress a closure was told, in order.
    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var steps: [UpdateProgress] = []
        func add(_ step: UpdateProgress) { lock.withLock { steps.append(step) } }
        var all: [UpdateProgress] { lock.withLock { steps } }
    }

    @Test func anUpdateTellsHowFarItsDownloadHasCome() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let bundle = try fixture.release("2026.11.1")
        _ = try fixture.publish(bundle)
        let log = ProgressLog()
        guard case .installed = try await store.update(progress: { log.add($0) }) else { Issue.record("not installed"); return }
        // The download, then the verifying of the whole bundle: its SHA-256 checked from 0 (half
        // a second for 400 MB, which before went unsaid at 100 %), then opening it (a second or
        // more for a large one), then the end, the last report.
        let all = log.all
        #expect(all.suffix(2) == [UpdateProgress(file: .bundle, received: bundle.count, total: bundle.count, phase: .verifying),
                                  UpdateProgress(file: .bundle, received: bundle.count, total: bundle.count, phase: .done)])
        let steps = Array(all.dropLast(2).prefix { $0.phase == .downloading })
        let checking = Array(all.dropLast(2).dropFirst(steps.count))
        #expect(checking.first == UpdateProgress(file: .bundle, received: 0, total: bundle.count, phase: .verifying))
        #expect(checking.allSatisfy { $0.phase == .verifying && $0.received < bundle.count })
        #expect(zip(checking, checking.dropFirst()).allSatisfy { $0.received < $1.received }, "growing")
        #expect(steps.allSatisfy { $0.phase == .downloading })
        #expect(steps.first == UpdateProgress(file: .bundle, received: 0, total: bundle.count))
        #expect(steps.last == UpdateProgress(file: .bundle, received: bundle.count, total: bundle.count))
        #expect(steps.last?.fraction == 1)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.received < $1.received }, "growing")
        #expect(steps.count <= 102, "about once a hundredth: \(steps.count)")
        #expect(steps.count > 10, "16 KiB pieces of \(bundle.count) bytes")

        // A delta's progress is the delta's, then the bundle it made is verified; nothing new
        // says nothing.
        let next = try fixture.release("2026.11.2")
        let head = try fixture.publish(next, deltas: [.init(from: bundle)])
        let deltaLog = ProgressLog()
        guard case .installed = try await store.update(progress: { deltaLog.add($0) }) else { Issue.record("not installed"); return }
        let delta = try #require(head.deltas?.first)
        let deltaSteps = deltaLog.all.dropLast(2).prefix { $0.phase == .downloading }
        #expect(deltaLog.all.dropLast(2).dropFirst(deltaSteps.count).allSatisfy { $0.file == .bundle && $0.phase == .verifying })
        #expect(deltaSteps.allSatisfy { $0.file == .delta && $0.total == delta.bytes && $0.phase == .downloading })
        #expect(deltaSteps.last?.received == delta.bytes)
        #expect(deltaLog.all.suffix(2).map(\.phase) == [.verifying, .done] && deltaLog.all.last?.total == next.count)
        let quiet = ProgressLog()
        #expect(try await store.update(progress: { quiet.add($0) }) == .upToDate(releaseVersion: "2026.11.2"))
        #expect(quiet.all.isEmpty)
    }
}
