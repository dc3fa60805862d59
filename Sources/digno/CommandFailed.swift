/// A failure a command words itself, or one whose status the command decides (the same bundle
/// error is a bad input to `digno show`, status 1, and to `digno validate --since`, status 2).
struct CommandFailed: CommandFailure {
    var description: String
    var exitStatus: Int32

    /// Status 1: refused.
    static func refused(_ message: String) -> CommandFailed { CommandFailed(description: message, exitStatus: 1) }

    /// Status 2: a usage, I/O or network error.
    static func failed(_ message: String) -> CommandFailed { CommandFailed(description: message, exitStatus: 2) }

    /// `error`'s words with the status the command gives it.
    init(_ error: any Error, status: Int32) {
        self.init(description: "\(error)", exitStatus: status)
    }

    init(description: String, exitStatus: Int32) {
        self.description = description
        self.exitStatus = exitStatus
    }
}
