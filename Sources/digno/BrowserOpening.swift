import Foundation

/// Opens an address in the user's own browser, as the desktop chooses it: `xdg-open` on Linux,
/// `open` on macOS, each run as a process with the address as its one argument (never through
/// a shell), not waited for. Where there is no such program (a server with no desktop), says
/// so; opening never stops the command.
enum BrowserOpening {
    /// Opens `address`; what to say about it.
    static func open(_ address: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        #if os(macOS)
        let opener: String? = "/usr/bin/open"
        #else
        let opener = program("xdg-open", path: environment["PATH"] ?? "")
        #endif
        guard let opener else { return "open \(address) in your browser (there is no xdg-open here to open it)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [address]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            // Not waited for here; waited for beside, so that its end is collected.
            DispatchQueue.global().async { process.waitUntilExit() }
        } catch {
            return "open \(address) in your browser (\(opener) could not be run: \(error.localizedDescription))"
        }
        return "opening it in your browser"
    }

    /// The executable file `name` in the first folder of `path` (PATH's form) that has one.
    static func program(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { String($0) + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
