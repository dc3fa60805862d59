import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Language Server Protocol's base protocol over a pair of file descriptors (the server's
/// standard input and output): each message is `Content-Length: N\r\n\r\n` and N bytes of JSON.
/// Written by hand, as the whole of this target: no LSP package is in the mirror this package
/// builds from, and the base protocol is a header and a length.
///
/// The client is not trusted with memory: a header line is at most 1 KiB, a header at most 16
/// lines, and a message at most `maximumLength` bytes; anything else ends the stream with a
/// `Failure` (the client is broken or hostile, and the server exits).
public final class MessageStream: @unchecked Sendable {
    /// Why reading stopped.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The client closed its end.
        case closed
        /// A header the base protocol does not allow.
        case badHeader(String)
        /// A message longer than the limit.
        case tooLong(Int)
        case readFailed(Int32)

        public var description: String {
            switch self {
            case .closed: "the client closed the connection"
            case .badHeader(let why): "a malformed message header: \(why)"
            case .tooLong(let length): "a message of \(length) bytes, over the limit"
            case .readFailed(let code): "reading failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The longest message read: a content file is at most 4 MiB, which JSON's escapes can
    /// make at most six times longer.
    public static let maximumLength = 32 * 1024 * 1024

    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private let writeLock = NSLock()

    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// The next message's JSON bytes; blocks until one has come.
    public func read() throws(Failure) -> Data {
        var length: Int?
        var lines = 0
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            lines += 1
            guard lines <= 16 else { throw .badHeader("more than 16 header lines") }
            guard let colon = line.firstIndex(of: ":") else { throw .badHeader("a line with no colon") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else { throw .badHeader("Content-Length '\(value)'") }
                guard number <= Self.maximumLength else { throw .tooLong(number) }
                length = number
            }
        }
        guard let length else { throw .badHeader("no Content-Length") }
        return try readBytes(length)
    }

    /// Writes one message.
    public func write(_ json: Data) {
        var message = Data("Content-Length: \(json.count)\r\n\r\n".utf8)
        message.append(json)
        writeLock.lock()
        defer { writeLock.unlock() }
        message.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count, let base = bytes.baseAddress {
                let count = posixWrite(output, base + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }

    private func readLine() throws(Failure) -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            guard buffer.count - start <= 1024 else { throw .badHeader("a header line over 1 KiB") }
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws(Failure) -> Data {
        while buffer.count - start < count { try fill() }
        let data = Data(buffer[start..<(start + count)])
        start += count
        return data
    }

    /// Reads what the client has sent, up to 64 KiB at a time.
    private func fill() throws(Failure) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .readFailed(errno) }
            if count == 0 { throw .closed }
            buffer += chunk[0..<count]
            return
        }
    }
}

/// The system's `read` and `write`, which the stream's own methods hide by name.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
