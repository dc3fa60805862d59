// libFuzzer target: bytes → one content file of a small valid catalogue → `digno validate`'s
// whole pipeline (reading, libxml2 and the schema, the entity builder, the catalogue rules,
// the pictures' headers but not their renditions, which are fuzz-picture's, the diagnostics in every report format). Any input must give a report: a crash, a sanitizer
// report or a hang (libFuzzer's -timeout) is a bug. The first byte chooses the file; the rest
// are its bytes. Built and run as docs/FUZZING.md says.
import BundleCompiler
import Foundation

/// libFuzzer calls this with each input; its own `main` (linked by `--sanitize=fuzzer`) runs the
/// fuzzer with the command line's options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    FuzzContent.run(file: Int(data[0]) % FuzzContent.files.count, bytes: Data(bytes: data + 1, count: size - 1))
    return 0
}

enum FuzzContent {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/BundleCompilerTests/Fixtures/valid")
    /// A copy of the valid fixture of this process's own, made at the first input.
    static let content: URL = {
        let content = FileManager.default.temporaryDirectory.appendingPathComponent("digno-fuzz-content-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: content)
        do {
            try FileManager.default.copyItem(at: fixture, to: content)
        } catch {
            FileHandle.standardError.write(Data("cannot copy the valid fixture \(fixture.path): \(error)\n".utf8))
            exit(2)
        }
        return content
    }()
    static let files = [
        "catalog.xml", "home.xml", "company.xml", "products/espresso.xml", "products/ground-coffee.xml", "recipes/cafe-latte.xml",
        "recipes/cafe-au-lait.xml", "retailers/deling-group.xml",
    ]
    static let originals = files.map { try? Data(contentsOf: fixture.appendingPathComponent($0)) }

    /// One input: `bytes` in place of one file, the folder validated, the file put back.
    static func run(file index: Int, bytes: Data) {
        let file = content.appendingPathComponent(files[index])
        guard FileManager.default.createFile(atPath: file.path, contents: bytes) else { return }
        defer { _ = FileManager.default.createFile(atPath: file.path, contents: originals[index]) }
        do {
            // The pictures' bytes are fuzz-picture's: none is rendered here (it took three
            // quarters of each input's time, for the same few fixture pictures every time).
            var validator = ContentValidator(contentFolder: content.path)
            validator.makesRenditions = false
            let report = try validator.validate()
            for format in ReportFormat.allCases { _ = format.render(report, contentFolder: content.path) }
        } catch {
            // An I/O error of the temporary folder, not of the content.
        }
    }
}
