@testable import BundleCompiler
import CatalogModel
import CatalogStore
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
    /// that differs).
    func bundle(_ version: String, mark: String = "") throws -> String {
        let content = try Fixtures.makeContent { root in
            guard !mark.isEmpty else { return }
            let company = root.appendingPathComponent("company.xml")
            let text = try String(contentsOf: company, encoding: .utf8)
            try text.replacingOccurrences(of: "<name>", with: "<name>\(mark) ", options: [], range: text.range(of: "<name>"))
                .write(to: company, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let output = folder.appendingPathComponent("\(version)\(mark).sqlite").path
        let builder = BundleBuilder(contentFolder: content.path, output: output, releaseVersion: version, today: Fixtures.today)
        _ = try builder.write(try builder.validate())
        return output
    }

    func publisher(keep: Int = 3) -> ChannelPublisher {
        ChannelPublisher(channelFolder: channel, channel: "stable", key: key, keep: keep)
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
        #expect(second.notesProblem?.hasPrefix("the bundle cannot be published: the release notes cannot be made: ") == true, "\(second.notesProblem ?? "")")
    }

    @Test func publishingOneChannelKeepsWhatAnotherNames() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let stable = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400).head
        let beta = ChannelPublisher(channelFolder: channel, channel: "beta", key: key, keep: 0)
        for (index, mark) in ["B", "C", "D"].enumerated() {
            _ = try beta.publish(bundle: try bundle("2026.11.\(index + 1)", mark: mark), now: now, lifetime: 86_400)
        }
        #expect(FileManager.default.fileExists(atPath: channel + "/" + stable.bundle.path), "stable's bundle is still there")
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

    @Test func keepsOnlyTheLastFewBundles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var shas: [String] = []
        for (index, version) in ["2026.11.0", "2026.11.1", "2026.11.2"].enumerated() {
            let path = try bundle(version, mark: "M\(index)")
            shas.append(try #require(BundleFileDigest.sha256(path: path)).hex)
            let outcome = try publisher(keep: 1).publish(bundle: path, now: now, lifetime: 86_400)
            if index == 2 { #expect(outcome.removed.filter { $0.hasPrefix("bundles/") } == ["bundles/\(shas[0]).sqlite", "bundles/\(shas[0]).sqlite.gz"]) }
        }
        #expect(try bundles() == [shas[1], shas[2]].sorted().flatMap { ["\($0).sqlite", "\($0).sqlite.gz"] })
        #expect(try head().retained.map(\.sha256) == [shas[1]])
    }

    @Test func renewingPublishesTheSameHeadWithANewExpiryAndSequence() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ChannelPublisher.Failure.head("the channel has no head to renew; publish a bundle first")) {
            try publisher().renew(now: now, lifetime: 86_400)
        }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400).head
        let later = now.addingTimeInterval(20 * 86_400)
        let renewed = try publisher().renew(now: later, lifetime: 30 * 86_400).head
        var expected = first
        expected.sequence = 2
        expected.expires = later.addingTimeInterval(30 * 86_400)
        #expect(renewed == expected)
        #expect(try head() == expected)
    }

    @Test func aKeyRotationAnnouncesTheNewKeyAndSignsTheHeadsAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        let before = try head()
        let newKey = Curve25519.Signing.PrivateKey()
        let rotation = try publisher().rotateKey(to: newKey)
        #expect(rotation == .init(statementPath: "keys/1.json", heads: ["channels/stable/head.json"]))
        let statement = try Data(contentsOf: URL(fileURLWithPath: channel + "/keys/1.json"))
        let taken = try KeyStatement.verified(statement, trusted: [ChannelKey(key.publicKey)], version: 1)
        #expect(taken.keys == [ChannelKey(newKey.publicKey)])
        // The head: the same payload, signed by both keys, for clients on either side of the
        // statement.
        let data = try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json"))
        #expect(try ChannelHead.verified(data, keys: [ChannelKey(newKey.publicKey)]) == before)
        #expect(try ChannelHead.verified(data, keys: [ChannelKey(key.publicKey)]) == before)
        // Run again (as after a crash midway): the same statement, nothing new.
        #expect(try publisher().rotateKey(to: newKey) == rotation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: channel + "/keys") == ["1.json"])

        // The old key can neither publish nor rotate any more; the new one publishes, alone.
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) {
            try publisher().publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        }
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) { try publisher().renew(now: now, lifetime: 86_400) }
        #expect(throws: ChannelPublisher.Failure.keyReplaced(statement: "keys/1.json")) { try publisher().rotateKey(to: Curve25519.Signing.PrivateKey()) }
        let next = ChannelPublisher(channelFolder: channel, channel: "stable", key: newKey)
        #expect(try next.publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400).head.sequence == 2)
        #expect(throws: ChannelError.self) { try ChannelHead.verified(Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")), keys: [ChannelKey(key.publicKey)]) }
        #expect(try next.rotateKey(to: Curve25519.Signing.PrivateKey()).statementPath == "keys/2.json")
        #expect(throws: ChannelPublisher.Failure.rotation("the new key is the one in use")) { try next.rotateKey(to: newKey) }
    }

    @Test func aHeadSignedByAnotherKeyOrABadChannelIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try bundle("2026.11.0")
        _ = try publisher().publish(bundle: path, now: now, lifetime: 86_400)
        let stranger = ChannelPublisher(channelFolder: channel, channel: "stable", key: Curve25519.Signing.PrivateKey())
        #expect {
            try stranger.publish(bundle: try bundle("2026.11.1", mark: "S"), now: now, lifetime: 86_400)
        } throws: { error in
            guard case .head(let reason) = error as? ChannelPublisher.Failure else { return false }
            return reason.hasPrefix("no trusted key signed this file") && reason.hasSuffix("(is this the channel's key?)")
        }
        for name in ["", "Stable", "../x", "a/b", "-x"] {
            let bad = ChannelPublisher(channelFolder: channel, channel: name, key: key)
            #expect(throws: ChannelPublisher.Failure.badChannelName(name)) { try bad.publish(bundle: path, now: now, lifetime: 1) }
        }
        #expect(throws: ChannelPublisher.Failure.self) { try publisher().publish(bundle: folder.appendingPathComponent("none.sqlite").path, now: now, lifetime: 1) }
    }

    @Test func releaseVersionsCompareAsNumbers() {
        #expect(ReleaseVersion.isNewer("2026.11.10", than: "2026.11.9"))
        #expect(ReleaseVersion.isNewer("2027.1.0", than: "2026.12.5"))
        #expect(!ReleaseVersion.isNewer("2026.11.0", than: "2026.11.0"))
        #expect(!ReleaseVersion.isNewer("2026.9.0", than: "2026.10.0"))
    }
}
