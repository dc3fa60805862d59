import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to 127.0.0.1, with a 60 s limit on each read: a hang guard, long
/// because the server in this process answers on Swift's cooperative threads, which the other
/// suites' synchronous work can hold for many seconds. Its reads and writes block a thread of
/// Dispatch's, never a cooperative one.
package final class RawConnection: Sendable {
    package let descriptor: Int32

    package init(port: UInt16) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var noSignal: Int32 = 1
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = noSignal
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes`, or as many as the server takes before it closes.
    package func send(_ bytes: [UInt8]) async {
        await Self.offTheCooperativePool { self.sendBlocking(bytes) }
    }

    /// Everything until the server closes (or 60 s pass with nothing).
    package func readAll() async -> [UInt8] {
        await Self.offTheCooperativePool { self.readAllBlocking() }
    }

    private static func offTheCooperativePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    private func sendBlocking(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Glibc)
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let count = bytes[sent...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
            guard count > 0 else { return }
            sent += count
        }
    }

    private func readAllBlocking() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return all }
            all += buffer[..<count]
        }
    }
}
