import CatalogModel
import Crypto
import Foundation

/// Renditions already made, kept in a folder that git ignores (`.digno-cache/renditions`
/// beside the content folder), so that a rebuild and the preview encode only the pictures that
/// changed. An entry is found by the SHA-256 of its source's bytes, the request and
/// `RenditionSettings.identity` (settings and library versions): a new encoder or setting finds
/// nothing and makes every rendition anew.
///
/// A cache is only ever a shortcut: an entry whose bytes do not match the SHA-256 it records is
/// ignored and made again, and a folder that cannot be written is used for nothing.
struct RenditionCache: Sendable {
    /// The cache's folder.
    let folder: String

    /// The folder name beside a content folder, which the repository's `.gitignore` lists.
    static let folderName = ".digno-cache"

    /// The cache beside the content folder at `contentFolder`: `.digno-cache/renditions` in
    /// the folder that holds it.
    static func beside(contentFolder: String) -> RenditionCache {
        let absolute = contentFolder.hasPrefix("/") ? contentFolder : FileManager.default.currentDirectoryPath + "/" + contentFolder
        let parent = (absolute as NSString).standardizingPath.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        return RenditionCache(folder: "/" + parent.joined(separator: "/") + (parent.isEmpty ? "" : "/") + folderName + "/renditions")
    }

    /// The file of the entry for `request` of the source whose bytes have SHA-256 `source`.
    func path(source: String, request: RenditionRequest) -> String {
        let key = SHA256.hash(data: Array((RenditionSettings.identity + "\n" + source + "\n" + request.key).utf8)).hexString
        return folder + "/" + key.prefix(2) + "/" + key
    }

    /// The first line of every entry; the second is the rendition's format, size and SHA-256.
    private static let signature = "digno-rendition 1"
    /// No rendition is near this size (the largest is 1170 × 2340 pixels).
    private static let largestEntry = 32 << 20

    /// The entry for `request` of `source`, if there is a sound one.
    func rendition(source: String, request: RenditionRequest) -> Rendition? {
        guard case .success(let bytes) = FileSystem.read(path(source: source, request: request), limit: Self.largestEntry),
              let firstBreak = bytes.firstIndex(of: 0x0A),
              let secondBreak = bytes[(firstBreak + 1)...].firstIndex(of: 0x0A),
              bytes[..<firstBreak].elementsEqual(Self.signature.utf8) else { return nil }
        let fields = String(decoding: bytes[(firstBreak + 1)..<secondBreak], as: UTF8.self).split(separator: " ")
        guard fields.count == 4, let format = ImageFormat(rawValue: String(fields[0])), format == request.format,
              let width = Int(fields[1]), let height = Int(fields[2]), width > 0, height > 0 else { return nil }
        let rendition = Rendition(format: format, width: width, height: height, bytes: Array(bytes[(secondBreak + 1)...]))
        return rendition.sha256 == fields[3] ? rendition : nil
    }

    /// Keeps `rendition` as the entry for `request` of `source`: written whole under another
    /// name and renamed into place, so that a reader never sees half an entry. Whether it was.
    @discardableResult
    func keep(_ rendition: Rendition, source: String, request: RenditionRequest) -> Bool {
        let path = path(source: source, request: request)
        let header = "\(Self.signature)\n\(rendition.format.rawValue) \(rendition.width) \(rendition.height) \(rendition.sha256)\n"
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(Array(header.utf8) + rendition.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            return true
        } catch {
            return false
        }
    }
}
