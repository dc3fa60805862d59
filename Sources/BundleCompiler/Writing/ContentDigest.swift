import Crypto

/// The content digest: SHA-256 over a canonical form of the content, so the same content gives
/// the same digest whatever the order files were written in, their line endings or the machine.
/// The form is one line per file, sorted by path: the path, a tab, and the SHA-256 of the
/// file's bytes (XML with CR LF made LF; images as they are).
enum ContentDigest {
    static func compute(files: [String: String], images: BundleImages) -> String {
        var lines = files
        for (path, sha256) in images.byPath { lines[path] = sha256 }
        var hasher = SHA256()
        for (path, sha256) in lines.sorted(by: { String.utf8Precedes($0.key, $1.key) }) {
            hasher.update(data: Array("\(path)\t\(sha256)\n".utf8))
        }
        return hasher.finalize().hexString
    }
}
