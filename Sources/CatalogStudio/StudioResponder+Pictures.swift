import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogPreview
import FlyingFox
import Foundation

/// Photos dropped on a form's picture field: uploaded as the request's body, written into a
/// file of the studio's own as it arrives (`SpooledBody`, at most a picture's 64 MiB), judged as
/// validation judges a picture (`PictureIntake`), then placed under `images/` with a name made
/// from the entity. The answer says where, shows it upright at once (its stand-in), and lists the
/// metadata its renditions leave out; the bytes its renditions add to a bundle are asked after
/// (they take a decode). Pictures the last check found unused are removed on request.
extension StudioResponder {
    /// The elements a photo may be dropped on: an icon, a logo, a picture's file (the home's, a
    /// promotion's), a line of a list of pictures.
    static let pictureElements: Set<String> = ["icon", "logo", "image", "images"]

    /// The types a browser gives a photo's file (none, for a HEIC on many systems); its bytes
    /// decide what it is.
    static let photoTypes: Set<String> = ["image/jpeg", "image/png", "image/heic", "image/heif", "image/webp", "application/octet-stream", ""]

    /// The types a browser gives a translator's XLIFF file.
    static let xliffTypes: Set<String> = ["application/x-xliff+xml", "application/xliff+xml", "application/xml", "text/xml", "application/octet-stream", ""]

    func spoolFolder(_ method: HTTPMethod, _ path: String, _ headers: HTTPHeaders) -> Result<String, SpoolRefusal>? {
        guard method == .POST else { return nil }
        let types: Set<String>
        if path.hasPrefix("/_studio/upload/") { types = Self.photoTypes } else if path == "/_studio/translations/import" { types = Self.xliffTypes } else { return nil }
        if let refusal = uploadRefusal(headers, types: types) { return .failure(refusal) }
        return .success(spool)
    }

