import BundleCompiler
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
        let shown = session.shown()
        if rendition == nil, let standIn = shown.notes.standIns[picture], let bundle = shown.bundle {
            return Self.standIn(standIn, ImageID(rawValue: picture), in: bundle)
        }
        let tag = "\"\(name.replacingOccurrences(of: "/", with: "-"))\""
        if request.headers[.ifNoneMatch] == tag {
            return HTTPResponse(statusCode: .notModified, headers: HTTPHeaders(Self.securityHeaders.merging([.eTag: tag]) { $1 }))
        }
        guard let bundle = shown.bundle else { return Self.refusal(.notFound, "no version has built yet") }
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

    /// A photo's stand-in while its renditions are made (`StandIn`): its thumbnail, as the
    /// preview's bundle holds it, or in a placeholder's place words saying that the picture is
    /// being prepared, in the placeholder's shape. Never kept by the browser: the next build
    /// gives the picture another id.
    static func standIn(_ kind: StandIn.Kind, _ id: ImageID, in bundle: CatalogBundle) -> HTTPResponse {
        let stored: StoredImage?
        do { stored = try bundle.image(id) } catch { return refusal(.internalServerError, "the bundle cannot be read: \(error)") }
        guard let stored else { return refusal(.notFound, "the bundle holds no picture \(id.rawValue)") }
        let (type, body): (String, Data) = switch kind {
        case .thumbnail: (stored.mediaType, stored.bytes)
        case .placeholder: ("image/svg+xml", Data(placeholder(width: stored.width, height: stored.height).utf8))
        }
        return HTTPResponse(
            statusCode: .ok,
            headers: HTTPHeaders(securityHeaders.merging([.contentType: type, .cacheControl: "no-store"]) { $1 }),
            body: body)
    }

    /// The words a placeholder is served as: an SVG of its shape (ten times its size, so that
    /// the words fit), grey, saying that the picture is being prepared.
    static func placeholder(width: Int, height: Int) -> String {
        let (width, height) = (max(width, 1) * 10, max(height, 1) * 10)
        let size = max(8, min(40, width / 14))
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">\
            <rect width="\(width)" height="\(height)" fill="#e4e4e4"/>\
            <text x="\(width / 2)" y="\(height / 2)" text-anchor="middle" dominant-baseline="middle" \
            font-family="sans-serif" font-size="\(size)" fill="#333">Preparing the picture…</text></svg>
            """
    }

    /// The renditions of every picture `screen` shows, for its pages' `srcset`.
    static func ladders(of screen: Screen, in bundle: CatalogBundle) throws(CatalogBundleError) -> [ImageID: [ImageRendition]] {
        var ladders: [ImageID: [ImageRendition]] = [:]
        for id in Set(StaticSite.images(in: screen)) { ladders[id] = try bundle.renditions(of: id) }
        return ladders
    }
}
