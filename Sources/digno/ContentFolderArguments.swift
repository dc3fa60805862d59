import ArgumentParser
import Foundation

/// The content folder, as `digno build` and `digno validate` both take it: `digno build content`
/// and `digno build --content content` are the same command.
struct ContentFolderArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The content folder (default: content).", valueName: "folder"))
    var folder: String?

    @Option(help: ArgumentHelp("The content folder, as a named option.", valueName: "folder"))
    var content: String?

    var contentFolder: String { folder ?? content ?? "content" }

    func validate() throws {
        // The same folder written twice (`content` and `./content/`) is one folder.
        func resolved(_ path: String) -> String {
            guard let real = realpath(path, nil) else { return path }
            defer { free(real) }
            return String(cString: real)
        }
        if let folder, let content, resolved(folder) != resolved(content) {
            throw ValidationError("two content folders given ('\(folder)' and --content '\(content)'); give one")
        }
    }
}
