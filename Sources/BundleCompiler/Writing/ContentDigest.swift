import Crypto

/// The content digest: SHA-256 over a canonical form of the content, so the same content gives
/// the same digest whatever the order files were written in, their line endings or the machine.
/// The form is one line per file, sorted by path: the path, a tab, and the SHA-256 of the
/// file's bytes (XML with CR LF made LF; images as they are).
enum ContentDigest {
    static func compute(files: [String: String], images: BundleImages) -> String {
        var lines = files
        for (path, sha256) in images.byPath { lines[path] = sha256 }
        var text: [UInt8] = []
        text.reserveCapacity(lines.count * 100)
        for path in lines.keys.sorted(by: String.utf8Precedes) {
            text.append(contentsOf: path.utf8)
            text.append(UInt8(ascii: "\t"))
            text.append(contentsOf: lines[path]!.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        return SHA256.hash(data: text).hexString
    }
}
