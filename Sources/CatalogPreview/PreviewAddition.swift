import FlyingFox

/// Requests a server built on the preview answers itself, before the preview does (`digno
/// studio`'s pages, checks and saves), on the preview's listener: with its caps on request
/// lines, header fields and time, and its Host check made first.
package protocol PreviewAddition: Sendable {
    /// The longest body a request may carry, by its method and raw path; longer is refused
    /// (413) before any of it is read.
    func bodyLimit(_ method: HTTPMethod, _ path: String) -> Int
    /// The answer to `request`, whose Host is this server, with its `body`; nil for the
    /// preview to answer. `port`: the one the server listens on.
    func respond(to request: HTTPRequest, body: [UInt8], port: UInt16) async -> HTTPResponse?
}
