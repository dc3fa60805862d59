import FlyingFox

/// Why a body is not spooled: answered before any of it is read.
package struct SpoolRefusal: Error, Sendable {
    package let status: HTTPStatusCode
    package let message: String

    package init(_ status: HTTPStatusCode, _ message: String) {
        self.status = status
        self.message = message
    }
}
