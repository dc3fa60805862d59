import CatalogContent
import CatalogModel

/// The images of a bundle: the rendition of every distinct picture the content uses, stored
/// once by the SHA-256 of its bytes however often it is used.
struct BundleImages: Sendable {
    struct Image: Sendable {
        var sha256: String
        /// JPEG or PNG: what a bundle's `images` table allows.
        var format: ImageFormat
        var width: Int
        var height: Int
        var bytes: [UInt8]
    }

    /// Each distinct image by its SHA-256, in hash order.
    private(set) var bySHA256: [String: Image] = [:]
    /// The SHA-256 of each content path's rendition.
    private(set) var byPath: [String: String] = [:]
    /// The SHA-256 of each content path's source file, for the content digest.
    private(set) var sourceByPath: [String: String] = [:]
    /// The rest of each image's ladder (`RenderedPicture.ladder`), by the image's SHA-256: the
    /// `renditions` rows of a bundle of schema 4.
    private(set) var ladders: [String: [Rendition]] = [:]

    /// The images of `pictures`, a valid report's renditions (`ValidationReport.pictures`).
    init(pictures: [String: RenderedPicture]) {
        for (path, picture) in pictures {
            let rendition = picture.rendition
            let sha256 = rendition.sha256
            byPath[path] = sha256
            sourceByPath[path] = picture.source
            // Schema 2 and 3 bundles hold the JPEG and PNG renditions their `images` table allows.
            bySHA256[sha256] = Image(sha256: sha256, format: rendition.format == .png ? .png : .jpeg, width: rendition.width,
                                     height: rendition.height, bytes: rendition.bytes)
            ladders[sha256] = picture.ladder
        }
    }

    /// The bytes of every distinct image, as a bundle of `schema` stores them: its `images`,
    /// and from schema 4 its `renditions`.
    func byteCount(schema: Int) -> Int {
        bySHA256.values.reduce(0) { $0 + $1.bytes.count }
            + (schema >= 4 ? ladders.values.reduce(0) { total, ladder in ladder.reduce(total) { $0 + $1.bytes.count } } : 0)
    }

    /// The SHA-256 of the image a reference names.
    func sha256(of reference: ImageReference) -> String {
        ImageChecker.normalized(reference.source).flatMap { byPath[$0] } ?? ""
    }
}
