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

    /// libvips' words for why it could not read or make a picture.
    struct Failure: Error, Equatable, Sendable {
        var reason: String
    }

    /// The libraries a rendition's bytes depend on and their versions, such as "libvips 8.14.1,
    /// libjpeg-turbo 2.1.5, libpng 1.6.39, zlib 1.2.13, libwebp 1.2.4, libheif 1.15.1".
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

    /// The renditions of `bytes` (a picture in `format`) that `requests` ask for, in their
    /// order, from one decode: the first request's box must hold every other's
    /// (`RenditionRequest.ladder`).
    static func render(_ bytes: [UInt8], format: PictureFormat, _ requests: [RenditionRequest]) -> Result<[Rendition], Failure> {
        guard !requests.isEmpty else { return .success([]) }
        var outputs = [digno_rendition_output](repeating: digno_rendition_output(), count: requests.count)
        var error = [CChar](repeating: 0, count: 512)
        let codecRequests = requests.map { request in
            digno_rendition_request(width: Int32(request.width), height: Int32(request.height), format: request.format.codecNumber,
                                    quality: Int32(request.quality), lossless: request.lossless ? 1 : 0, effort: Int32(RenditionSettings.webpEffort))
        }
        let status = bytes.withUnsafeBytes { buffer in
            digno_picture_render(buffer.baseAddress, buffer.count, codecRequests, Int32(codecRequests.count), &outputs, &error, error.count)
        }
        guard status == 0 else { return .failure(Failure(reason: words(error))) }
        defer { for output in outputs { digno_pictures_free(output.bytes) } }
        return .success(zip(requests, outputs).map { request, output in
            Rendition(format: request.format, width: Int(output.width), height: Int(output.height),
                      bytes: output.bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: output.length)) } ?? [])
        })
    }

    /// One rendition of `bytes` (a picture in `format`) as `request` asks.
    static func render(_ bytes: [UInt8], format: PictureFormat, _ request: RenditionRequest) -> Result<Rendition, Failure> {
        render(bytes, format: format, [request]).map { $0[0] }
    }

    private static func words(_ error: [CChar]) -> String {
        let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "libvips gave no reason" : text
    }
}
