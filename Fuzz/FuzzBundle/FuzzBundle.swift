// libFuzzer target: bytes → a bundle file → CatalogBundle opening and every screen query.
// Any input must give a bundle or a CatalogBundleError: a crash, a sanitizer report or a hang
// (libFuzzer's -timeout) is a bug. Built and run as docs/FUZZING.md says.
import CatalogContent
import CatalogModel
import Foundation

/// libFuzzer calls this with each input; its own `main` (linked by `--sanitize=fuzzer`) runs the
/// fuzzer with the command line's options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzBundle.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

enum FuzzBundle {
    /// A folder of this process's own, made at the first input.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-fuzz-bundle-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()
    static let path = folder.appendingPathComponent("catalog.sqlite").path
    static let day = Day(year: 2026, month: 11, day: 22)

    /// One input: written as the bundle file, opened, and every screen read.
    static func run(_ input: [UInt8]) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard FileManager.default.createFile(atPath: path, contents: Data(wholePages(input))) else { return }
        do {
            let bundle = try CatalogBundle(path: path, trust: InMemoryTrustStore())
            if let day {
                try bundle.readEveryScreen(on: day)
                _ = try bundle.validate(today: day)
            }
        } catch {
            // A typed error is the right answer to a damaged bundle.
        }
    }

    /// Most random changes to a bundle alter its size, which the header check refuses before
    /// SQLite opens the file (a test covers that). So that mutations reach SQLite and the
    /// queries, an input that starts as an SQLite file is made whole first: cut or padded to
    /// whole pages, and its header's page count (bytes 28 to 31) set to match.
    static func wholePages(_ input: [UInt8]) -> [UInt8] {
        guard input.count >= 100, input.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return input }
        let field = Int(input[16]) << 8 | Int(input[17])
        let pageSize = field == 1 ? 65536 : field
        guard pageSize >= 512, pageSize.nonzeroBitCount == 1 else { return input }
        var bytes = input
        let pages = max(1, (bytes.count + pageSize - 1) / pageSize)
        bytes += [UInt8](repeating: 0, count: pages * pageSize - bytes.count)
        for (index, shift) in [24, 16, 8, 0].enumerated() { bytes[28 + index] = UInt8(truncatingIfNeeded: pages >> shift) }
        return bytes
    }
}
