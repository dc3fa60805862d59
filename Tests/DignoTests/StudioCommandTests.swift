import Foundation
import Testing

/// `digno studio`'s help, and its opening of the editor's browser: `xdg-open` with the studio's
/// address, or with `--no-browser` nothing. (The studio itself is tested in CatalogStudioTests
/// and, through Chromium, in Tests/Browser.)
@Suite struct StudioCommandTests {
    @Test func helpNamesEveryOption() throws {
        let outcome = try DignoRunner.run(["studio", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE: digno studio [--content <folder>] [--port <port>] [--today <day>] [--compare <bundle or channel folder>] [--no-browser]\n"))
        for option in ["--content <folder>", "--port <port>", "--today <day>", "--no-browser"] {
            #expect(outcome.output.contains("  \(option)"), "\(option)")
        }
    }

    /// A studio started with a stand-in `xdg-open` first on PATH, which writes down what it was
    /// asked to open; the lines the studio said, and what was opened.
    static func started(_ extra: [String]) throws -> (lines: [String], opened: String?) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-studio-open-\(UUID().uuidString)")
        let bin = folder.appendingPathComponent("bin"), content = folder.appendingPathComponent("content")
        let record = folder.appendingPathComponent("opened.txt")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        let opener = bin.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$*\" > \"$DIGNO_TEST_OPENED.part\" && mv \"$DIGNO_TEST_OPENED.part\" \"$DIGNO_TEST_OPENED\"\n"
            .write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let process = Process()
        process.executableURL = DignoRunner.executable
        process.arguments = ["studio", "--content", content.path, "--port", "0", "--today", "2026-11-22"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["DIGNO_TEST_OPENED"] = record.path
        // Its drafts in the test's folder, not the user's state folder.
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = LineReader(output.fileHandleForReading)
        // Until the studio has said its address and what it did about the browser (or stopped).
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline {
            lines = reader.lines
            if lines.contains(where: { $0.hasPrefix("studio for ") }), extra.contains("--no-browser") || lines.contains(where: { $0.contains("browser") }) { break }
            usleep(20_000)
        }
        // What was opened, once the stand-in has written it down.
        if !extra.contains("--no-browser") {
            while !FileManager.default.fileExists(atPath: record.path), process.isRunning, Date() < deadline { usleep(20_000) }
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return (reader.lines, try? String(contentsOf: record, encoding: .utf8))
    }

    @Test func theStudioOpensInTheEditorsBrowser() throws {
        let (lines, opened) = try Self.started([])
        let address = try #require(lines.first { $0.hasPrefix("studio for ") }?.firstMatch(of: #/ at (http://127\.0\.0\.1:[0-9]+/_studio/) /#)?.1)
        #expect(opened == String(address), "\(lines)")
        #expect(lines.contains("opening it in your browser"), "\(lines)")
    }

    @Test func withNoBrowserItOnlySaysItsAddress() throws {
        let (lines, opened) = try Self.started(["--no-browser"])
        #expect(lines.contains { $0.hasPrefix("studio for ") }, "\(lines)")
        #expect(!lines.contains { $0.contains("browser") }, "\(lines)")
        #expect(opened == nil)
    }
}

/// A command's output as it comes, line by line, read on a thread of its own.
private final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()  // guarded by `lock`

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { data.append(chunk) }
            }
        }
    }

    /// The whole lines read so far.
    var lines: [String] {
        let text = lock.withLock { String(decoding: data, as: UTF8.self) }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
