import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP server on the loopback that answers every request slowly, for the transport's
/// time limits (FakeHost stands in for URLSession, so it cannot show them): it sends a status
/// line and headers announcing `length` bytes, then one byte every `interval`, or nothing more
/// when `interval` is nil. Written with POSIX sockets: nothing else here serves HTTP.
final class TricklingHost: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let stopped = NSLock()
    private var isStopped = false
    private var received: [String] = []

    /// The requests' heads received so far (their first 4 KiB), under `stopped`.
    var requests: [String] { stopped.withLock { received } }
    /// How many bytes of the body each connection had been sent when the client closed it, as
    /// this host's own thread saw it: fewer than the body's length when a client's limit cut the
    /// transfer short, whatever the test's task waited for Swift's cooperative pool. Bytes, not
    /// seconds: a busy machine slows both sides, and no test asserts a time.
    var closedAfter: [Int] { stopped.withLock { closings } }
    private var closings: [Int] = []

    init(length: Int, interval: TimeInterval?) throws {
        #if os(Linux)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) } }
        guard listener >= 0, bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &size) } }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                #if canImport(Darwin)
                var on: Int32 = 1  // no SIGPIPE when the client has gone (Linux: MSG_NOSIGNAL)
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
                #endif
                Thread.detachNewThread { self.answer(connection, length: length, interval: interval) }
            }
        }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/channels/stable/head.json")! }

    private func answer(_ connection: Int32, length: Int, interval: TimeInterval?) {
        defer { close(connection) }
        var request = [UInt8](repeating: 0, count: 4096)
        let count = read(connection, &request, request.count)
        stopped.withLock { received.append(String(decoding: request.prefix(max(0, count)), as: UTF8.self)) }
        let headers = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
        guard send(connection, headers, headers.utf8.count, Self.noSignal) > 0 else { return }
        var sent = 0
        let closed = { [self] in stopped.withLock { closings.append(sent) } }
        for _ in 0..<length {
            guard let interval else { break }
            Thread.sleep(forTimeInterval: interval)
            if stopped.withLock({ isStopped }) { return }
            if send(connection, "x", 1, Self.noSignal) <= 0 { return closed() }
            sent += 1
        }
        // Silent until the client goes or the host stops.
        while !stopped.withLock({ isStopped }) {
            var byte: UInt8 = 0
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 && read(connection, &byte, 1) <= 0 { return closed() }
        }
    }

    /// No SIGPIPE when the client has gone: the send fails instead.
    #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    func stop() {
        stopped.withLock { isStopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
