import CatalogModel
@testable import CatalogStore
import Crypto
import Foundation
import Testing

// The store's folder is its own: damage to its state or its folders loses no bundle that can be
// verified, and nothing the store reads, serves or removes is outside it.
extension BundleStoreTests {
    /// A store with 2026.11.1 then 2026.11.2 installed; the two releases.
    func twoInstalled(_ fixture: inout ChannelFixture) async throws -> (BundleStore.Release, BundleStore.Release) {
        _ = try await fixture.installed("2026.11.1", in: fixture.store())
        _ = try await fixture.installed("2026.11.2", in: fixture.store())
        let state = try StoreState.load(fixture.storeFolder + "/store.json")
        try #require(state.installed.count == 2)
        return (state.installed[1], state.installed[0])
    }

    @Test(arguments: [
        Data("{\"format\": 1, \"chan".utf8),  // cut short
        Data(repeating: 0x20, count: StoreState.sizeLimit + 1),  // more than a state may be
    ])
    func aDamagedStateIsMadeAgainFromTheKeptHeadsEvenOffline(damaged: Data) async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let (previous, installed) = try await twoInstalled(&fixture)
        try damaged.write(to: URL(fileURLWithPath: fixture.storeFolder + "/store.json"))
        fixture.host.fail("channels/stable/head.json", .status(503))
        let store = fixture.store()
        await #expect(throws: BundleStoreError.self) { try await store.update() }
        // Both bundles kept, proven by the signed heads beside them; the highest sequence too.
        let state = try StoreState.load(fixture.storeFolder + "/store.json")
        #expect(state.installed == [installed, previous])
        #expect(state.channels["stable"]?.highestSequence == 2)
        #expect(try await fixture.store().current().source == .installed(installed))
        #expect(FileManager.default.fileExists(atPath: fixture.storeFolder + "/store.json.damaged"))
        // And an old head replayed is still refused.
        fixture.host.fail("channels/stable/head.json", nil)
        try fixture.publish(fixture.release("2026.11.0"), sequence: 1)
        await #expect(throws: BundleStoreError.refused(.replayed(sequence: 1, highestSeen: 2))) { try await store.update() }
    }

    /// A highest sequence that no kept head backs (a few digits flipped by decay, or planted)
    /// would make every later head a replay, for ever: the state is made again from the heads
    /// it keeps, and updates go on. The sequence is never lower than the highest head that
    /// verifies, so no old head can be replayed meanwhile.
    @Test func aSequenceNoHeadBacksIsMadeAgainFromTheHeads() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let (previous, installed) = try await twoInstalled(&fixture)
        let path = fixture.storeFolder + "/store.json"
        var state = try StoreState.load(path)
        state.channels["stable"]?.highestSequence = 1 << 62
        try state.save(path)

        let store = fixture.store()
        #expect(try await store.update() == .upToDate(releaseVersion: "2026.11.2"))
        let rebuilt = try StoreState.load(path)
        #expect(rebuilt.channels["stable"]?.highestSequence == 2 && rebuilt.installed == [installed, previous])
        #expect(FileManager.default.fileExists(atPath: path + ".damaged"))
        // The next release installs; an old head is still a replay.
        try fixture.publish(fixture.release("2026.11.3"))
        guard case .installed = try await store.update() else { Issue.record("locked out"); return }
        try fixture.publish(fixture.release("2026.11.0"), sequence: 1)
        await #expect(throws: BundleStoreError.refused(.replayed(sequence: 1, highestSeen: 3))) { try await store.update() }
    }

    /// A release the state names that no kept head names (planted, or another release's
    /// record changed): made again from the heads, which name what is really installed.
    @Test func aReleaseNoHeadBacksIsMadeAgainFromTheHeads() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let (previous, installed) = try await twoInstalled(&fixture)
        let path = fixture.storeFolder + "/store.json"
        var state = try StoreState.load(path)
        state.installed[1].releaseVersion = "2099.1.0"  // the previous release, claimed newer than it is
        try state.save(path)
        #expect(try await fixture.store().update() == .upToDate(releaseVersion: "2026.11.2"))
        #expect(try StoreState.load(path).installed == [installed, previous])
    }

    /// A sound state is left as it is: backing it costs no rebuild.
    @Test func aBackedStateIsKept() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        _ = try await twoInstalled(&fixture)
        let path = fixture.storeFolder + "/store.json"
        let before = try StoreState.load(path)
        #expect(try await fixture.store().update() == .upToDate(releaseVersion: "2026.11.2"))
        #expect(try StoreState.load(path).installed == before.installed)
        #expect(!FileManager.default.fileExists(atPath: path + ".damaged"))
    }

    @Test func aStateNamingAPathOutsideTheStoreIsDamageNotAPath() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let (_, installed) = try await twoInstalled(&fixture)
        let outside = fixture.folder.appendingPathComponent("outside.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.storeFolder + "/bundles/\(installed.sha256).sqlite", toPath: outside)
        let path = fixture.storeFolder + "/store.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: installed.sha256, with: "../../outside").write(toFile: path, atomically: true, encoding: .utf8)
        // Not served, even before an update sets the state right.
        #expect(try await fixture.store().current().bundle.path != outside)
        #expect(try await fixture.store().current().source == .seed)
        #expect(try await fixture.store().update() == .upToDate(releaseVersion: "2026.11.2"))
        #expect(try await fixture.store().current().source == .installed(installed))
    }

    @Test(arguments: ["bundles", "staging"])
    func aFolderReplacedByALinkOrAFileIsTheStoresOwnAgain(_ name: String) async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        _ = try await fixture.installed("2026.11.1", in: fixture.store())
        let folder = fixture.storeFolder + "/" + name
        // A link to a folder of someone else's files: a pruning through it would remove them.
        let elsewhere = fixture.folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: elsewhere + "/notes.txt"))
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
        try fixture.publish(fixture.release("2026.11.2"))
        guard case .installed = try await fixture.store().update() else { Issue.record("not installed"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["notes.txt"])
        #expect(DurableFile.isFolder(folder))
        // A file in its place.
        try FileManager.default.removeItem(atPath: folder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder))
        try fixture.publish(fixture.release("2026.11.3"))
        guard case .installed(let release) = try await fixture.store().update() else { Issue.record("not installed"); return }
        #expect(release.releaseVersion == "2026.11.3")
        #expect(DurableFile.isFolder(folder))
    }

    @Test func aHeadDeclaringMoreThanTheStoreTakesIsRefusedBeforeAByteIsFetched() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let bundle = try fixture.release("2026.11.1")
        var head = try fixture.publish(bundle)
        head.bundle.bytes = BundleStore.maximumBundleSize + 1
        try fixture.sign(head)
        fixture.host.clearLog()
        let store = fixture.store()
        await #expect(throws: BundleStoreError.refused(.bundleTooLarge(declared: BundleStore.maximumBundleSize + 1, limit: BundleStore.maximumBundleSize))) {
            try await store.update()
        }
        #expect(!fixture.host.requestLog().map(\.path).contains(head.bundle.path))
        #expect(try await store.current().source == .seed)
    }

    /// The free-space rule, with the free size given (this machine's disk cannot be made small
    /// from a test; `checkRoom` asks the system for it in `update`).
    @Test func aBundleTheDiskCannotHoldIsRefusedCountingWhatIsAlreadyDownloaded() throws {
        let file = ChannelHead.BundleFile(path: "bundles/x.sqlite", sha256: String(repeating: "0", count: 64), bytes: 1_000_000)
        #expect {
            try BundleStore.checkRoom(for: file, have: 0, free: 999_999)
        } throws: { error in
            guard case BundleStoreError.storage(let failure) = error else { return false }
            // Coded as the full disk it would have met: `errno:28`, not a bare `storage`.
            return failure.isDiskFull && (error as? BundleStoreError)?.cause?.code == "errno:28"
                && "\(error)" == "cannot use the store: the bundle needs 1000000 more bytes, and the disk has 999999 free"
        }
        // A resumed download needs only the rest.
        try BundleStore.checkRoom(for: file, have: 400_000, free: 600_000)
        try BundleStore.checkRoom(for: file, have: 0, free: nil)
    }
}

extension BundleStoreTests {
    @Test func aPlantedHeadInTheStateIsCheckedAgainstItsSignature() async throws {
        var fixture = try ChannelFixture()
        defer { fixture.remove() }
        let (_, installed) = try await twoInstalled(&fixture)
        // The state's head changed to name a path outside the store, its envelope and the
        // host's ETag kept: the host's 304 must not make the store take it.
        let path = fixture.storeFolder + "/store.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var channels = try #require(json["channels"] as? [String: Any])
        var stable = try #require(channels["stable"] as? [String: Any])
        var head = try #require(stable["head"] as? [String: Any])
        var bundle = try #require(head["bundle"] as? [String: Any])
        bundle["sha256"] = "../../planted"
        head["bundle"] = bundle
        stable["head"] = head
        channels["stable"] = stable
        json["channels"] = channels
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        #expect(try await fixture.store().update() == .upToDate(releaseVersion: installed.releaseVersion))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.appendingPathComponent("planted.sqlite").path))
        #expect(try StoreState.load(path).channels["stable"]?.head.bundle.sha256 == installed.sha256)
    }
}
