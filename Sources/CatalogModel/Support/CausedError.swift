import Foundation
import GRDB

/// An error of this package made from another: its `cause`, whose code ``ErrorCause`` carries on
/// when the error is wrapped again (publishing a file SQLite cannot open is `sqlite:26` however
/// many errors say so on the way up).
public protocol CausedError: Error {
    /// The error that made this one, when one did.
    var cause: ErrorCause? { get }
    /// This error's own code, for when it has no cause: by default its type and case
    /// (`channel:notSigned`).
    var errorCode: String { get }
}

extension CausedError {
    public var errorCode: String { ErrorCause.typeAndCase(self) }
}
