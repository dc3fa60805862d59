/// A picture as an editor's tools describe it (`digno lsp`'s hover and completion): its size
/// as shown, its format, and the renditions a use of it gets.
package struct PictureDescription: Equatable, Sendable {
    package var width: Int
    package var height: Int
    /// `JPEG`, `PNG`, `HEIC`, `WebP`.
    package var format: String
    var source: PictureFormat
    var hasAlpha: Bool

    /// The picture at `path` in the content folder, read no further than its header; nil
    /// when it is not a picture the compiler reads, or is larger than a picture may be.
    package static func of(contentFolder: String, path: String) -> PictureDescription? {
        guard case .success(let bytes) = FileSystem.read(contentFolder + "/" + path, limit: PictureLimits.fileBytes),
              case .success(let picture) = ImageChecker.picture(in: bytes)
        else { return nil }
        return PictureDescription(width: picture.header.width, height: picture.header.height, format: picture.format.name,
                                  source: picture.format, hasAlpha: picture.header.hasAlpha)
    }

    /// `1170×780 px, JPEG`.
    package var summary: String { "\(width)×\(height) px, \(format)" }

    /// The renditions a use of the picture gets, by the element that uses it (`icon`, `logo`,
    /// anything else a picture): `WebP 180, 120, 60 px wide; PNG 180`.
    package func renditions(forElement element: String) -> String {
        let use: PictureUse = element == "icon" ? .icon : element == "logo" ? .logo : .picture
        let requests = RenditionRequest.ladder(uses: [use], source: source, hasAlpha: hasAlpha)
        var byFormat: [(String, [Int])] = []
        for request in requests {
            let name = request.format.name
            if let index = byFormat.firstIndex(where: { $0.0 == name }) { byFormat[index].1.append(request.width) } else { byFormat.append((name, [request.width])) }
        }
        return byFormat.map { "\($0.0) \($0.1.map(String.init).joined(separator: ", "))" }.joined(separator: "; ") + " px wide"
    }
}