    /// Why an upload is refused by its header fields, before any of its body is read: not from
    /// the studio's own page (its Origin), without the session's token, or not of `types`.
    func uploadRefusal(_ headers: HTTPHeaders, types: Set<String> = photoTypes) -> SpoolRefusal? {
        guard let host = headers[.host], let origin = headers[HTTPHeader("Origin")], origin == "http://" + host.lowercased() else {
            return SpoolRefusal(.forbidden, "the studio takes changes only from its own pages (the request's Origin is not this server)")
        }
        guard Self.equalInConstantTime(headers[HTTPHeader("X-Studio-Token")] ?? "", token) else {
            return SpoolRefusal(.forbidden, "the request does not carry this studio's token; reload the page")
        }
        let type = (headers[.contentType] ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard types.contains(type) else {
            return SpoolRefusal(.unsupportedMediaType, types == Self.photoTypes ? "the studio takes a photo as JPEG, PNG, HEIC or WebP, not \(type)"
                                : "the studio takes a translator's file as XLIFF, not \(type)")
        }
        return nil
    }

    struct UploadAnswer: Encodable {
        struct Removed: Encodable {
            var kind: String
            var label: String
            var value: String
        }

        var path: String
        var format: String
        var width: Int
        var height: Int
        var standIn: String
        var placeholder: Bool
        var removed: [Removed]
        var removedNote: String
        var bytes: Int
        var bytesHref: String
        /// What became of it, in a sentence; for a line of pictures, that it wants its words.
        var taken: String
        var alt: String?
    }

    /// `POST /_studio/upload/product/espresso?field=images&name=IMG_4032.HEIC`, the photo as its
    /// body: placed (200, `UploadAnswer`), or refused with validation's words (422), nothing
    /// written.
    func upload(_ entity: EntityReference, request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        guard let spooled = SpooledBody.current else {
            // An empty body, or one the listener did not spool.
            return Self.json(["refusal": "send the photo as the request's body"], status: .unprocessableContent)
        }
        let element = request.query.first { $0.name == "field" }?.value ?? ""
        guard Self.pictureElements.contains(element) else { return Self.json(["refusal": "no picture field named '\(element)'"], status: .notFound) }
        guard case .form = workspace.read(entity) else { return Self.json(["refusal": "there is no \(entity) to put a picture in"], status: .notFound) }
        // The file's name as the browser gave it (a name alone: a browser never sends a folder),
        // for the words of a refusal only; the file is named from the entity.
        let given = String((request.query.first { $0.name == "name" }?.value ?? "").prefix(200))
        guard !given.contains("/"), !given.contains("\\"), given != "..", !given.contains(where: { $0.isNewline || $0 == "\0" }) else {
            return Self.json(["refusal": "a photo's name is a name alone, with no folder"], status: .badRequest)
        }
        let name = given.isEmpty ? "the photo" : given
        // One photo at a time: each is held whole while it is judged (64 MiB at most).
        guard admitIntake() else { return Self.json(["refusal": words["upload.busy"]], status: .serviceUnavailable) }
        defer { intake.withLock { $0 = false } }
        guard let bytes = PictureIntake.read(spooled.path), bytes.count == spooled.length else {
            return Self.json(["refusal": "the photo could not be read back"], status: .internalServerError)
        }
        let taken: PictureIntake
        switch PictureIntake.take(bytes, name: name, element: element == "images" ? "image" : element) {
        case .failure(let refusal): return Self.json(["refusal": refusal.message, "code": refusal.code], status: .unprocessableContent)
        case .success(let intake): taken = intake
        }
        let path: String
        switch workspace.placePicture(bytes, fileExtension: taken.fileExtension, for: entity, element: element) {
        case .failure(let failure): return Self.json(["refusal": "\(failure)"], status: .conflict)
        case .success(let placed): path = placed
        }
        standIns.withLock { kept in
            kept.removeAll { $0.path == path }
            kept.append((path, taken.standIn, taken.standInType))
            if kept.count > Self.standInsKept { kept.removeFirst(kept.count - Self.standInsKept) }
        }
        let answer = UploadAnswer(
            path: path, format: taken.formatName, width: taken.width, height: taken.height,
            standIn: "/_studio/stand-in?path=" + Self.queryValue(path), placeholder: taken.isPlaceholder,
            removed: taken.removed.map { UploadAnswer.Removed(kind: $0.kind.rawValue, label: words["removed.\($0.kind.rawValue)"], value: $0.value) },
            removedNote: taken.removed.isEmpty ? words["removed.none"] : words["removed.note"], bytes: bytes.count,
            bytesHref: "/_studio/picture-bytes?path=" + Self.queryValue(path) + "&field=" + element,
            taken: words["upload.taken"].replacingOccurrences(of: "{path}", with: path).replacingOccurrences(of: "{format}", with: taken.formatName)
                .replacingOccurrences(of: "{width}", with: String(taken.width)).replacingOccurrences(of: "{height}", with: String(taken.height)),
            alt: element == "images" ? words["upload.alt"] : nil)
        return Self.json(answer, status: .ok)
    }

    /// Whether a photo may be taken in or measured now: one at a time, each held whole and
    /// decoded (up to the 400 MB a decode may take); the other is answered 503, to ask again.
    private func admitIntake() -> Bool {
        intake.withLock { busy -> Bool in
            if busy { return false }
            busy = true
            return true
        }
    }

    /// How many pictures taken in keep their stand-in to show.
    static let standInsKept = 16

    /// `GET /_studio/stand-in?path=…`: what a picture just taken in looks like, upright.
    func standIn(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.query.first { $0.name == "path" }?.value ?? ""
        guard let kept = standIns.withLock({ $0.last { $0.path == path } }) else {
            return PreviewResponder.refusal(.notFound, "no picture was taken in as \(path)")
        }
        return Self.file(kept.bytes, type: kept.type)
    }

    /// `GET /_studio/picture-bytes?path=…&field=icon`: the bytes the picture's renditions for the
    /// field add to a bundle, `{"bytes": …, "words": …}`; they are made as a build makes them, and
    /// kept in the rendition cache for the next.
    func pictureBytes(_ request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        let path = request.query.first { $0.name == "path" }?.value ?? ""
        let element = request.query.first { $0.name == "field" }?.value ?? ""
        guard path.hasPrefix("images/"), Self.pictureElements.contains(element),
              case .success(let bytes) = workspace.readPicture(path) else {
            return Self.json(["refusal": "no picture \(path) to measure"], status: .notFound)
        }
        guard admitIntake() else { return Self.json(["refusal": words["upload.busy"]], status: .serviceUnavailable) }
        defer { intake.withLock { $0 = false } }
        guard let size = PictureIntake.renditionBytes(of: bytes, element: element == "images" ? "image" : element, contentFolder: workspace.contentFolder) else {
            return Self.json(["refusal": "\(path) cannot be rendered"], status: .unprocessableContent)
        }
        let shown = ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file)
        return Self.json(["bytes": "\(size)", "words": words["upload.adds"].replacingOccurrences(of: "{size}", with: shown)], status: .ok)
    }

    /// `POST /_studio/remove-picture` (`path`, and `back`: the page to return to): removes a
    /// picture the last check found used by nothing.
    func removePicture(_ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let path = fields.first { $0.0 == "path" }?.1 ?? ""
        let back = fields.first { $0.0 == "back" }?.1 ?? "/_studio/"
        // Back to a studio page only.
        let page = back.hasPrefix("/_studio/") && !back.contains("//") ? back : "/_studio/"
        if let refusal = workspace.removeUnusedPicture(path) {
            return PreviewResponder.refusal(.conflict, refusal)
        }
        return Self.redirect(page + (page.contains("?") ? "&" : "?") + "removed=" + Self.queryValue(path))
    }

    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~/"))) ?? ""
    }

    static func json(_ value: some Encodable, status: HTTPStatusCode) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(statusCode: status, headers: HTTPHeaders(Self.headers.merging([.contentType: "application/json", .cacheControl: "no-store"]) { $1 }), body: data)
    }
}
