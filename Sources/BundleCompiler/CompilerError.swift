import CatalogModel

/// A failure that stops the compiler before it can judge the content: a usage or I/O problem,
/// not a content mistake (those are `Diagnostic`s). The CLI exits with status 2 for these.
package enum CompilerError: CausedError, Equatable, Sendable, CustomStringConvertible {
    /// The content folder does not exist.
    case contentFolderMissing(String)
    /// The content path exists but is not a folder.
    case contentNotAFolder(String)
    /// A folder could not be listed.
    case folderUnreadable(String, cause: ErrorCause)
    /// The embedded schema did not compile: a defect of the compiler itself.
    case schemaUnusable(String)
    /// libxml2 could not allocate a parser.
    case outOfMemory

    /// A message for the person running the command.
    package var description: String {
        switch self {
        case .contentFolderMissing(let path):
            "content folder '\(path)' does not exist; give the folder holding catalog.xml"
        case .contentNotAFolder(let path):
            "'\(path)' is not a folder; give the folder holding catalog.xml"
        case .folderUnreadable(let path, let cause):
            "cannot list '\(path)': \(cause)"
        case .schemaUnusable(let reason):
            "internal error: \(reason); please report this as a bug"
        case .outOfMemory:
            "out of memory while setting up the XML parser"
        }
    }

    /// The system's error, for a folder that cannot be listed.
    package var cause: ErrorCause? {
        if case .folderUnreadable(_, let cause) = self { return cause }
        return nil
    }
}
