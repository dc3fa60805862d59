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

/// Why a file of the channel could not be fetched, with its cause, so that an app can tell
/// "no connection" (`isConnectionProblem`) from "the host answered wrongly" (`.status`).
public struct TransferFailure: Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        /// The host answered with an HTTP status the store did not expect (404, 500, a 416 to a
        /// resume).
        case status(Int)
        /// The network failed; the code is `URLError.Code`'s raw value (see `urlErrorCode`).
        case network(code: Int)
        /// Nothing arrived for the idle limit, or the transfer ran past its whole limit.
        case timeLimit
        /// The host's answer is not one the store reads: not HTTP, compressed though not asked
        /// to be, a resume from another place, no answer at all.
        case answer
    }

    /// The file's address.
    public let url: String
    public let cause: Cause
    /// The whole sentence, as `description` gives it.
    private let message: String

    package init(url: String, cause: Cause, message: String) {
        self.url = url
        self.cause = cause
        self.message = message
    }

    /// "URL answered HTTP status".
    package static func status(_ status: Int, url: URL) -> TransferFailure {
        TransferFailure(url: url.absoluteString, cause: .status(status), message: "\(url.absoluteString) answered HTTP \(status)")
    }

    /// "URL: reason", for a cause other than a status.
    package static func failed(_ url: URL, _ cause: Cause, _ reason: String) -> TransferFailure {
        TransferFailure(url: url.absoluteString, cause: cause, message: "\(url.absoluteString): \(reason)")
    }

    /// The whole-transfer limit passed: what both transports say.
    package static func tookTooLong(_ url: URL, limit: TimeInterval) -> TransferFailure {
        failed(url, .timeLimit, "it took longer than \(Int(limit)) s, the limit for its size")
    }

    /// The idle limit passed: what both transports say.
    package static func silent(_ url: URL, limit: TimeInterval) -> TransferFailure {
        failed(url, .timeLimit, "nothing arrived for \(Int(limit)) s")
    }

    /// A 200 or 206 answer whose body is encoded though the store asked for the plain bytes.
    package static func encodedBody(_ address: String, encoding: String) -> TransferFailure {
        TransferFailure(url: address, cause: .answer,
                        message: "\(address): the host sent a body encoded as '\(encoding)', which was not asked for; it is not read")
    }

    /// The network's error code, for a network failure.
    public var urlErrorCode: URLError.Code? {
        if case .network(let code) = cause { URLError.Code(rawValue: code) } else { nil }
    }

    /// Whether the device could not reach the host (no connection, a connection lost, a name
    /// that did not resolve, a host that did not answer in time): what an app shows as "you
    /// seem to be offline; the catalogue updates when you are back".
    public var isConnectionProblem: Bool {
        switch cause {
        case .timeLimit: return true
        case .status, .answer: return false
        case .network(let code):
            let offline: [URLError.Code] = [.notConnectedToInternet, .networkConnectionLost, .dataNotAllowed, .internationalRoamingOff,
                                            .callIsActive, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .timedOut]
            return offline.contains { $0.rawValue == code }
        }
    }

    public var description: String { message }
}
