import CLibXML2

/// Collapses XML whitespace across several pieces of text, so that a run split between pieces
/// (text, then `<em>`, then text) still becomes one space. A space is held back until more
/// text follows, so the result never starts or ends with one; at the start of an inline
/// element the caller flushes it, so that it lands outside the element.
struct WhitespaceCollapser {
    private var pendingSpace = false
    private var lastWasSpace = false
    private(set) var hasText = false

    /// Writes `bytes`, collapsed, into `output` from index `written`, advancing `written`.
    /// `output` needs room for `bytes.count` more bytes, or one more when a space is held
    /// back from earlier pieces. Runs of text are copied whole.
    mutating func collapse(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, written: inout Int) {
        guard let base = bytes.baseAddress, let target = output.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            if Self.isSpace(base[index]) {
                pendingSpace = hasText && !lastWasSpace
                index += 1
                continue
            }
            if pendingSpace {
                target[written] = 0x20
                written += 1
            }
            pendingSpace = false
            lastWasSpace = false
            hasText = true
            var end = index + 1
            while end < bytes.count, !Self.isSpace(base[end]) { end += 1 }
            (target + written).update(from: base + index, count: end - index)
            written += end - index
            index = end
        }
    }

    /// XML whitespace: space, tab, line feed, carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether a held-back space is due here; if so it counts as written.
    mutating func flushPendingSpace() -> Bool {
        guard pendingSpace else { return false }
        pendingSpace = false
        lastWasSpace = true
        return true
    }

    /// A new block: nothing before it counts.
    mutating func reset() {
        pendingSpace = false
        lastWasSpace = false
        hasText = false
    }
}
