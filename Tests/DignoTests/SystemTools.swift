import Foundation

/// A system tool that a test runs is not installed: the test fails with this, naming the tool
/// and how to install it, and every other test runs on. `.ci/run` installs them all.
struct MissingTool: Error, CustomStringConvertible {
    var tool: String
    var debianPackage: String

    var description: String { "\(tool) is not installed, and this test runs it (Debian: apt-get install \(debianPackage))" }
}

/// The path of `tool` on the `PATH`, or `MissingTool`.
func installedTool(_ tool: String, debian package: String) throws(MissingTool) -> String {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(folder)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw MissingTool(tool: tool, debianPackage: package)
}
