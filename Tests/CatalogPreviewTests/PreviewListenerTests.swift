@testable import CatalogPreview
import FlyingFox
import TestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview as a hostile page or program meets it: raw connections to a real server, with
/// request lines, header fields and bodies over their caps, forged Host fields, silent and trickling
/// clients, and clients that leave half-way (docs/SECURITY.md, "The preview server").
// No test waits on the clock: a wait lasts until what it waits for happens, and the suite's
// time limit ends a hang (a busy machine can delay a connection's accept by many seconds).
@Suite(.serialized, .timeLimit(.minutes(10))) struct PreviewListenerTests {
    /// A started server over the shipped content, with a short request time so that silent
    /// clients are seen off quickly.
    static func withServer(connections: Int = 128, requestTime: Duration = .seconds(1), _ body: (PreviewServer, UInt16) async throws -> Void) async throws {
        var options = PreviewServerTests.options(PreviewServerTests.repository.appendingPathComponent("content"))
        options.limits = PreviewListener.Limits(requestTime: requestTime, connections: connections)
        let server = try PreviewServer(options: options)
        let address = try await server.start()
        let port = try #require(UInt16(address.split(separator: ":").last!.dropLast()))
        do {
            try await body(server, port)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The status code of the answer to `bytes`, sent on a connection of their own; 0 when the
    /// connection closed with no answer.
    static func status(of bytes: [UInt8], port: UInt16) async throws -> Int {
        let connection = try RawConnection(port: port)
        await connection.send(bytes)
        return Self.statusCode(await connection.readAll())
    }

    static func statusCode(_ answer: [UInt8]) -> Int {
        let line = answer.prefix { $0 != UInt8(ascii: "\r") }
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }

    static func request(_ target: String = "/favicon.ico", port: UInt16, fields: String = "") -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(fields)\r\n".utf8)
    }

    /// Waits until the server serves no connection (for ever: the suite's time limit is the
    /// guard against a hang); true then.
    static func allConnectionsEnd(_ server: PreviewServer) async throws -> Bool {
        while server.openConnections > 0 { try await Task.sleep(for: .milliseconds(20)) }
        return true
    }

    @Test func requestLinesHeadsAndBodiesOverTheirCapsAreAnsweredWith414_431And413() async throws {
        try await Self.withServer { (_, port) async throws in
            let host = "Host: 127.0.0.1:\(port)\r\n"
            // A 100 KB request line, as an <img src> on any page can send.
            #expect(try await Self.status(of: Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\n\(host)\r\n".utf8), port: port) == 414)
            // A target over 2,048 bytes in a line under the cap.
            #expect(try await Self.status(of: Self.request("/" + String(repeating: "a", count: 3000), port: port), port: port) == 414)
            // A 1 MB header field, and 200 fields of 10 bytes.
            #expect(try await Self.status(of: Self.request(port: port, fields: "X-Long: \(String(repeating: "a", count: 1_000_000))\r\n"), port: port) == 431)
            #expect(try await Self.status(of: Self.request(port: port, fields: String(repeating: "X-Short: 1\r\n", count: 200)), port: port) == 431)
            // A GET with a 200 KB body, and one sent in chunks.
            #expect(try await Self.status(of: Self.request(port: port, fields: "Content-Length: 200000\r\n") + [UInt8](repeating: 97, count: 200_000), port: port) == 413)
            #expect(try await Self.status(of: Self.request(port: port, fields: "Transfer-Encoding: chunked\r\n") + Array("5\r\nhello\r\n0\r\n\r\n".utf8), port: port) == 411)
            // A small body is read and thrown away; the answer is the GET's.
            #expect(try await Self.status(of: Self.request(port: port, fields: "Content-Length: 5\r\nConnection: close\r\n") + Array("hello".utf8), port: port) == 204)
        }
    }

    @Test func aHostWithANulOrTwoHostsIsRefused() async throws {
        try await Self.withServer { (_, port) async throws in
            // 127.0.0.1 to a C string, evil.com to the browser.
            #expect(try await Self.status(of: Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\0.evil.com\r\n\r\n".utf8), port: port) == 400)
            for hosts in [["evil.com", "127.0.0.1:\(port)"], ["127.0.0.1:\(port)", "evil.com"], ["127.0.0.1:\(port)", "127.0.0.1:\(port)"], []] {
                let fields = hosts.map { "Host: \($0)\r\n" }.joined()
                #expect(try await Self.status(of: Array("GET / HTTP/1.1\r\n\(fields)\r\n".utf8), port: port) == 400, "\(hosts)")
            }
            // Names are compared without case: `host` is a second Host.
            #expect(try await Self.status(of: Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nhost: evil.com\r\n\r\n".utf8), port: port) == 400)
            // Other control characters, a folded line, a space before the colon.
            for fields in ["X-Note: a\u{1}b\r\n", "X-Note: a\r\n b\r\n", "X-Note : a\r\n", "X-Note: a\rb\r\n"] {
                #expect(try await Self.status(of: Self.request(port: port, fields: fields), port: port) == 400, "\(fields.debugDescription)")
            }
            #expect(try await Self.status(of: Array("GET / HTTP/2.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8), port: port) == 400)
        }
    }

    @Test func clientsThatLeaveHalfWayLeaveNoWorkBehind() async throws {
        try await Self.withServer { (server, port) async throws in
            // Ten clients at once, each sending 1 MB of one request line or one header and leaving
            // before any answer: what kept FlyingFox's cores busy for minutes.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let connection = try RawConnection(port: port)
                        let bytes = index.isMultiple(of: 2) ? Array("GET /".utf8) + [UInt8](repeating: 97, count: 1_000_000)
                            : Self.request(port: port).dropLast(2) + Array("X-Long: ".utf8) + [UInt8](repeating: 97, count: 1_000_000)
                        await connection.send(bytes)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await Self.allConnectionsEnd(server))
            // A page is answered as before.
            #expect(try await Self.status(of: Self.request("/products", port: port, fields: "Connection: close\r\n"), port: port) == 200)
        }
    }

    @Test func silentAndTricklingClientsAreClosedAfterTheRequestTime() async throws {
        try await Self.withServer { (server, port) async throws in
            let silent = try RawConnection(port: port)
            let halfHead = try RawConnection(port: port)
            await halfHead.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1".utf8))
            // One byte every 100 ms, for ever: each read is quick, the request never ends.
            let trickling = try RawConnection(port: port)
            let trickle = Task {
                for byte in Self.request(port: port, fields: String(repeating: "X-Slow: 1\r\n", count: 50)) {
                    if Task.isCancelled { break }
                    await trickling.send([byte])
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            defer { trickle.cancel() }
            // Closed with no answer (the request time is 1 s here, 15 s in use).
            #expect(await silent.readAll().isEmpty)
            #expect(await halfHead.readAll().isEmpty)
            #expect(await trickling.readAll().isEmpty)
            trickle.cancel()
            #expect(try await Self.allConnectionsEnd(server))
        }
    }

    @Test func aConnectionIsKeptAliveAndPipelinedRequestsAreAnsweredInOrder() async throws {
        try await Self.withServer { (_, port) async throws in
            let connection = try RawConnection(port: port)
            await connection.send(Self.request(port: port) + Self.request("/products", port: port) + Self.request("/style.css", port: port, fields: "Connection: close\r\n"))
            let answers = String(decoding: await connection.readAll(), as: UTF8.self)
            // A page's body ends in a line end of its own, so an answer may start mid-line.
            let statuses = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["204", "200", "200"])
            #expect(answers.hasSuffix("}\n"), "the style sheet comes last, whole")
        }
    }

    @Test func connectionsOverTheLimitAreAnswered503() async throws {
        // The two stay open for the whole test (each waits 60 s for the rest of its request), and
        // the third comes only once the server holds both: on a busy machine the accepts can lag
        // by seconds, more than the 1 s the other tests give a request.
        try await Self.withServer(connections: 2, requestTime: .seconds(60)) { (server, port) async throws in
            let first = try RawConnection(port: port), second = try RawConnection(port: port)
            await first.send(Array("G".utf8))
            await second.send(Array("G".utf8))
            while server.openConnections < 2 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try await Self.status(of: Self.request(port: port), port: port) == 503)
            _ = (first, second)
        }
    }

    @Test func requestsAreReadWhicheverWayTheyArrive() throws {
        let bytes = Array("\r\nGET /products?page=2 HTTP/1.1\nHost: localhost:8400\r\nConnection: keep-alive, close\r\nX-Empty:\r\n\r\nGET / HTTP/1.0\r\nHost: localhost:8400\r\n\r\n".utf8)
        // Byte by byte and whole give the same requests, and the second request stays for later.
        for step in [1, 7, bytes.count] {
            var reader = IncomingRequest.Reader()
            var requests: [IncomingRequest] = []
            for start in stride(from: 0, to: bytes.count, by: step) {
                if let next = try reader.append(bytes[start..<min(start + step, bytes.count)]) { requests.append(next) }
            }
            while let next = try reader.next() { requests.append(next) }
            #expect(requests.map(\.target.rawValue) == ["/products?page=2", "/"], "step \(step)")
            #expect(requests.map(\.closes) == [true, true], "Connection: close, and HTTP/1.0")
            #expect(requests.first?.headers[.host] == "localhost:8400")
            #expect(requests.first?.headers[HTTPHeader("X-Empty")] == "")
        }
    }
}
