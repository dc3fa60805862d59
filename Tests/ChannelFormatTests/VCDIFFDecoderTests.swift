@testable import ChannelFormat
import Foundation
import Testing

/// The VCDIFF decoder against deltas written by xdelta3 (Debian's `xdelta3`, which `.ci/run`
/// installs; `digno publish` will write deltas with it), and against damaged ones.
@Suite struct VCDIFFDecoderTests {
    /// The repository's root, for CatalogModel's fixture bundles and the fuzz corpus.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vcdiff-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ data: Data) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `xdelta3 -e -S none` from `source` to `target`, with `options`.
    func xdelta(_ source: String, _ target: String, _ options: [String] = []) throws -> Data {
        let output = folder.appendingPathComponent("delta-\(UUID().uuidString).vcdiff").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try installedTool("xdelta3", debian: "xdelta3"))
        process.arguments = ["-e", "-9", "-S", "none", "-f"] + options + ["-s", source, target, output]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xdelta3 failed (status \(process.terminationStatus))")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    func apply(_ delta: Data, source: String, limit: Int = 1 << 30) throws(VCDIFFError) -> Data {
        let target = folder.appendingPathComponent("out-\(UUID().uuidString)").path
        let deltaPath = folder.appendingPathComponent("delta-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: deltaPath, contents: delta) else { throw .io("\(deltaPath) cannot be written") }
        _ = try VCDIFFDecoder(source: source, targetLimit: limit).apply(delta: deltaPath, to: target)
        return (try? Data(contentsOf: URL(fileURLWithPath: target))) ?? Data()
    }

    static func random(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    @Test func deltasFromXdelta3ReproduceTheirTargets() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = Self.random(300_000, seed: 1)
        var changed = base
        changed.replaceSubrange(1000..<1010, with: Data("ten bytes!".utf8))
        var inserted = base
        inserted.insert(contentsOf: Self.random(5000, seed: 2), at: 150_000)
        var removed = base
        removed.removeSubrange(20_000..<90_000)
        let repeated = base + base.prefix(50_000) + Data(repeating: 7, count: 10_000)
        let source = try file("base", base)
        for (name, target) in [("changed", changed), ("inserted", inserted), ("removed", removed), ("repeated", repeated), ("same", base),
                               ("empty", Data()), ("unrelated", Self.random(40_000, seed: 3))] {
            let targetPath = try file(name, target)
            for options in [[], ["-W", "16384"]] {  // one window, and many small ones
                let delta = try xdelta(source, targetPath, options)
                #expect(try apply(delta, source: source) == target, "\(name) \(options)")
            }
        }
    }

    @Test func aRealBundleDelta() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = Self.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/shipped.sqlite").path
        let new = Self.repository.appendingPathComponent("Tests/CatalogModelTests/Fixtures/small.sqlite").path
        let delta = try xdelta(old, new)
        #expect(try apply(delta, source: old) == Data(contentsOf: URL(fileURLWithPath: new)))
        // More than the head declares: stopped.
        #expect(throws: VCDIFFError.tooLarge(limit: 1000)) { try apply(delta, source: old, limit: 1000) }
    }

    /// A VCD_TARGET window (xdelta3 does not write them; RFC 3284 allows them) copies from the
    /// target written so far.
    @Test func aWindowCopyingFromTheTargetSoFar() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var delta = Data([0xD6, 0xC3, 0xC4, 0x00, 0x00])
        delta += Data([0x00, 14, 8, 0x00, 8, 1, 0]) + Data("abcdefgh".utf8) + Data([0x09])  // ADD 8
        delta += Data([0x02, 8, 0, 7, 8, 0x00, 0, 1, 1, 0x18, 0x00])  // the target's 8 bytes at 0; COPY 8 from 0
        #expect(try apply(delta, source: try file("none", Data())) == Data("abcdefghabcdefgh".utf8))
        // A segment beyond what was written: refused.
        var beyond = delta
        beyond[beyond.count - 10] = 9
        #expect(throws: VCDIFFError.badAddress) { try apply(beyond, source: try file("none", Data())) }
    }

    /// fuzz-vcdiff's seeds (scripts/fuzz-vcdiff-seeds.sh) must apply whole, so that the fuzzer
    /// starts from deltas that reach every part of the decoder.
    @Test func theFuzzSeedDeltasApply() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = Self.repository.appendingPathComponent("Fuzz/Corpus/vcdiff")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        #expect(seeds.count == 9)
        for seed in seeds {
            let input = try Data(contentsOf: corpus.appendingPathComponent(seed))
            let length = Int(input[0]) << 8 | Int(input[1])  // as fuzz-vcdiff splits an input
            let source = try file("source-\(seed)", input.subdata(in: 2..<2 + length))
            let target = try apply(input.subdata(in: (2 + length)..<input.count), source: source)
            #expect(seed == "empty.seed" ? target.isEmpty : target.count > 1000, "\(seed)")
        }
    }

    @Test func damagedDeltasAreErrorsNeverCrashes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = Self.random(60_000, seed: 4)
        var target = base
        target.replaceSubrange(30_000..<30_100, with: Self.random(300, seed: 5))
        let source = try file("base", base)
        let delta = try xdelta(source, try file("target", target), ["-W", "16384"])
        #expect(throws: VCDIFFError.notVCDIFF) { try apply(Data("not a delta".utf8), source: source) }
        var secondary = delta
        secondary[4] |= 0x01
        #expect(throws: VCDIFFError.unsupported("secondary compression (write it with xdelta3 -S none)")) { try apply(secondary, source: source) }
        // Every prefix: an error (or, at a window boundary, a shorter result), never a crash.
        for length in stride(from: 0, to: delta.count, by: max(1, delta.count / 300)) {
            let result = Result { () throws(VCDIFFError) in try apply(delta.prefix(length), source: source) }
            if case .success(let output) = result { #expect(output.count < target.count) }
        }
        // Bytes flipped at random: an error or some output, never a crash or a hang.
        var state: UInt64 = 9
        var errors = 0
        for _ in 0..<2_000 {
            var damaged = delta
            for _ in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                damaged[Int(state >> 33) % damaged.count] ^= UInt8(truncatingIfNeeded: state >> 13) | 1
            }
            if case .failure = Result(catching: { () throws(VCDIFFError) in try apply(damaged, source: source, limit: 200_000) }) { errors += 1 }
        }
        #expect(errors > 1_500, "the Adler-32 and the structure checks catch most damage (\(errors) of 2000)")
        // A source segment placed at the end of the integers' range: refused, not a trap.
        var far = Data([0xD6, 0xC3, 0xC4, 0x00, 0x00, 0x01])  // header; a window from the source
        far += Data([0x04])                                   // segment length 4
        far += Data([0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])  // segment position 2^62 - 1
        far += Data([0x07, 0x04, 0x00, 0x00, 0x01, 0x01])     // 7 bytes of encoding: target 4, no data, 1 instruction, 1 address byte
        far += Data([0x14, 0x00])                             // COPY size 4 (mode 0) from address 0
        #expect(throws: VCDIFFError.badAddress) { try apply(far, source: source) }
        // A source other than the delta's: the checksums catch it.
        #expect(throws: VCDIFFError.self) { try apply(delta, source: try file("other", Self.random(60_000, seed: 6))) }
    }
}
