import BundleCompiler
import CatalogModel
import ChannelFormat
@testable import ChannelPublishing
import Crypto
import Foundation
import Testing

// Deltas: which the head names, their bytes, and those left out.
extension ChannelPublisherTests {
    /// `xdelta3 -d`, the system's: the delta applies with the reference decoder too.
    func xdelta3Applies(_ delta: String, to source: String) throws -> Data {
        let output = folder.appendingPathComponent("xdelta3-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try installedTool("xdelta3", debian: "xdelta3"))
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
}
