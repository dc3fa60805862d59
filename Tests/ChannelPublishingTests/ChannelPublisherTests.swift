import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Crypto
import Foundation
import Testing

/// `digno publish`: the channel folder it writes, the signed head, and what it refuses.
@Suite(.serialized) struct ChannelPublisherTests {
    let folder: URL
    let key = Curve25519.Signing.PrivateKey()
    var channel: String { folder.appendingPathComponent("channel").path }
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-publish-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The valid fixture built as release `version` (with `mark` in its company name, for content
    /// that differs), and in `olderSchemas` beside it.
    func bundle(_ version: String, mark: String = "", olderSchemas: [Int] = []) throws -> String {
        let content = try Fixtures.makeContent { root in
            guard !mark.isEmpty else { return }
            let company = root.appendingPathComponent("company.xml")
            let text = try String(contentsOf: company, encoding: .utf8)
            try text.replacingOccurrences(of: "<name>", with: "<name>\(mark) ", options: [], range: text.range(of: "<name>"))
                .write(to: company, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let output = folder.appendingPathComponent("\(version)\(mark).sqlite").path
        var builder = BundleBuilder(contentFolder: content.path, output: output, releaseVersion: version, today: Fixtures.today)
        builder.olderSchemas = olderSchemas
        _ = try builder.writeAll(try builder.validate())
        return output
    }

    func publisher(retaining: Int = 3, deltas: Int = 5, encoder: DeltaEncoder? = .onPath()) -> ChannelPublisher {
        ChannelPublisher(channelFolder: channel, channel: "stable", key: key, retaining: retaining, deltas: deltas, deltaEncoder: encoder)
    }

    func head() throws -> ChannelHead {
        try ChannelHead.verified(try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")), keys: [ChannelKey(key.publicKey)])
    }

    func bundles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: channel + "/bundles").filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func publishesSignedHeadsInSequenceAndKeepsEarlierBundles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try bundle("2026.11.0")
        let second = try bundle("2026.11.1", mark: "B")
        let one = try publisher().publish(bundle: first, now: now, lifetime: 30 * 86_400)
        #expect(one.headPath == "channels/stable/head.json")
        let sha = try #require(BundleFileDigest.sha256(path: first))
        #expect(one.head.sequence == 1 && one.head.releaseVersion == "2026.11.0" && one.head.retained.isEmpty)
        #expect(one.head.bundle == .init(path: "bundles/\(sha.hex).sqlite", sha256: sha.hex, bytes: sha.bytes))
        #expect(one.head.expires == now.addingTimeInterval(30 * 86_400))
        #expect(try head() == one.head, "the head on disk is the one signed")
        #expect(try bundles() == ["\(sha.hex).sqlite", "\(sha.hex).sqlite.gz"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: channel + "/" + one.head.bundle.path)) == Data(contentsOf: URL(fileURLWithPath: first)))
        // The gzip copy: the bundle's bytes, with no name or time in its header, smaller.
        let compressed = try Data(contentsOf: URL(fileURLWithPath: channel + "/" + one.head.bundle.path + ".gz"))
        #expect(try gunzip(compressed) == Data(contentsOf: URL(fileURLWithPath: first)))
        #expect(Array(compressed.prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3], "gzip, deflate, no flags, no time")
        #expect(compressed.count < sha.bytes / 2)

        let firstTime = try modified(channel + "/channels/stable/head.json")
        let two = try publisher().publish(bundle: second, now: now, lifetime: 86_400)
        #expect(two.head.sequence == 2 && two.head.releaseVersion == "2026.11.1")
        #expect(two.head.retained == [one.head.bundle])
        #expect(try bundles().count == 4 && two.removed.isEmpty)
        // Published within the same second, the heads still differ in their time in seconds,
        // from which hosts make ETags.
        #expect(try modified(channel + "/channels/stable/head.json") > firstTime)
    }

    func modified(_ path: String) throws -> Int {
        Int(try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date).timeIntervalSince1970)
    }

    /// `gzip -dc`, the system's.
    func gunzip(_ data: Data) throws -> Data {
        let input = folder.appendingPathComponent("copy.gz")
        try data.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc \"$0\"", input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return output
    }

    @Test func aNewReleaseComesWithNotesOfWhatChanged() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        #expect(first.head.notes == nil, "a channel's first head has nothing to compare with")
        let second = try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        let notes = try #require(second.head.notes)
        #expect(notes.since == "2026.11.0")
        let json = try Data(contentsOf: URL(fileURLWithPath: channel + "/" + notes.json.path))
        #expect(notes.json.bytes == json.count && notes.json.path == "notes/\(notes.json.sha256).json")
        let changes = try #require(CatalogChanges.decoded(from: json))
        #expect(changes.old.releaseVersion == "2026.11.0" && changes.new.releaseVersion == "2026.11.1")
        #expect(changes.entities.map { "\($0.kind.rawValue) \($0.change.rawValue) \($0.fields.map(\.field))" } == ["company changed [\"name\"]"])
        let markdown = try String(contentsOf: URL(fileURLWithPath: channel + "/" + notes.markdown.path), encoding: .utf8)
        #expect(markdown.hasPrefix("# What changed: 2026.11.0 → 2026.11.1\n"))
        #expect(try head() == second.head, "the notes are in the signed head")
        // The next release's notes go beside them; they stay one head longer, for a client
        // fetching them, and then go.
        let third = try publisher().publish(bundle: try bundle("2026.11.2", mark: "C"), now: now, lifetime: 86_400)
        #expect(!third.removed.contains(notes.json.path))
        #expect(third.head.notes?.since == "2026.11.1")
        let fourth = try publisher().publish(bundle: try bundle("2026.11.3", mark: "D"), now: now, lifetime: 86_400)
        #expect(fourth.removed.contains(notes.json.path) && fourth.removed.contains(notes.markdown.path))
    }

