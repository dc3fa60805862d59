import FlyingFox
import FlyingSocks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FlyingFox's own socket pool, with Nagle's algorithm turned off (`TCP_NODELAY`) on every
/// socket it waits on: the listening socket (whose setting Linux passes on to each accepted
/// connection) and each connection.
///
/// With Nagle's algorithm on, a small write waits for the client to acknowledge the one before,
/// and a client on a kept-alive connection delays that acknowledgement by up to 40 ms: when
/// FlyingFox wrote a page's header and body in two writes, every page took over 40 ms at the
/// 99th percentile. `PreviewListener` writes a page in one write, but the event stream's
/// chunks still come one by one. FlyingSocks has no setting for it, so this wrapper sets it (by
/// hand: one `setsockopt` per wait, ignored where it does not apply).
struct NoDelaySocketPool: AsyncSocketPool {
    let base: any AsyncSocketPool = HTTPServer.defaultPool()

    func prepare() async throws {
        try await base.prepare()
    }

    func run() async throws {
        try await base.run()
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        var on: Int32 = 1
        _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
