import CPictureCodec

/// libvips, through `CPictureCodec`: a picture's header, and its renditions. libvips decodes,
/// turns by the orientation, converts colour, resizes and encodes; nothing here touches a pixel.
/// Chosen because the fastest peers (sharp, Hugo's image processing through its library,
/// imgproxy) use it: it shrinks a JPEG while decoding it and streams the rest.
enum PictureCodec {
    /// A picture's header, read without decoding the pixels.
    struct Header: Equatable, Sendable {
        /// The size as stored, before the orientation.
        var storedWidth: Int
        var storedHeight: Int
        /// The EXIF orientation, 1 (upright) to 8. A HEIC file's is always 1: its decoder turns
        /// it by the file's own transformations, and its EXIF tag is only a note of them.
        var orientation: Int
        var hasAlpha: Bool

        /// Whether the orientation turns the picture a quarter: 5 to 8.
        var isTurned: Bool { orientation >= 5 }
        /// The width as shown, after the orientation.
        var width: Int { isTurned ? storedHeight : storedWidth }
        /// The height as shown, after the orientation.
        var height: Int { isTurned ? storedWidth : storedHeight }
    }

    /// Why a picture could not be read or made: the decoder's or libvips' words.
    struct Failure: Error, Equatable, Sendable {
        var reason: String
        var kind: Kind = .failed

        enum Kind: Sendable {
            /// libvips or a decoder failed.
            case failed
            /// The decoder found the pixel data damaged, and stopped rather than make pixels up.
            case damaged
            /// A JPEG's scans went past `PictureLimits.jpegScans`.
            case tooManyScans
        }
    }

    /// What the decoder is told of a source besides its bytes: what the compiler read of it.
    struct Source: Equatable, Sendable {
        var format: PictureFormat
        /// The EXIF orientation, 1 to 8.
        var orientation = 1
        /// A HEIC's `nclx` colour, made into an ICC profile for the conversion to sRGB.
        var colour: HEIFStructure.NCLX?
        /// A JPEG's most scans.
        var maxScans = PictureLimits.jpegScans
        /// A HEIC's embedded thumbnail rather than its primary image (`StandIn`; only for a file
        /// whose `HEIFStructure.hasThumbnail`).
        var thumbnail = false
    }

    /// The libraries a rendition's bytes depend on and their versions, such as "libvips 8.14.1,
    /// libjpeg-turbo 2.1.5, libpng 1.6.39, zlib 1.2.13, libwebp 1.2.4, libheif 1.15.1, lcms2 2.14".
    static let libraries: String = {
        var text = [CChar](repeating: 0, count: 512)
        digno_pictures_versions(&text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The header of `bytes`, read as `format` only.
    static func header(_ bytes: [UInt8], format: PictureFormat) -> Result<Header, Failure> {
        var header = digno_picture_header()
        var error = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBytes { buffer in
            digno_picture_read_header(buffer.baseAddress, buffer.count, format.codecNumber, &header, &error, error.count)
        }
        guard status == 0 else { return .failure(Failure(reason: words(error))) }
        return .success(Header(storedWidth: Int(header.width), storedHeight: Int(header.height),
                               orientation: Int(header.orientation), hasAlpha: header.has_alpha != 0))
    }

    /// The renditions of `bytes` (the picture `source` describes) that `requests` ask for, in
    /// their order, from one decode: the first request's box must hold every other's
    /// (`RenditionRequest.ladder`).
    static func render(_ bytes: [UInt8], _ source: Source, _ requests: [RenditionRequest]) -> Result<[Rendition], Failure> {
        guard !requests.isEmpty else { return .success([]) }
        var outputs = [digno_rendition_output](repeating: digno_rendition_output(), count: requests.count)
        var error = [CChar](repeating: 0, count: 512)
        let codecRequests = requests.map { request in
            digno_rendition_request(width: Int32(request.width), height: Int32(request.height), format: request.format.codecNumber,
                                    quality: Int32(request.quality), lossless: request.lossless ? 1 : 0, effort: Int32(RenditionSettings.webpEffort))
        }
        var codecSource = digno_picture_source(format: source.format.codecNumber, orientation: Int32(source.orientation),
                                               colour_primaries: Int32(source.colour?.primaries ?? 0), transfer_characteristics: Int32(source.colour?.transfer ?? 0),
                                               max_scans: Int32(source.maxScans), thumbnail: source.thumbnail ? 1 : 0)
        let status = bytes.withUnsafeBytes { buffer in
            digno_picture_render(buffer.baseAddress, buffer.count, &codecSource, codecRequests, Int32(codecRequests.count), &outputs, &error, error.count)
        }
        guard status == 0 else {
            let kind: Failure.Kind = switch Int(status) {
            case DIGNO_PICTURE_DAMAGED: .damaged
            case DIGNO_PICTURE_TOO_MANY_SCANS: .tooManyScans
            default: .failed
            }
            return .failure(Failure(reason: words(error), kind: kind))
        }
        defer { for output in outputs { digno_pictures_free(output.bytes) } }
        return .success(zip(requests, outputs).map { request, output in
            Rendition(format: request.format, width: Int(output.width), height: Int(output.height),
                      bytes: output.bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: output.length)) } ?? [])
        })
    }

    /// One rendition of `bytes` as `request` asks.
    static func render(_ bytes: [UInt8], _ source: Source, _ request: RenditionRequest) -> Result<Rendition, Failure> {
        render(bytes, source, [request]).map { $0[0] }
    }

    private static func words(_ error: [CChar]) -> String {
        let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "libvips gave no reason" : text
    }
}
