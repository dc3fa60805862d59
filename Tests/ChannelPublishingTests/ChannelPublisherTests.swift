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

    /// `xdelta3 -d`, the system's: the delta applies with the reference decoder too.
    func xdelta3Applies(_ delta: String, to source: String) throws -> Data {
        let output = folder.appendingPathComponent("xdelta3-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(DeltaEncoder.onPath()).executable)
        process.arguments = ["-d", "-f", "-s", source, delta, output]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test func deltasFromTheLastReleasesAreNamedInTheHead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = [], shas: [String] = []
        var outcomes: [ChannelPublisher.Outcome] = []
        for index in 0..<8 {
            paths.append(try bundle("2026.11.\(index)", mark: "M\(index)"))
            shas.append(try #require(BundleFileDigest.sha256(path: paths[index])).hex)
            outcomes.append(try publisher(retaining: 1, deltas: 5).publish(bundle: paths[index], now: now, lifetime: 86_400))
            #expect(outcomes[index].deltasLeftOut == [])
        }
        #expect(outcomes[0].head.deltas == nil, "a channel's first head has nothing to start from")
        #expect(outcomes[1].head.deltas?.map(\.from) == [shas[0]])
        let head = try head()
        let deltas = try #require(head.deltas)
        // The five releases before, newest first.
        #expect(deltas.map(\.from) == [shas[6], shas[5], shas[4], shas[3], shas[2]])
        let newest = try Data(contentsOf: URL(fileURLWithPath: paths[7]))
        for delta in deltas {
            let file = channel + "/" + delta.path
            #expect(delta.path == "deltas/\(delta.from)-\(shas[7]).vcdiff")
            #expect(BundleFileDigest.sha256(path: file).map { [$0.hex: $0.bytes] } == [delta.sha256: delta.bytes])
            #expect(delta.bytes * 2 < head.bundle.bytes)
            // The client's decoder and xdelta3's own give the new bundle from the old one.
            let source = channel + "/bundles/\(delta.from).sqlite"
            let result = folder.appendingPathComponent("applied").path
            #expect(try VCDIFFDecoder(source: source, targetLimit: head.bundle.bytes).apply(delta: file, to: result) == newest.count)
            #expect(try Data(contentsOf: URL(fileURLWithPath: result)) == newest)
            #expect(try xdelta3Applies(file, to: source) == newest)
            #expect(try gunzip(Data(contentsOf: URL(fileURLWithPath: file + ".gz"))) == Data(contentsOf: URL(fileURLWithPath: file)))
        }
        // Kept: the deltas' sources (for the next publish's deltas) beside the retained bundle;
        // the previous head's deltas one publish longer; nothing older.
        #expect(try bundles() == shas[2...7].sorted().flatMap { ["\($0).sqlite", "\($0).sqlite.gz"] })
        #expect(outcomes[7].removed.contains("bundles/\(shas[1]).sqlite"))
        let previous = try #require(outcomes[6].head.deltas).map(\.path)
        let onHost = Set(try FileManager.default.contentsOfDirectory(atPath: channel + "/deltas"))
        let named: [String] = (deltas.map(\.path) + previous).flatMap { path -> [String] in
            let name = String(path.dropFirst("deltas/".count))
            return [name, name + ".gz"]
        }
        #expect(onHost == Set(named))
        #expect(outcomes[7].removed.contains(try #require(outcomes[5].head.deltas?.first?.path)))
    }

    @Test func theDeltasAreTheSameBytesEveryTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = [try bundle("2026.11.0"), try bundle("2026.11.1", mark: "B")]
        var heads: [Data] = [], deltas: [Data] = []
        for name in ["one", "two"] {
            let channelFolder = folder.appendingPathComponent(name).path
            let publisher = ChannelPublisher(channelFolder: channelFolder, channel: "stable", key: key)
            for path in paths { _ = try publisher.publish(bundle: path, now: now, lifetime: 86_400) }
            heads.append(try Data(contentsOf: URL(fileURLWithPath: channelFolder + "/channels/stable/head.json")))
            let delta = try #require(ChannelHead.unverified(heads.last ?? Data())?.deltas?.first)
            deltas.append(try Data(contentsOf: URL(fileURLWithPath: channelFolder + "/" + delta.path)))
        }
        #expect(heads[0] == heads[1] && deltas[0] == deltas[1])
        #expect(!deltas[0].contains(Data(folder.path.utf8)), "no machine path in a delta")
    }

    @Test func withoutXdelta3APublishNeedingADeltaIsRefusedAndWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(DeltaEncoder.onPath(["PATH": "/nonexistent:"]) == nil)
        // The first head needs no delta.
        _ = try publisher(encoder: nil).publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400)
        let before = try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json"))
        let next = try bundle("2026.11.1", mark: "B")
        #expect(throws: ChannelPublisher.Failure.deltas("xdelta3 is not installed (Debian: apt-get install xdelta3); install it, or publish with --deltas 0")) {
            try publisher(encoder: nil).publish(bundle: next, now: now, lifetime: 86_400)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: channel + "/channels/stable/head.json")) == before)
        #expect(try bundles().count == 2, "the refused bundle was not copied")
        let without = try publisher(deltas: 0, encoder: nil).publish(bundle: next, now: now, lifetime: 86_400)
        #expect(without.head.deltas == nil && without.head.sequence == 2)
    }

    /// A stand-in for xdelta3 (a shell script run as it), for the deltas `digno publish` must
    /// leave out.
    func fakeXdelta3(_ script: String) throws -> DeltaEncoder {
        let path = folder.appendingPathComponent("xdelta3-\(UUID().uuidString)").path
        try ("#!/bin/sh\n" + script).write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return DeltaEncoder(executable: path)
    }

    @Test func deltasThatAreTooLargeOrDoNotApplyAreLeftOut() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try publisher().publish(bundle: try bundle("2026.11.0"), now: now, lifetime: 86_400).head
        let from = "from bundles/\(first.bundle.sha256).sqlite: "
        // The target's bytes added whole, as valid VCDIFF: as large as the bundle.
        let whole = try fakeXdelta3("""
            eval "target=\\${$(($#-1))} output=\\${$#}"
            python3 - "$target" "$output" <<'PY'
            import sys
            def integer(n):
                digits = [n & 0x7F]
                n >>= 7
                while n:
                    digits.insert(0, 0x80 | (n & 0x7F))
                    n >>= 7
                return bytes(digits)
            data = open(sys.argv[1], "rb").read()
            out = bytearray(b"\\xd6\\xc3\\xc4\\x00\\x00")
            for start in range(0, len(data), 1 << 20):
                piece = data[start:start + (1 << 20)]
                instructions = b"\\x01" + integer(len(piece))
                body = integer(len(piece)) + b"\\x00" + integer(len(piece)) + integer(len(instructions)) + b"\\x00" + piece + instructions
                out += b"\\x00" + integer(len(body)) + body
            open(sys.argv[2], "wb").write(out)
            PY
            """)
        let second = try publisher(encoder: whole).publish(bundle: try bundle("2026.11.1", mark: "B"), now: now, lifetime: 86_400)
        #expect(second.head.deltas == nil)
        #expect(second.deltasLeftOut.count == 1 && second.deltasLeftOut[0].hasPrefix(from + "it would be "), "\(second.deltasLeftOut)")
        #expect(second.deltasLeftOut[0].hasSuffix("not less than half the bundle's \(second.head.bundle.bytes); clients download the bundle"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: channel + "/deltas") == [], "nothing left, not even a check's scratch file")

        let garbage = try fakeXdelta3("eval \"output=\\${$#}\"; printf 'not a delta' > \"$output\"")
        let failing = try fakeXdelta3("echo 'xdelta3: out of memory' >&2; exit 1")
        // Every earlier release (newest first) is left out, with the reason.
        var earlier = [second.head.bundle.sha256, first.bundle.sha256]
        for (index, (encoder, reason)) in [(garbage, "xdelta3's delta does not apply with the client's decoder: the delta is not VCDIFF"),
                                            (failing, "xdelta3 failed (status 1): xdelta3: out of memory")].enumerated() {
            let outcome = try publisher(encoder: encoder).publish(bundle: try bundle("2026.11.\(index + 2)", mark: "C\(index)"), now: now, lifetime: 86_400)
            #expect(outcome.head.deltas == nil)
            #expect(outcome.deltasLeftOut == earlier.map { "from bundles/\($0).sqlite: " + reason })
            earlier.insert(outcome.head.bundle.sha256, at: 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: channel + "/deltas") == [], "nothing left, not even a check's scratch file")
    }

    @Test func aRollbackHasDeltasFromTheNewerReleasesNotFromItself() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let older = try bundle("2026.11.0")
        let newer = try bundle("2026.11.1", mark: "B")
        _ = try publisher().publish(bundle: older, now: now, lifetime: 86_400)
        let forward = try publisher().publish(bundle: newer, now: now, lifetime: 86_400).head
        let back = try publisher().publish(bundle: older, now: now, lifetime: 86_400, rollbackTo: "2026.11.0").head
        #expect(back.deltas?.map(\.from) == [forward.bundle.sha256])
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
