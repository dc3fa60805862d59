/// Why a delta did not apply.
package enum VCDIFFError: Error, Equatable, CustomStringConvertible {
    case notVCDIFF
    case truncated
    case malformed(String)
    case unsupported(String)
    case badAddress
    case tooLarge(limit: Int)
    case checksum
    case io(String)

    package var description: String {
        switch self {
        case .notVCDIFF: "the delta is not VCDIFF"
        case .truncated: "the delta ends too soon"
        case .malformed(let what): "the delta is malformed: \(what)"
        case .unsupported(let what): "the delta uses \(what)"
        case .badAddress: "the delta copies from outside what it may copy from"
        case .tooLarge(let limit): "the delta makes more than \(limit) bytes"
        case .checksum: "a window of the delta's result fails its Adler-32 check"
        case .io(let reason): "the delta cannot be applied: \(reason)"
        }
    }
}
