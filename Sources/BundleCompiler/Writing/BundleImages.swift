import CatalogContent
import CatalogModel
import Crypto

/// The images of a bundle: every distinct file the content uses, read once, hashed, and
/// stored once however often it is used.
struct BundleImages {
    struct Image {
        var sha256: String
        var header: ImageHeader
        var bytes: [UInt8]
    }

    /// Each distinct image by its SHA-256, in hash order.
    private(set) var bySHA256: [String: Image] = [:]
    /// The SHA-256 of each content path.
    private(set) var byPath: [String: String] = [:]

    /// Reads the images at `paths` (normalised, inside the content folder at `root`): the
    /// ones validation found in use (`ValidationReport.imagePaths`), each from its name on
    /// disk (`spellings`, `ValidationReport.imageSpellings`) but known by its path. Validation
    /// has already checked each path and header, so a failure here means a file changed during
    /// the build.
    init(paths: Set<String>, spellings: [String: String] = [:], root: String) throws(BuildError) {
        for path in paths.sorted(by: String.utf8Precedes) {
            let bytes: [UInt8]
            switch FileSystem.read(root + "/" + ImageChecker.pathOnDisk(path, spellings: spellings), limit: ImageChecker.maxImageSize) {
            case .success(let read): bytes = read
            case .failure: throw .contentChanged("image '\(path)' could not be read")
            }
            guard case .success(let header) = ImageHeader.read(bytes) else {
                throw .contentChanged("image '\(path)' is no longer a readable PNG or JPEG")
            }
            let sha256 = SHA256.hash(data: bytes).hexString
            byPath[path] = sha256
            bySHA256[sha256] = Image(sha256: sha256, header: header, bytes: bytes)
        }
    }

    /// The SHA-256 of the image a reference names.
    func sha256(of reference: ImageReference) -> String {
        ImageChecker.normalized(reference.source).flatMap { byPath[$0] } ?? ""
    }
}
