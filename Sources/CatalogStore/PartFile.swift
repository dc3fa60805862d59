import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A download in the staging folder: appends the body's pieces as they arrive, from where an
/// earlier, interrupted download stopped, and stops the transfer at the size the head declares.
/// Used from URLSession's serial delegate queue, one call at a time.
final class PartFile: @unchecked Sendable {
    private let path: String
    private let limit: Int
    private var descriptor: Int32
    /// Where the next byte goes.
    private var offset: Int
    /// Whether the host refused to resume from `offset` (416, or another range).
    private(set) var rangeRefused = false

    /// Opens (or creates) the part file at `path`, to append from `offset`, its length.
    init(_ path: String, offset: Int, limit: Int) throws(BundleStoreError) {
        // Never through a link: the part is the store's own file.
        descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreFiles.failure(.open, path) }
        self.path = path
        self.offset = offset
        self.limit = limit
    }

    /// Checks the response: 200 for the whole file (an earlier part is then dropped, since the
    /// host sent all of it), 206 from exactly `offset` for the rest of it.
    func begin(_ response: ChannelResponse, url: URL) throws(BundleStoreError) {
        switch response.status {
        case 200:
            offset = 0
        case 206 where offset > 0:
            // `Content-Range: bytes 1000-4999/5000`.
            guard let range = response.headers["content-range"], range.hasPrefix("bytes \(offset)-") else {
                rangeRefused = true
                throw .transfer(TransferFailure(url: url.absoluteString, cause: .answer,
                    message: "\(url.absoluteString) answered a resumed download from another place (\(response.headers["content-range"] ?? "no Content-Range"))"))
            }
        case 416 where offset > 0:
            rangeRefused = true
            throw .transfer(TransferFailure(url: url.absoluteString, cause: .status(416),
                                            message: "\(url.absoluteString) would not resume the download from byte \(offset) (HTTP 416)"))
        default:
            throw .transfer(.status(response.status, url: url))
        }
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw StoreFiles.failure(.write, path) }
    }

    /// Appends `data`, unless it would pass the declared size: then the transfer stops.
    func write(_ data: Data) throws(BundleStoreError) {
        guard data.count <= limit - offset else { throw .refused(.bundleTooLong(declared: limit)) }
        var done = 0
        while done < data.count {
            let count = data.withUnsafeBytes { buffer in
                buffer.baseAddress.map { pwrite(descriptor, $0 + done, buffer.count - done, off_t(offset + done)) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw StoreFiles.failure(.write, path) }
            done += count
        }
        offset += done
    }

    /// Closes the file; what was written stays for a resumed download.
    func finish() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit {
        finish()
    }
}
