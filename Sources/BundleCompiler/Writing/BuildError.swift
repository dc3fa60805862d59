import CatalogModel

/// Why `digno build` wrote nothing. Whatever the reason, the previous bundle and manifest are
/// left exactly as they were. One made from another error carries it (`cause`: SQLite's result
/// code, the system's error number), its words after the reason.
package enum BuildError: CausedError, Equatable, Sendable, CustomStringConvertible {
    /// The content has errors; the report lists them.
    case contentInvalid(errors: Int)
    /// A file changed between validation and writing.
    case contentChanged(String)
    /// The output could not be written.
    case output(path: String, reason: String, cause: ErrorCause? = nil)
    /// The written bundle failed its own checks: a defect of the compiler.
    case bundleCheckFailed(String, cause: ErrorCause? = nil)
    /// The content folder could not be read at all.
    case compiler(CompilerError)
    /// A bundle would be larger than catalog.xml's budget: its path, its bytes and its
    /// pictures' bytes.
    case overBudget(path: String, bytes: Int, pictureBytes: Int, budget: BundleBudget)

    /// A message for the person running the command.
    package var description: String {
        switch self {
        case .contentInvalid(let errors):
            "the content has \(errors) error\(errors == 1 ? "" : "s"); nothing was written"
        case .contentChanged(let reason):
            "\(reason) during the build; run it again"
        case .output(let path, let reason, let cause):
            "cannot write '\(path)': \(reason)" + (cause.map { " (\($0))" } ?? "")
        case .bundleCheckFailed(let reason, let cause):
            "internal error: the bundle failed its checks (\(reason)\(cause.map { ": \($0)" } ?? "")); nothing was published; please report this as a bug"
        case .compiler(let error):
            error.description
        case .overBudget(let path, let bytes, let pictureBytes, let budget):
            "'\(path)' would be \(bytes) bytes, over the budget of \(budget.written) (\(budget.bytes) bytes) that catalog.xml sets; "
                + "its pictures take \(pictureBytes) bytes (\(bytes > 0 ? pictureBytes * 100 / bytes : 0) %): remove or replace large ones, "
                + "or raise <budget bundle=\"…\"/>; nothing was written"
        }
    }

    /// The error this one was made from, when one was.
    package var cause: ErrorCause? {
        switch self {
        case .output(_, _, let cause), .bundleCheckFailed(_, let cause): cause
        case .compiler(let error): error.cause
        case .contentInvalid, .contentChanged, .overBudget: nil
        }
    }
}
