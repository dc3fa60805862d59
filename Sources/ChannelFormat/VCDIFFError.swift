import CatalogModel
/// Why a delta did not apply.
package enum VCDIFFError: CausedError, Equatable, CustomStringConvertible {
    case notVCDIFF
    case truncated
    case malformed(String)
    case unsupported(String)
    case badAddress
    case tooLarge(limit: Int)
    case checksum
    /// A file that cannot be opened, read or written: the system's error (`cause`) when it said one.
    case io(String, cause: ErrorCause? = nil)

    package var description: String {
        switch self {
        case .notVCDIFF: "the delta is not VCDIFF"
        case .truncated: "the delta ends too soon"
        case .malformed(let what): "the delta is malformed: \(what)"
        case .unsupported(let what): "the delta uses \(what)"
        case .badAddress: "the delta copies from outside what it may copy from"
        case .tooLarge(let limit): "the delta makes more than \(limit) bytes"
        case .checksum: "a window of the delta's result fails its Adler-32 check"
        case .io(let reason, let cause): "the delta cannot be applied: \(reason)" + (cause.map { " (\($0))" } ?? "")
        }
    }

    package var cause: ErrorCause? {
        if case .io(_, let cause) = self { return cause }
        return nil
    }

    /// `vcdiff:checksum`, `vcdiff:truncated`, …: what is wrong with the delta.
    package var errorCode: String {
        switch self {
        case .notVCDIFF: "vcdiff:notVCDIFF"
        case .truncated: "vcdiff:truncated"
        case .malformed: "vcdiff:malformed"
        case .unsupported: "vcdiff:unsupported"
        case .badAddress: "vcdiff:badAddress"
        case .tooLarge: "vcdiff:tooLarge"
        case .checksum: "vcdiff:checksum"
        case .io: "vcdiff:io"
        }
    }
}
