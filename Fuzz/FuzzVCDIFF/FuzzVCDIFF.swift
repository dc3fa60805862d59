// libFuzzer target: bytes → a source file and a VCDIFF delta → VCDIFFDecoder applying the delta.
// Any input must give a target file or a VCDIFFError: a crash, a sanitizer report or a hang
// (libFuzzer's -timeout) is a bug. Built and run as docs/FUZZING.md says.
import ChannelFormat
import Foundation

/// libFuzzer calls this with each input; its own `main` (linked by `--sanitize=fuzzer`) runs the
/// fuzzer with the command line's options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVCDIFF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzVCDIFF.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

enum FuzzVCDIFF {
    /// A folder of this process's own, made at the first input.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-fuzz-vcdiff-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()
    static let source = folder.appendingPathComponent("source").path
    static let delta = folder.appendingPathComponent("delta").path
    static let target = folder.appendingPathComponent("target").path
    /// The target may have at most this many bytes, as a head's declared size bounds it.
    static let targetLimit = 1 << 20

    /// One input: its source and delta (`split`) written and applied.
    static func run(_ input: [UInt8]) {
        let (source, delta) = split(input)
        guard FileManager.default.createFile(atPath: Self.source, contents: Data(source)),
              FileManager.default.createFile(atPath: Self.delta, contents: Data(delta)) else { return }
        do {
            _ = try VCDIFFDecoder(source: Self.source, targetLimit: targetLimit).apply(delta: Self.delta, to: target)
        } catch {
            // A typed error is the right answer to a damaged delta.
        }
    }

    /// An input is the source's length (two bytes, big-endian), the source, then the delta; the
    /// seeds in Fuzz/Corpus/vcdiff are xdelta3's deltas behind their sources. Mutations of the
    /// delta meet the decoder's checks, mutations of the source the Adler-32s.
    static func split(_ input: [UInt8]) -> (source: ArraySlice<UInt8>, delta: ArraySlice<UInt8>) {
        guard input.count >= 2 else { return ([], input[...]) }
        let length = min(Int(input[0]) << 8 | Int(input[1]), input.count - 2)
        return (input[2..<2 + length], input[(2 + length)...])
    }
}
