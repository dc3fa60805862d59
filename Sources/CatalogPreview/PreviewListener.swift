import FlyingFox
import FlyingSocks
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview's HTTP/1.1 server: listens on one address, reads each request's line and header fields under
/// `IncomingRequest`'s caps, answers it through a handler, and keeps connections alive between
/// requests. Every read and write has a deadline and every connection ends when its client
/// goes, so no request costs more than time in proportion to its (capped) length and none keeps
/// working after its client has left.
///
/// Written by hand on FlyingSocks, FlyingFox's socket layer, for the reasons `IncomingRequest`
/// gives; the handler and the request and response types are still FlyingFox's.
final class PreviewListener: @unchecked Sendable {
    // @unchecked Sendable: `connections`, `nextConnection` and `serving` are used under `lock`
    // only; the rest is immutable.

    struct Limits: Sendable {
        /// How long a request may take to arrive once its connection waits for it (which is
        /// also how long a kept-alive connection stays open with nothing asked), and how long
        /// each write of an answer may wait for the client to read.
        var requestTime: Duration = .seconds(15)
        /// The most connections served at once; one more is answered 503 and closed.
        var connections = 128
        /// The longest body a request may carry, by its method and path (the raw path, before
        /// any decoding); longer is answered 413 before any of it is read.
        var body: @Sendable (HTTPMethod, String) -> Int = { _, _ in IncomingRequest.bodyLimit }
        /// The folder a request's body is written into as it arrives, by its method, raw path
        /// and header fields, rather than held in memory (a photo uploaded: `SpooledBody`); nil
        /// for memory; a refusal answers before any of the body is read. Such a body is given
        /// four times `requestTime` to arrive.
        var spool: @Sendable (HTTPMethod, String, HTTPHeaders) -> Result<String, SpoolRefusal>? = { _, _, _ in nil }
    }

    let limits: Limits
    private let socket: Socket
    private let pool: any AsyncSocketPool = NoDelaySocketPool()
    private let lock = NSLock()
    private var connections: [Int: Task<Void, Never>] = [:]
    private var nextConnection = 0
    private var serving: Task<Void, Never>?
    private var isStopped = false

