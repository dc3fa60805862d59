import FlyingSocks
import Foundation

/// A response body that is never finished in advance: the bytes of a stream of chunks, each
/// sent as soon as it comes (FlyingFox writes a chunked body one buffer at a time). The preview's
/// Server-Sent Events go out through it.
struct EventBytes: AsyncBufferedSequence {
    typealias Element = UInt8

    let chunks: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator())
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var chunks: AsyncStream<Data>.Iterator
        var pending = Data()

        mutating func next() async -> UInt8? {
            await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async -> Data? {
            while pending.isEmpty {
                guard let chunk = await chunks.next() else { return nil }
                pending = chunk
            }
            let buffer = pending.prefix(Swift.max(1, count))
            pending = Data(pending.dropFirst(buffer.count))
            return Data(buffer)
        }
    }
}
