import Foundation

/// The memory the build's picture decodes share: a decode starts when its bytes fit beside those
/// running (or when none is running), so that a build stays under 500 MB in all whatever its
/// pictures: two 12-megapixel photos at once, a 48-megapixel HEIC alone. A picture whose decode
/// alone passes `PictureLimits.decodeBytes` is refused by validation before any decode (`image-dimensions`).
final class DecodeBudget: @unchecked Sendable {
    let limit: Int
    private let condition = NSCondition()
    private var inUse = 0
    private var running = 0
    /// The most bytes held at once so far, for the tests.
    private(set) var peak = 0

    init(limit: Int = PictureLimits.decodeBytes) { self.limit = limit }

    /// Waits until `bytes` fit, then holds them until `release(_:)`.
    func acquire(_ bytes: Int) {
        condition.lock()
        while running > 0 && inUse + bytes > limit { condition.wait() }
        inUse += bytes
        running += 1
        peak = max(peak, inUse)
        condition.unlock()
    }

    func release(_ bytes: Int) {
        condition.lock()
        inUse -= bytes
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
