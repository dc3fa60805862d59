import Crypto

/// The content digest: SHA-256 over a canonical form of the content, so the same content gives
/// the same digest whatever the order files were written in, their line endings or the machine.
/// The form is one line per file, sorted by path: the path, a tab, and the SHA-256 of the
/// file's bytes (XML in Unicode NFC with CR LF and lone CR made LF; images as they are). An
/// image's path is the one the content writes, in NFC like every value, whatever the spelling
/// of its name on disk. A last line, after the files, holds what the pictures' renditions
/// depend on besides their sources (`RenditionSettings.identity`: settings and library
/// versions), so that a new encoder or setting is a new release.
enum ContentDigest {
    /// One file of the content and the SHA-256 of its bytes.
    struct Entry: Sendable {
        var path: String
        var sha256: String
    }

    /// The digest of the XML files (`files`, in any order) and the images. No path is in
    /// both: a file that is an XML content file and also a used image is not valid content,
    /// so no bundle is built from it.
    static func compute(files: [Entry], images: BundleImages, renditions: String = RenditionSettings.identity) -> String {
        var entries = files
        entries.reserveCapacity(files.count + images.sourceByPath.count)
        for (path, sha256) in images.sourceByPath { entries.append(Entry(path: path, sha256: sha256)) }
        var paths = ByteKeys(capacity: entries.count, averageLength: 32)
        for entry in entries { paths.append(entry.path.utf8) }
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 100)
        for index in paths.sortedIndices() {
            text.append(contentsOf: entries[index].path.utf8)
            text.append(UInt8(ascii: "\t"))
            text.append(contentsOf: entries[index].sha256.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        // No path holds a tab or line break, so this line is never a file's.
        if !images.sourceByPath.isEmpty {
            text.append(contentsOf: "renditions\t\(renditions)\n".utf8)
        }
        return SHA256.hash(data: text).hexString
    }
}
