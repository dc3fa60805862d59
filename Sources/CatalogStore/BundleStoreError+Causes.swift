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

extension BundleStoreError: CausedError {
    /// The failure as `ErrorCause` codes it, so that an error made from this one (a delta that
    /// failed, in `DeltaReport`) keeps it: `http:404`, `network:-1005` (`URLError.Code`),
    /// `timeLimit`, `answer`, `errno:28`, `sqlite:11` or `bundle:<code>` for a bundle that does
    /// not open, `bundle:digest`, `refused:<case>` for another refusal, for `noBundle` the seed's (or the
    /// last bundle tried's) code, or `noBundle` when there was none to try,
    /// `cancelled`, `busy`.
    public var cause: ErrorCause? {
        let code: String
        switch self {
        case .transfer(let failure):
            code = switch failure.cause {
            case .status(let status): "http:\(status)"
            case .network(let number): "network:\(number)"
            case .timeLimit: "timeLimit"
            case .answer: "answer"
            }
        case .storage(let failure): code = failure.errorNumber.map { "errno:\($0)" } ?? "storage"
        case .refused(.bundleUnreadable(let failure)): code = ErrorCause(failure).code
        case .refused(.bundleDigest): code = "bundle:digest"
        case .refused(.head(let error)), .refused(.root(_, let error)): code = error.cause?.code ?? error.errorCode
        case .refused(let refusal): code = "refused:" + (Mirror(reflecting: refusal).children.first?.label ?? "\(refusal)")
        case .noBundle(_, let causes): code = causes.last?.code ?? "noBundle"
        case .cancelled: code = "cancelled"
        case .busy: code = "busy"
        }
        return ErrorCause(code: code, message: description)
    }
}
