import CatalogModel
import CZlib
import Foundation

/// A bundle's gzip copy for transfer, as `gzip -6 -n` writes it: zlib's gzip writer, whose
/// header holds no name and no time, so that the same bundle gives the same bytes. A static
/// host serves it in place of the bundle to a client that accepts gzip (nginx's
/// `gzip_static on`), and URLSession decodes it. About a quarter of a bundle's size.
enum GzipCopy {
    /// Writes the gzip of the file at `source` to `target`; an error says what failed.
    static func write(_ source: String, to target: String) throws(ChannelPublisher.Failure) {
        guard let input = FileHandle(forReadingAtPath: source) else { throw .writing("'\(source)' cannot be read") }
        defer { try? input.close() }
        guard let output = gzopen(target, "wb6") else { throw .writing("'\(target)' cannot be written") }
        var closed = false
        defer { if !closed { gzclose(output) } }
        gzbuffer(output, 1 << 17)
        do {
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                let written = chunk.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { gzwrite(output, $0, UInt32(buffer.count)) } ?? 0
                }
                guard written == chunk.count else { throw ChannelPublisher.Failure.writing("'\(target)' cannot be written (zlib)") }
            }
        } catch let error as ChannelPublisher.Failure {
            throw error
        } catch {
            throw .writing("'\(source)' cannot be read", cause: ErrorCause(error))
        }
        closed = true
        guard gzclose(output) == Z_OK else { throw .writing("'\(target)' cannot be written (zlib)") }
    }
}
