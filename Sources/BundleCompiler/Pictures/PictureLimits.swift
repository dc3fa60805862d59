/// What a content picture may be, in one place: the limits validation refuses a picture over
/// (`image-too-large`, `image-dimensions`), judged on its file and its own structure before any
/// pixel is decoded, and the limits the decoders are held to.
enum PictureLimits {
    /// The largest picture file accepted: 64 MiB, above a 48-megapixel phone photo (about 25 MB
    /// as JPEG, 10 as HEIC) and most cameras' largest JPEGs.
    static let fileBytes = 64 * 1024 * 1024
    /// The most pixels a picture may declare: 50 megapixels, above the 48 of the largest
    /// phone photos (8064 × 6048). Checked on the header, before a pixel is decoded: a PNG of
    /// flat colour stays small in bytes whatever its size in pixels (50,000 × 50,000 fits in a
    /// megabyte) and would take gigabytes to decode.
    static let pixels = 50_000_000
    /// The most pixels on either side: WebP's own limit, and no photo's.
    static let side = 16_383
    /// The most scans a JPEG may have: 100. libjpeg's own progressive files have 10 (6 in grey),
    /// cameras' and editors' at most a few dozen; each scan is another pass over the coefficients
    /// of the whole picture, so that a file of 20,000 small scans took a minute to decode.
    static let jpegScans = 100
    /// The bytes the build's decodes may hold at once, and one decode alone: 400 MB, leaving
    /// the rest of the 500 for the build's own work (the catalogue, the bundle being written).
    static let decodeBytes = 400_000_000
}
