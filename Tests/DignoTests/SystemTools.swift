import Foundation
import Testing

/// Whether `tool` is on the `PATH`; if not, the test fails here with the tool's name and how to
/// install it, and returns early rather than read output the tool would have made.
func isInstalled(_ tool: String, debian package: String) -> Bool {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    if folders.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }) { return true }
    Issue.record("\(tool) is not installed, and this test runs it (Debian: apt-get install \(package))")
    return false
}
