import Crypto

/// Where the content shows a picture, which decides the sizes of its renditions.
enum PictureUse: Int, Comparable, Sendable {
    /// A list's or a tab's icon: square, 60 points.
    case icon
    /// A logo: the home's, the company's, a retailer's; at most 200 points wide.
    case logo
    /// A detail picture, the home's promotional image, a promotion's: the phone's width, 390
    /// points on the common iPhones.
    case picture

    static func < (lhs: PictureUse, rhs: PictureUse) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The use's size in points: the box its renditions fit in at a screen scale of 1.
    var points: (width: Int, height: Int) {
        switch self {
        case .icon: (60, 60)
        case .logo: (200, 200)
        case .picture: (390, 780)
        }
    }

    /// The screen scales of iPhones (1× only in the simulator, and on the site for the older
    /// screens of computers): a rung of the ladder for each.
    static let scales = [1, 2, 3]

    /// The boxes this use's renditions fit in, in pixels, largest first: its size in points at
    /// 3×, 2× and 1×. A picture may be up to twice as tall as wide.
    var boxes: [(width: Int, height: Int)] {
        Self.scales.reversed().map { scale in (points.width * scale, points.height * scale) }
    }

    /// The box the largest rendition fits in, in pixels: the use's size at a screen scale of 3
    /// (the largest iPhones have).
    var largestBox: (width: Int, height: Int) { boxes[0] }
}
