import FlyingFox
import Foundation

/// A request as it arrives: its request line and header fields, read from a connection's bytes
/// under caps in one pass. Every byte is looked at once as it arrives, so a request costs time
/// in proportion to its length, and none is longer than `headerLimit`.
///
/// Written by hand: FlyingFox's decoder, which the preview served through before, reads lines
/// with no cap in quadratic time, judges the last of two `Host` fields and cannot be given
/// limits (it is internal to FlyingFox); Hummingbird, whose parser is SwiftNIO's, would add about
/// two minutes to each of CI's builds. docs/SECURITY.md lists what is refused and why.
package struct IncomingRequest {
    var method: HTTPMethod
    var target: HTTPRequest.Target
    var version: HTTPVersion
    var headers: HTTPHeaders
    /// The declared body's length (`Content-Length`), at most `bodyLimit`; 0 when none.
    var bodyLength: Int
    /// Whether the client asked for the connection to close after this answer (`Connection:
    /// close`, or HTTP/1.0 without `keep-alive`).
    var closes: Bool

    /// The longest request line read; a longer one is answered 414.
    static let requestLineLimit = 8 * 1024
    /// The longest request target (path and query) answered; longer is answered 414.
    static let targetLimit = 2048
    /// The longest request line and header fields read together; longer is answered 431.
    static let headerLimit = 32 * 1024
    /// The most header fields read; more are answered 431.
    static let fieldLimit = 100
    /// The longest request body read where the server's `Limits.body` says no other (the
    /// preview answers GET only, and throws any body away); a longer one is answered 413.
    package static let bodyLimit = 16 * 1024

    /// Why a request is answered with an error and its connection closed.
    struct Refusal: Error, Equatable {
        let status: HTTPStatusCode
        let message: String

        init(_ status: HTTPStatusCode, _ message: String) {
            self.status = status
            self.message = message
        }
    }
}

extension IncomingRequest {
    /// Collects a connection's bytes until a request's line and fields are complete. What follows them (a body, or
    /// the next request) stays in `buffer` after `take`.
    struct Reader {
        /// The longest body a request may declare, by its method and path.
        let bodyLimit: @Sendable (HTTPMethod, String) -> Int
        private(set) var buffer: [UInt8] = []
        /// Where the line being read starts, and how far `buffer` has been looked at.
        private var lineStart = 0
        private var scanned = 0
        /// The lines so far, without their line ends; empty lines before the request
        /// line are skipped (RFC 9112, 2.2).
        private var lines: [Range<Int>] = []

        init(bodyLimit: @escaping @Sendable (HTTPMethod, String) -> Int = { _, _ in IncomingRequest.bodyLimit }) {
            self.bodyLimit = bodyLimit
        }

        /// Adds the bytes read. Returns the request once it is complete, nil while it is not.
        mutating func append(_ bytes: some Collection<UInt8>) throws(Refusal) -> IncomingRequest? {
            buffer.append(contentsOf: bytes)
            return try scan()
        }

        /// The request already in `buffer` (a pipelined request), if whole.
        mutating func next() throws(Refusal) -> IncomingRequest? {
            try scan()
        }

        /// Removes `count` bytes of body from the front of `buffer` (after a request was taken).
        mutating func drop(_ count: Int) {
            buffer.removeFirst(min(count, buffer.count))
        }

        private mutating func scan() throws(Refusal) -> IncomingRequest? {
            while scanned < buffer.count {
                let byte = buffer[scanned]
                scanned += 1
                guard byte == UInt8(ascii: "\n") else { continue }
                // A line ends at LF; a CR before it is part of the line end.
                var end = scanned - 1
                if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = lineStart..<end
                lineStart = scanned
                if line.isEmpty {
                    if lines.isEmpty { continue }
                    let request = try IncomingRequest(lines: lines.map { buffer[$0] }, bodyLimit: bodyLimit)
                    buffer.removeFirst(scanned)
                    (lineStart, scanned) = (0, 0)
                    lines = []
                    return request
                }
                lines.append(line)
                if lines.count > IncomingRequest.fieldLimit + 1 {
                    throw Refusal(.requestHeaderFieldsTooLarge, "more than \(IncomingRequest.fieldLimit) header fields")
                }
            }
            if lines.isEmpty, scanned - lineStart > IncomingRequest.requestLineLimit {
                throw Refusal(.uriTooLong, "the request line is longer than \(IncomingRequest.requestLineLimit) bytes")
            }
            if scanned > IncomingRequest.headerLimit {
                throw Refusal(.requestHeaderFieldsTooLarge, "the request line and header fields are longer than \(IncomingRequest.headerLimit) bytes")
            }
            return nil
        }
    }

