import ArgumentParser
import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// The `digno` command: compiles and checks Café Digno content.
@main
struct Digno: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digno",
        abstract: "Check and compile the Café Digno content.",
        // The first line only: the whole, with the picture libraries' versions, would start
        // libvips (and load its modules) for every command. `main` prints it for --version.
        version: CompilerVersion.compilerLine,
        subcommands: [Init.self, Build.self, Validate.self, Schema.self, Lsp.self, Inspect.self, Show.self, Diff.self, Translations.self, Site.self, Preview.self, Studio.self, Keygen.self, Publish.self, Root.self, RotateKey.self, Update.self])

    /// `digno` alone is a usage error, not help with status 0: a CI step that lost its
    /// subcommand must fail, not pass having checked nothing. `digno --help` still exits 0.
    func run() throws {
        throw ValidationError("Name a command: \(Self.commandList).")
    }

    /// Exit statuses: 0 valid, 1 content errors or refused, 2 usage or I/O errors
    /// (argument-parser's own usage status, 64, is mapped to 2). The one place a failure is said
    /// and the process exits (`CommandFailure`).
    static func main() async {
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            print(CompilerVersion.line)
            return
        }
        do {
            var command: ParsableCommand
            do {
                command = try parseAsRoot()
            } catch {
                // argument-parser says only "Unexpected argument 'valdate'" for a mistyped command.
                if let unknown = unknownCommand(in: Array(CommandLine.arguments.dropFirst())) { throw unknown }
                throw error
            }
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            // An outcome the command printed itself (a report with errors, a difference found).
            Foundation.exit(code.rawValue)
        } catch let failure as any CommandFailure {
            FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
            Foundation.exit(failure.exitStatus)
        } catch {
            switch exitCode(for: error) {
            case .success:
                // --help, --version of a subcommand.
                print(fullMessage(for: error))
                Foundation.exit(0)
            case .validationFailure:
                // A usage error, said by argument-parser with the usage.
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            default:
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            }
            Foundation.exit(2)
        }
    }

    /// A usage error naming the nearest command, when the first argument is a word that is not one.
    static func unknownCommand(in arguments: [String]) -> ValidationError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(first), first != "help" else { return nil }
        let nearest = names
            .compactMap { name in editDistance(Array(first), Array(name), limit: 2).map { (name, $0) } }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }
        if let (name, _) = nearest {
            return ValidationError("'\(first)' is not a command; did you mean '\(name)'?")
        }
        if FileManager.default.fileExists(atPath: (first as NSString).appendingPathComponent("catalog.xml")) {
            return ValidationError("'\(first)' is a content folder; name a command first: digno validate \(first), or digno build \(first)")
        }
        return ValidationError("'\(first)' is not a command; the commands are \(commandList)")
    }

    /// The commands' names as a sentence says them: "build, validate, … or site".
    static var commandList: String {
        let names = configuration.subcommands.map { $0._commandName }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