    /// Binds `address` and listens on it.
    init(address: some SocketAddress, limits: Limits) throws {
        self.limits = limits
        socket = try Socket(domain: Int32(type(of: address).family))
        do {
            try socket.setValue(true, for: .localAddressReuse)
            #if canImport(Darwin)
            try socket.setValue(true, for: .noSIGPIPE)
            #endif
            try socket.bind(to: address)
            try socket.listen()
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// The port listened on (the system chooses one for port 0).
    var port: UInt16? {
        switch try? socket.sockname() {
        case .ip4(_, let port), .ip6(_, let port): port
        default: nil
        }
    }

    /// Starts answering connections through `handler`, until `stop`.
    func start(_ handler: some HTTPHandler) {
        lock.withLock {
            guard !isStopped, serving == nil else { return }
            // On the listener's own threads (`ListenerExecutor`), as is every task it starts.
            serving = Task(executorPreference: ListenerExecutor.shared) { [self] in await serve(handler) }
        }
    }

    /// Stops listening and ends every connection, an open event stream's included.
    func stop() async {
        let (task, open) = lock.withLock {
            isStopped = true
            return (serving, Array(connections.values))
        }
        try? socket.close()
        task?.cancel()
        for connection in open { connection.cancel() }
        await task?.value
        for connection in open { await connection.value }
    }

    // MARK: Connections

    private func serve(_ handler: some HTTPHandler) async {
        do {
            try await pool.prepare()
            let listening = try AsyncSocket(socket: socket, pool: pool)
            await withTaskGroup(of: Void.self) { group in
                let pool = pool
                group.addTask { try? await pool.run() }
                group.addTask { [self] in
                    while !Task.isCancelled {
                        do {
                            admit(try await listening.accept(), handler)
                        } catch {
                            if Task.isCancelled || lock.withLock({ isStopped }) { return }
                            // A client that left before it was taken (ECONNABORTED), or no file
                            // descriptor free for now (EMFILE): the next one may do.
                            try? await Task.sleep(for: .milliseconds(10))
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        } catch {
            // The pool did not start: nothing is served, and `stop` still ends cleanly.
        }
    }

    /// Serves `client` in a task of its own, or refuses it when `limits.connections` are open.
    private func admit(_ client: AsyncSocket, _ handler: some HTTPHandler) {
        lock.withLock {
            guard !isStopped, connections.count < limits.connections else {
                let busy = PreviewResponder.refusal(.serviceUnavailable, "this preview has \(limits.connections) connections open; try again")
                Task(executorPreference: ListenerExecutor.shared) { [self] in
                    if await write(busy, closing: true, to: client) { await closeGently(client) }
                    try? client.close()
                }
                return
            }
            let id = nextConnection
            nextConnection += 1
            connections[id] = Task(executorPreference: ListenerExecutor.shared) { [self] in
                await converse(with: client, handler)
                try? client.close()
                _ = lock.withLock { connections.removeValue(forKey: id) }
            }
        }
    }

    /// Answers `client`'s requests one after another until it closes, asks to close, sends a
    /// request that is refused, or is silent for `limits.requestTime`.
    private func converse(with client: AsyncSocket, _ handler: some HTTPHandler) async {
        var reader = IncomingRequest.Reader(bodyLimit: limits.body)
        while !Task.isCancelled {
            let deadline = ContinuousClock.now + limits.requestTime
            let incoming: IncomingRequest
            var body: [UInt8] = []
            var spooled: SpooledBody?
            do throws(IncomingRequest.Refusal) {
                guard let next = try await readRequest(from: client, into: &reader, before: deadline) else { return }
                incoming = next
                if next.bodyLength > 0, let spooling = limits.spool(next.method, next.target.path(percentEncoded: true), next.headers) {
                    let folder: String
                    switch spooling {
                    case .failure(let refusal): throw IncomingRequest.Refusal(refusal.status, refusal.message)
                    case .success(let given): folder = given
                    }
                    let spoolDeadline = deadline + limits.requestTime * 3
                    guard let file = await spoolBody(next.bodyLength, from: client, in: &reader, into: folder, before: spoolDeadline) else {
                        _ = await write(PreviewResponder.refusal(.requestTimeout, "the body did not arrive whole in time, or could not be kept"), closing: true, to: client)
                        return
                    }
                    spooled = file
                } else {
                    guard let read = await readBody(next.bodyLength, from: client, in: &reader, before: deadline) else { return }
                    body = read
                }
            } catch {
                if await write(PreviewResponder.refusal(error.status, error.message), closing: true, to: client) {
                    await closeGently(client)
                }
                return
            }
            let request = HTTPRequest(method: incoming.method, version: incoming.version, target: incoming.target, headers: incoming.headers,
                                      body: body.isEmpty ? HTTPBodySequence() : HTTPBodySequence(data: Data(body)))
            let response: HTTPResponse
            do {
                response = try await SpooledBody.$current.withValue(spooled) { try await handler.handleRequest(request) }
            } catch {
                response = PreviewResponder.refusal(.internalServerError, "\(error)")
            }
            // Whatever the handler did not take.
            if let spooled { unlink(spooled.path) }
            guard await write(response, closing: incoming.closes, to: client), !incoming.closes else { return }
        }
    }

    /// The next request from `client`, or nil when it closed or `deadline` passed first.
    private func readRequest(from client: AsyncSocket, into reader: inout IncomingRequest.Reader,
                          before deadline: ContinuousClock.Instant) async throws(IncomingRequest.Refusal) -> IncomingRequest? {
        if let next = try reader.next() { return next }
        while let bytes = await Self.within(deadline, { try await client.read(atMost: 4096) }) {
            if let next = try reader.append(bytes) { return next }
        }
        return nil
    }

    /// Reads a body of `length` bytes (at most `Limits.body`, which the request's header was
    /// checked against); nil when the client closed or `deadline` passed first: a body that
    /// trickles in is given no longer than its request line and header.
    private func readBody(_ length: Int, from client: AsyncSocket, in reader: inout IncomingRequest.Reader,
                          before deadline: ContinuousClock.Instant) async -> [UInt8]? {
        var body: [UInt8] = []
        body.reserveCapacity(length)
        let buffered = min(length, reader.buffer.count)
        body.append(contentsOf: reader.buffer.prefix(buffered))
        reader.drop(buffered)
        while body.count < length {
            guard let bytes = await Self.within(deadline, { [left = length - body.count] in try await client.read(atMost: min(left, 65_536)) }),
                  !bytes.isEmpty else { return nil }
            body.append(contentsOf: bytes)
        }
        return body
    }

    /// Writes a body of `length` bytes into a new file in `folder` as it arrives, 64 KiB at a
    /// time; nil (and no file) when the client closed, `deadline` passed first, or the file
    /// could not be written.
    private func spoolBody(_ length: Int, from client: AsyncSocket, in reader: inout IncomingRequest.Reader, into folder: String,
                           before deadline: ContinuousClock.Instant) async -> SpooledBody? {
        var template = Array((folder + "/body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        func append(_ bytes: some Collection<UInt8>) -> Bool {
            let chunk = Array(bytes)
            var offset = 0
            while offset < chunk.count {
                let count = chunk[offset...].withUnsafeBytes { writeToFile(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            written += chunk.count
            return true
        }
        let buffered = min(length, reader.buffer.count)
        var sound = append(reader.buffer.prefix(buffered))
        reader.drop(buffered)
        while sound, written < length {
            guard let bytes = await Self.within(deadline, { [left = length - written] in try await client.read(atMost: min(left, 65_536)) }),
                  !bytes.isEmpty else { sound = false; break }
            sound = append(bytes)
        }
        close(descriptor)
        guard sound else {
            unlink(path)
            return nil
        }
        return SpooledBody(path: path, length: length)
    }

    /// After a refusal, before closing: says no more (FIN), then reads and throws away what the
    /// client still sends, until it has been silent for a second, for 5 s and 1 MiB at most.
    /// Closing with bytes unread would make the system answer with a reset, which can destroy
    /// the refusal before the client reads it.
    private func closeGently(_ client: AsyncSocket) async {
        _ = shutdown(client.socket.file.rawValue, Int32(SHUT_WR))
        let end = ContinuousClock.now + .seconds(5)
        var drained = 0
        while drained < 1 << 20, ContinuousClock.now < end,
              let bytes = await Self.within(min(.now + .seconds(1), end), { try await client.read(atMost: 4096) }) {
            drained += bytes.count
        }
    }

    /// How many connections are being served (for the tests: none once their clients left).
    var openConnections: Int {
        lock.withLock { connections.count }
    }

    // MARK: Answers

    /// Writes `response`: its status line and header fields, then its body, whole when its length is known and in
    /// chunks as they come (the event stream) when not. False when the client went or did not
    /// read within `limits.requestTime`.
    private func write(_ response: HTTPResponse, closing: Bool, to client: AsyncSocket) async -> Bool {
        guard case .httpBody(let body) = response.payload else {
            return await write(PreviewResponder.refusal(.internalServerError, "this preview has no WebSocket"), closing: true, to: client)
        }
        var header = "HTTP/1.1 \(response.statusCode.code) \(response.statusCode.phrase)\r\n"
        let framing: Set<HTTPHeader> = [.contentLength, .transferEncoding, .connection]
        for (name, value) in response.headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where !framing.contains(name) {
            header += "\(name.rawValue): \(value)\r\n"
        }
        // No length for an answer that has no body by definition (RFC 9110, 8.6).
        let bodiless = response.statusCode.code == 204 || response.statusCode.code == 304
        if !bodiless {
            header += body.count.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
        }
        if closing { header += "Connection: close\r\n" }
        header += "\r\n"
        var bytes = Data(header.utf8)
        if bodiless { return await send(bytes, to: client) }
        do {
            if body.count != nil {
                // One write for header and body: no wait for the client's acknowledgement between.
                for try await chunk in body { bytes.append(chunk) }
                return await send(bytes, to: client)
            }
            guard await send(bytes, to: client) else { return false }
            for try await chunk in body where !chunk.isEmpty {
                var framed = Data((String(chunk.count, radix: 16) + "\r\n").utf8)
                framed.append(chunk)
                framed.append(contentsOf: "\r\n".utf8)
                guard await send(framed, to: client) else { return false }
            }
            return await send(Data("0\r\n\r\n".utf8), to: client)
        } catch {
            return false
        }
    }

    private func send(_ bytes: Data, to client: AsyncSocket) async -> Bool {
        await Self.within(.now + limits.requestTime) { try await client.write(bytes) } != nil
    }

    /// What `work` returns, or nil when it throws or `deadline` passes first (`work` is then
    /// cancelled: FlyingSocks' waits end on cancellation).
    private static func within<T: Sendable>(_ deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async throws -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { try? await work() }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// `write(2)`, outside the listener, whose own `write` writes an answer.
private func writeToFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
