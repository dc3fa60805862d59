import FlyingFox

/// Requests a server built on the preview answers itself, before the preview does (`digno
/// studio`'s pages, checks and saves), on the preview's listener: with its caps on request
/// lines, header fields and time, and its Host check made first.
package protocol PreviewAddition: Sendable {
    /// The longest body a request may carry, by its method and raw path; longer is refused
    /// (413) before any of it is read.
    func bodyLimit(_ method: HTTPMethod, _ path: String) -> Int
    /// The folder a request's body is written into as it arrives (`SpooledBody.current` then
    /// names its file), by its method, raw path and header fields; nil to hold it in memory; a
    /// refusal to answer before any of it is read.
    func spoolFolder(_ method: HTTPMethod, _ path: String, _ headers: HTTPHeaders) -> Result<String, SpoolRefusal>?
    /// The answer to `request`, whose Host is this server, with its `body`; nil for the
    /// preview to answer. `port`: the one the server listens on.
    func respond(to request: HTTPRequest, body: [UInt8], port: UInt16) async -> HTTPResponse?
}

extension PreviewAddition {
    package func spoolFolder(_ method: HTTPMethod, _ path: String, _ headers: HTTPHeaders) -> Result<String, SpoolRefusal>? { nil }
}