    /// The request of `lines` (the request line, then one header field a line), checked; its
    /// body no longer than `bodyLimit` gives for its method and path.
    init(lines: [ArraySlice<UInt8>], bodyLimit: (HTTPMethod, String) -> Int = { _, _ in IncomingRequest.bodyLimit }) throws(Refusal) {
        let requestLine = lines[0]
        guard requestLine.count <= Self.requestLineLimit else {
            throw Refusal(.uriTooLong, "the request line is longer than \(Self.requestLineLimit) bytes")
        }
        // method SP target SP version, one space each (RFC 9112, 3).
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte),
              !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Refusal(.badRequest, "the request line is not a method, a target and a version, one space apart")
        }
        switch String(decoding: parts[2], as: UTF8.self) {
        case "HTTP/1.1": version = .http11
        case "HTTP/1.0": version = HTTPVersion("HTTP/1.0")
        default: throw Refusal(.badRequest, "this preview speaks HTTP/1.1 and HTTP/1.0 only")
        }
        guard parts[1].count <= Self.targetLimit else {
            throw Refusal(.uriTooLong, "the address is longer than \(Self.targetLimit) bytes")
        }
        method = HTTPMethod(String(decoding: parts[0], as: UTF8.self))
        let target = String(decoding: parts[1], as: UTF8.self)
        let query = target.firstIndex(of: "?")
        self.target = HTTPRequest.Target(path: String(target[..<(query ?? target.endIndex)]),
                                         query: query.map { String(target[target.index(after: $0)...]) } ?? "")

        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Refusal(.badRequest, "a header line has no colon")
            }
            // No space before the colon, no folded lines (RFC 9112, 5.1 and 5.2).
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                throw Refusal(.badRequest, "a header field's name is empty or holds a space or a separator")
            }
            var value = line[line.index(after: colon)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            let nameText = String(decoding: name, as: UTF8.self)
            // NUL, CR and the other control characters have no place in a field (RFC 9110, 5.5):
            // `127.0.0.1\0.evil.com` would otherwise pass the Host check as 127.0.0.1.
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw Refusal(.badRequest, "the header field \(nameText) holds a control character")
            }
            headers.addValue(String(decoding: value, as: UTF8.self), for: HTTPHeader(nameText))
        }
        self.headers = headers

        // Exactly one Host (RFC 9112, 3.2): with two, which one a check judges is a guess.
        let hosts = headers.values(for: .host)
        guard hosts.count == 1 else {
            throw Refusal(.badRequest, hosts.isEmpty ? "the request has no Host header" : "the request has \(hosts.count) Host headers")
        }
        guard headers.values(for: .transferEncoding).isEmpty else {
            throw Refusal(.lengthRequired, "this preview reads no body sent in chunks; send Content-Length")
        }
        let lengths = headers.values(for: .contentLength)
        switch lengths.count {
        case 0:
            bodyLength = 0
        case 1:
            let text = lengths[0]
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let length = Int(text) else {
                throw Refusal(.badRequest, "Content-Length is not a number")
            }
            let limit = bodyLimit(method, String(target[..<(query ?? target.endIndex)]))
            guard length <= limit else {
                throw Refusal(.payloadTooLarge, "this server reads no request body longer than \(limit) bytes here")
            }
            bodyLength = length
        default:
            throw Refusal(.badRequest, "the request has \(lengths.count) Content-Length headers")
        }
        let connection = headers.values(for: .connection).joined(separator: ",").lowercased()
        let options = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        closes = options.contains("close") || (version.rawValue == "HTTP/1.0" && !options.contains("keep-alive"))
    }

    /// Whether `byte` may be in a method or a field name (RFC 9110, 5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
