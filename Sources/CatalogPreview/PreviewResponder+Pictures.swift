import CatalogModel
import CatalogSite
import FlyingFox
import Foundation

// The preview's pictures: each picture's own image and its renditions, from the shown bundle,
// and the renditions a page offers in its `srcset`.
extension PreviewResponder {
    /// A picture from the bundle, under its SHA-256 (`/images/SHA-256`), or one of its
    /// renditions (`/images/SHA-256/780.webp`, as `SiteLinks` names them): the same name is
    /// always the same bytes, so the browser may keep it for good.
    func image(_ name: String, request: HTTPRequest) -> HTTPResponse {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let rendition: (width: Int, format: ImageFormat)?
        switch parts.count {
        case 1: rendition = nil
        case 2:
            let file = parts[1].split(separator: ".", omittingEmptySubsequences: false)
            guard file.count == 2, file[0].count <= 5, let width = Int(file[0]), width > 0, String(width) == file[0],
                  let format = ImageFormat.allCases.first(where: { SiteLinks.fileExtension($0) == file[1] }) else {
                return Self.refusal(.notFound, "renditions are at /images/<sha-256>/<width>.webp")
            }
            rendition = (width, format)
        default: rendition = nil
        }
        guard parts.count <= 2, let picture = parts.first.map(String.init), picture.isSHA256Hex else {
            return Self.refusal(.notFound, "pictures are at /images/<sha-256 in lowercase hex>")
        }
        let tag = "\"\(name.replacingOccurrences(of: "/", with: "-"))\""
        if request.headers[.ifNoneMatch] == tag {
            return HTTPResponse(statusCode: .notModified, headers: HTTPHeaders(Self.securityHeaders.merging([.eTag: tag]) { $1 }))
        }
        guard let bundle = session.shown().bundle else { return Self.refusal(.notFound, "no version has built yet") }
        let stored: StoredImage?
        do {
            if let rendition {
                stored = try bundle.renditions(of: ImageID(rawValue: picture))
                    .first { $0.width == rendition.width && $0.format == rendition.format }
                    .flatMap { try bundle.image($0) }
            } else {
                stored = try bundle.image(ImageID(rawValue: picture))
            }
        } catch {
            return Self.refusal(.internalServerError, "the bundle cannot be read: \(error)")
        }
        guard let stored else { return Self.refusal(.notFound, "the bundle holds no picture \(name)") }
        return HTTPResponse(
            statusCode: .ok,
            headers: HTTPHeaders(Self.securityHeaders.merging([
                .contentType: stored.mediaType, .cacheControl: "public, max-age=31536000, immutable", .eTag: tag,
            ]) { $1 }),
            body: stored.bytes)
    }

    /// The renditions of every picture `screen` shows, for its pages' `srcset`.
    static func ladders(of screen: Screen, in bundle: CatalogBundle) throws(CatalogBundleError) -> [ImageID: [ImageRendition]] {
        var ladders: [ImageID: [ImageRendition]] = [:]
        for id in Set(StaticSite.images(in: screen)) { ladders[id] = try bundle.renditions(of: id) }
        return ladders
    }
}
