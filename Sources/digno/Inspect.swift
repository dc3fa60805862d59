import ArgumentParser
import BundleCompiler
import Foundation

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a bundle and run its integrity checks.",
        discussion: "Exit status: 0 when every check passes, 1 when one fails or the file is not a bundle, 2 for usage or I/O errors.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The bundle file.")
    var file: String

    @Option(help: ArgumentHelp(
        "The bundle's manifest, to compare it with (default: the one beside the bundle, if there is one).",
        valueName: "file"))
    var manifest: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        let inspection = try BundleInspection.inspect(file, manifest: manifest)
        print(format == .json ? inspection.json : inspection.text, terminator: "")
        if !inspection.isSound { throw ExitCode(1) }
    }
}
