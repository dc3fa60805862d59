import CatalogModel
import ChannelFormat
import Foundation

/// A signed file's bytes as they arrive, up to a limit; none of an answer that is not the file.
final class ByteBuffer: Sendable {
    private let state = LockedValue((bytes: Data(), keeping: true))

    var data: Data { state.withLock { $0.bytes } }

    /// Whether the body is the file, to keep.
    func keep(_ keep: Bool) {
        state.withLock { $0.keeping = keep }
    }

    /// Appends `data`, unless that would pass `limit`.
    func append(_ data: Data, limit: Int) -> Bool {
        state.withLock { state in
            guard state.keeping else { return true }
            guard state.bytes.count + data.count <= limit else { return false }
            state.bytes.append(data)
            return true
        }
    }
}
