import Crypto

/// The content digest: SHA-256 over a canonical form of the content, so the same content gives
/// the same digest whatever the order files were written in, their line endings or the machine.
/// The form is one line per file, sorted by path: the path, a tab, and the SHA-256 of the
/// file's bytes (XML with CR LF made LF; images as they are).
enum ContentDigest {
    static func compute(files: [String: String], images: BundleImages) -> String {
        var lines = files
        for (path, sha256) in images.byPath { lines[path] = sha256 }
        let entries = Array(lines)
        var paths = ByteKeys(capacity: entries.count, averageLength: 32)
        for entry in entries { paths.append(entry.key.utf8) }
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 100)
        for index in paths.sortedIndices() {
            text.append(contentsOf: entries[index].key.utf8)
            text.append(UInt8(ascii: "\t"))
            text.append(contentsOf: entries[index].value.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        return SHA256.hash(data: text).hexString
    }
}
