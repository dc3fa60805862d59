/// A request's body written into a file as it arrived rather than held in memory
/// (`PreviewListener.Limits.spool`: a photo uploaded to `digno studio`), in the folder the server
/// chose. The file is removed once the request is answered, unless its handler took it
/// (renamed it away).
package struct SpooledBody: Sendable, Equatable {
    /// The file, in the folder `spool` gave.
    package let path: String
    /// Its bytes: the request's `Content-Length`, all arrived.
    package let length: Int

    /// The body of the request being answered, when it was spooled: set by the listener around
    /// its handler, so that nothing a client sends can name a file.
    @TaskLocal package static var current: SpooledBody?
}