    /// For an app several releases behind: notes from each older release deltas start from.
    @Test func aNewReleaseComesWithNotesFromEachRecentRelease() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        let second = try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        #expect(second.head.notesFrom == nil, "the previous head's release has `notes`")
        let third = try publisher().publish(bundle: try bundle("2026.11.2", mark: "C"), now: now, lifetime: 86_400)
        let older = try #require(third.head.notesFrom)
        #expect(older.map(\.since) == ["2026.11.0"])
        let changes = try #require(CatalogChanges.decoded(from: try Data(contentsOf: URL(fileURLWithPath: channel + "/" + older[0].json.path))))
        #expect(changes.old.releaseVersion == "2026.11.0" && changes.new.releaseVersion == "2026.11.2")
        #expect(FileManager.default.fileExists(atPath: channel + "/" + older[0].markdown.path))
        #expect(try head() == third.head, "in the signed head")
        // The next publish keeps them (the previous head names them), and with no deltas there
        // are no older notes either: the same releases.
        let fourth = try publisher(deltas: 0).publish(bundle: try bundle("2026.11.3", mark: "D"), now: now, lifetime: 86_400)
        #expect(fourth.head.notesFrom == nil)
        #expect(!fourth.removed.contains(older[0].json.path))
    }

    @Test func notesThatCannotBeMadeLeaveTheReleasePublishedWithoutThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        // The previous bundle damaged on the host (or of a schema this digno no longer reads).
        let previous = channel + "/" + first.head.bundle.path
        let handle = try #require(FileHandle(forWritingAtPath: previous))
        try handle.write(contentsOf: Data(repeating: 0, count: 100))
        try handle.close()
        let second = try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        #expect(second.head.notes == nil && second.head.sequence == 2)
        let problem = try #require(second.notesProblem)
        #expect("\(problem)".hasPrefix("the bundle cannot be published: the release notes cannot be made: "), "\(problem)")
        // The cause kept through the comparison's error: what the bundle check found.
        #expect(problem.cause?.code == "bundle:notSQLite", "\(problem)")
    }

    @Test func publishingOneChannelKeepsWhatAnotherNames() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400).head
        let stable = try publisher().publish(bundle: try bundle("2026.11.1", mark: "A"), now: now, lifetime: 86_400).head
        let delta = try #require(stable.deltas?.first)
        let beta = ChannelPublisher(channelFolder: channel, channel: "beta", key: key, retaining: 0)
        var betaHead = stable
        for (index, mark) in ["B", "C", "D"].enumerated() {
            betaHead = try beta.publish(bundle: try bundle("2026.11.\(index + 2)", mark: mark), now: now, lifetime: 86_400).head
        }
        // Stable's bundle, the one it retains, its delta (and .gz) and the delta's source.
        for path in [stable.bundle.path, first.bundle.path, delta.path, delta.path + ".gz", "bundles/\(delta.from).sqlite"] {
            #expect(FileManager.default.fileExists(atPath: channel + "/" + path), "\(path) is still there")
        }
        // Beta's previous head's deltas went with the bundle they led to (it retains none).
        let named = ((stable.deltas ?? []) + (betaHead.deltas ?? [])).flatMap { [$0.path, $0.path + ".gz"] }.map { String($0.dropFirst("deltas/".count)) }
        #expect(named.count == 6)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: channel + "/deltas")) == Set(named))
    }

    @Test func theSameDeltaOnAnotherChannelIsKeptNotRewritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = [try bundle("2026.11.0"), try bundle("2026.11.1", mark: "B")]
        var deltas: [ChannelHead.Delta] = []
        for name in ["stable", "beta"] {
            let publisher = ChannelPublisher(channelFolder: channel, channel: name, key: key)
            for path in paths { _ = try publisher.publish(bundle: path, now: now, lifetime: 86_400) }
            deltas.append(try #require(ChannelHead.unverified(Data(contentsOf: URL(fileURLWithPath: channel + "/channels/\(name)/head.json")))?.deltas?.first))
            if name == "stable" {
                // Made older, to tell whether beta's publish wrote it again.
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: channel + "/" + deltas[0].path)
            }
        }
        #expect(deltas[0] == deltas[1])
        let modified = try FileManager.default.attributesOfItem(atPath: channel + "/" + deltas[0].path)[.modificationDate] as? Date
        #expect(modified == Date(timeIntervalSince1970: 1_000_000_000))
    }

    @Test func aStoppedPublishsFilesGoAndAnOperatorsStay() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        try FileManager.default.createDirectory(atPath: channel + "/deltas", withIntermediateDirectories: true)
        for path in ["bundles/.x.sqlite.partial", "deltas/.y.vcdiff.check.partial", "bundles/README.txt"] {
            #expect(FileManager.default.createFile(atPath: channel + "/" + path, contents: Data("x".utf8)))
        }
        _ = try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        #expect(!FileManager.default.fileExists(atPath: channel + "/bundles/.x.sqlite.partial"))
        #expect(!FileManager.default.fileExists(atPath: channel + "/deltas/.y.vcdiff.check.partial"))
        #expect(FileManager.default.fileExists(atPath: channel + "/bundles/README.txt"))
    }

    @Test func theGzipCopyIsTheSameBytesEveryTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try bundle("2026.11.0")
        let sha = try #require(BundleFileDigest.sha256(path: path)).hex
        var copies: [Data] = []
        for name in ["one", "two"] {
            let channelFolder = folder.appendingPathComponent(name).path
            _ = try ChannelPublisher(channelFolder: channelFolder, channel: "stable", key: key).publish(bundle: path, now: now, lifetime: 86_400)
            copies.append(try Data(contentsOf: URL(fileURLWithPath: channelFolder + "/bundles/\(sha).sqlite.gz")))
        }
        #expect(copies[0] == copies[1])
    }

    @Test func refusesWhatIsNotNewerAndRollsBackOnlyOnPurpose() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let older = try bundle("2026.11.0")
        let newer = try bundle("2026.11.1", mark: "B")
        _ = try publisher().publish(bundle: older, now: now, lifetime: 86_400)
        _ = try publisher().publish(bundle: newer, now: now, lifetime: 86_400)
        let before = try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json"))

        #expect(throws: ChannelPublisher.Failure.sameContent("2026.11.1")) { try publisher().publish(bundle: newer, now: now, lifetime: 86_400) }
        #expect(throws: ChannelPublisher.Failure.notNewer(new: "2026.11.0", current: "2026.11.1")) {
            try publisher().publish(bundle: older, now: now, lifetime: 86_400)
        }
        #expect(throws: ChannelPublisher.Failure.rollback("the bundle is release 2026.11.0, not 2026.10.0")) {
            try publisher().publish(bundle: older, now: now, lifetime: 86_400, rollbackTo: "2026.10.0")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")) == before, "a refusal writes nothing")

        // Back on purpose: the old content under a higher sequence number.
        let back = try publisher().publish(bundle: older, now: now, lifetime: 86_400, rollbackTo: "2026.11.0")
        #expect(back.head.sequence == 3 && back.head.releaseVersion == "2026.11.0")
        #expect(back.head.retained.map(\.sha256) == [try #require(BundleFileDigest.sha256(path: newer)).hex])
    }

    @Test func retainsOnlyTheLastFewBundles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var shas: [String] = []
        for (index, version) in ["2026.11.0", "2026.11.1", "2026.11.2"].enumerated() {
            let path = try bundle(version, mark: "M\(index)")
            shas.append(try #require(BundleFileDigest.sha256(path: path)).hex)
            let outcome = try publisher(retaining: 1, deltas: 0).publish(bundle: path, now: now, lifetime: 86_400)
            if index == 2 { #expect(outcome.removed.filter { $0.hasPrefix("bundles/") } == ["bundles/\(shas[0]).sqlite", "bundles/\(shas[0]).sqlite.gz"]) }
        }
        #expect(try bundles() == [shas[1], shas[2]].sorted().flatMap { ["\($0).sqlite", "\($0).sqlite.gz"] })
        #expect(try head().retained.map(\.sha256) == [shas[1]])
    }

    @Test func releaseVersionsCompareAsNumbers() {
        #expect(ReleaseVersion.isNewer("2026.11.10", than: "2026.11.9"))
        #expect(ReleaseVersion.isNewer("2027.1.0", than: "2026.12.5"))
        #expect(!ReleaseVersion.isNewer("2026.11.0", than: "2026.11.0"))
        #expect(!ReleaseVersion.isNewer("2026.9.0", than: "2026.10.0"))
    }
}
