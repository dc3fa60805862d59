#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings kept in one buffer, each as a range of it, for sorting many of them by their
/// bytes with `memcmp`: one allocation rather than one per key, and no reference counting in
/// the comparisons, which cost more than the comparing when 100,000 Swift strings were sorted.
struct ByteKeys {
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>] = []

    init(capacity: Int, averageLength: Int) {
        bytes.reserveCapacity(capacity * averageLength)
        ranges.reserveCapacity(capacity)
    }

    var count: Int { ranges.count }

    /// Adds a key; its index is the number of keys before it.
    mutating func append(_ key: some Collection<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: key)
        ranges.append(start..<bytes.count)
    }

    /// The keys' indices in the order of their bytes (a key before any longer key it begins);
    /// `tie` orders equal keys.
    func sortedIndices(tie: (Int, Int) -> Bool = { _, _ in false }) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress
            return ranges.indices.sorted { a, b in
                let left = ranges[a], right = ranges[b]
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(base! + left.lowerBound, base! + right.lowerBound, common)
                if order != 0 { return order < 0 }
                if left.count != right.count { return left.count < right.count }
                return tie(a, b)
            }
        }
    }
}
