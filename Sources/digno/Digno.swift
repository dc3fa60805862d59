import ArgumentParser
import BundleCompiler
import Foundation

/// The `digno` command: compiles and checks Café Digno content.
@main
struct Digno: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digno",
        abstract: "Check and compile the Café Digno content.",
        version: CompilerVersion.line,
        subcommands: [Build.self, Validate.self, Inspect.self, Show.self])

    /// `digno` alone is a usage error, not help with status 0: a CI step that lost its
    /// subcommand must fail, not pass having checked nothing. `digno --help` still exits 0.
    func run() throws {
        throw ValidationError("Name a command: build, validate, inspect or show.")
    }

    /// Exit statuses: 0 valid, 1 content errors, 2 usage or I/O errors (argument-parser's own
    /// usage status, 64, is mapped to 2).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
