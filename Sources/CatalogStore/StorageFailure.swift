import CatalogModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file of the store could not be read or written, with the system's error number, so
/// that an app can tell "the phone is full" (`isDiskFull`) from a permission problem.
public struct StorageFailure: Sendable, Equatable, CustomStringConvertible {
    /// The file or folder, when one is concerned.
    public let path: String?
    /// The system's error number (`errno`), when the system gave one.
    public let errorNumber: Int32?
    private let message: String

    package init(path: String?, errorNumber: Int32?, message: String) {
        self.path = path
        self.errorNumber = errorNumber
        self.message = message
    }

    /// The disk (or the user's quota) is full: ENOSPC, EDQUOT; or the store found too little
    /// free space for a download before it began.
    public var isDiskFull: Bool {
        guard let errorNumber else { return isFreeSpaceRefusal }
        return errorNumber == ENOSPC || errorNumber == EDQUOT
    }

    /// The store may not read or write there: EACCES, EPERM, EROFS.
    public var isPermissionProblem: Bool {
        guard let errorNumber else { return false }
        return errorNumber == EACCES || errorNumber == EPERM || errorNumber == EROFS
    }

    /// Set for the store's own free-space check.
    package var isFreeSpaceRefusal = false

    public var description: String { message }
}
