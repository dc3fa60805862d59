import ArgumentParser
import Foundation

/// The content folder, as `digno build` and `digno validate` both take it: `digno build content`
/// and `digno build --content content` are the same command.
struct ContentFolderArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The content folder (default: content).", valueName: "folder"))
    var folder: String?

    @Option(help: ArgumentHelp("The content folder, as a named option.", valueName: "folder"))
    var content: String?

    /// The folder given; else `content` when there is one here; else, run inside a content
    /// folder (or one of its folders, such as products/), that folder (`.` or `..`).
    var contentFolder: String {
        if let given = folder ?? content { return given }
        let manager = FileManager.default
        if manager.fileExists(atPath: "content") { return "content" }
        for candidate in [".", ".."] where manager.fileExists(atPath: candidate + "/catalog.xml") {
            return candidate
        }
        return "content"
    }

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
