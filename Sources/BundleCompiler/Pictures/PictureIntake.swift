import CPictureCodec
import CatalogContent
import Crypto
import Foundation

/// A picture taken into the content folder from outside (`digno studio`'s photo dropped on a
/// picture field): judged as validation judges a picture of its use (`ImageChecker.judge`, the
/// same words) before a byte of it is written there; the metadata its renditions leave out
/// listed (where it was taken, the camera, when); and its stand-in to show at once, upright
/// (the preview's, `StandIn`: its embedded thumbnail or a placeholder of its shape).
package struct PictureIntake: Sendable {
    /// A piece of metadata the renditions leave out, by what it tells.
    package struct Removed: Sendable, Equatable {
        package enum Kind: String, Sendable {
            /// Where it was taken: GPS coordinates.
            case place
            /// The camera or phone, its lens, its serial number.
            case camera
            /// When it was taken.
            case date
            /// Who took it or owns it, XMP or IPTC descriptions.
            case author
            /// The program that last wrote it.
            case software
            /// EXIF fields besides (exposure, flash…), counted.
            case other
        }

        package var kind: Kind
        /// The value as the file has it (`60.16990° N, 24.93840° E`, `Apple iPhone 13`,
        /// `2026-11-03 10:22:05`; for `other`, how many fields).
        package var value: String
    }

    /// `JPEG`, `PNG`, `HEIC`, `WebP`.
    package let formatName: String
    /// The file name's ending for its format: `jpg`, `png`, `heic`, `webp`.
    package let fileExtension: String
    /// Its size as shown, upright.
    package let width: Int
    package let height: Int
    package let removed: [Removed]
    /// What to show of it at once: a JPEG of its embedded thumbnail, turned upright, in its
    /// use's box; or a grey PNG of its shape where it has none (`isPlaceholder`).
    package let standIn: [UInt8]
    package let standInType: String
    package let isPlaceholder: Bool

    /// The largest picture file taken in: any picture's (64 MiB).
    package static let fileLimit = PictureLimits.fileBytes

    /// The bytes of the file at `path` (a photo uploaded), read once into one array, at most a
    /// picture's limit; nil when it cannot be read or is larger.
    package static func read(_ path: String) -> [UInt8]? {
        guard case .success(let bytes) = FileSystem.read(path, limit: fileLimit) else { return nil }
        return bytes
    }

    /// Why a picture is not taken: validation's code and words for it.
    package struct Refusal: Error, Sendable, Equatable {
        package var code: String
        package var message: String
    }

    /// The use of a picture field by the element that holds it: `icon`, `logo`, any other a
    /// picture (as `PictureDescription` has it).
    static func use(ofElement element: String) -> PictureUse {
        element == "icon" ? .icon : element == "logo" ? .logo : .picture
    }

    /// `bytes`, named `name` where it came from (said in a refusal), for a field of `element`.
    package static func take(_ bytes: [UInt8], name: String, element: String) -> Result<PictureIntake, Refusal> {
        let use = use(ofElement: element)
        let picture: ImageChecker.SourcePicture
        switch ImageChecker.judge(ImageChecker.picture(in: bytes), source: name, path: name, use: use) {
        case .sound(let sound): picture = sound
        case .overLimits(let code, let message), .refused(let code, let message): return .failure(Refusal(code: code.rawValue, message: message))
        case .missing: return .failure(Refusal(code: DiagnosticCode.imageMissing.rawValue, message: "'\(name)' holds nothing"))
        }
        let header = picture.header
        let heif: HEIFStructure? = if case .heif(let structure) = picture.memory.source { structure } else { nil }
        let main = RenditionRequest.forSchema2(use: use, source: picture.format, hasAlpha: header.hasAlpha)
        let standIn = StandIn.make(bytes, source: picture.source, heif: heif, shape: (header.width, header.height), request: main)
        return .success(PictureIntake(
            formatName: picture.format.name, fileExtension: picture.format.fileExtension, width: header.width, height: header.height,
            removed: Self.removed(metadataLines(bytes, format: picture.format)), standIn: standIn.rendition.bytes,
            standInType: standIn.rendition.format == .png ? "image/png" : "image/jpeg", isPlaceholder: standIn.kind == .placeholder))
    }

    /// The bytes a picture's renditions for a field of `element` add to a bundle: made as a
    /// build makes them, and kept in the rendition cache beside `contentFolder`, so that the
    /// build after finds them made. Nil when they cannot be made (the picture was judged
    /// sound: a decoder's failure).
    package static func renditionBytes(of bytes: [UInt8], element: String, contentFolder: String) -> Int? {
        guard case .sound(let picture) = ImageChecker.judge(ImageChecker.picture(in: bytes), source: "", path: "", use: use(ofElement: element)) else {
            return nil
        }
        let requests = RenditionRequest.ladder(uses: [use(ofElement: element)], source: picture.format, hasAlpha: picture.header.hasAlpha)
        let cache = RenditionCache.beside(contentFolder: contentFolder)
        let source = SHA256.hash(data: bytes).hexString
        let cached = requests.compactMap { cache.rendition(source: source, request: $0) }
        if cached.count == requests.count { return cached.reduce(0) { $0 + $1.bytes.count } }
        guard case .success(let renditions) = PictureCodec.render(bytes, picture.source, requests) else { return nil }
        for (rendition, request) in zip(renditions, requests) { cache.keep(rendition, source: source, request: request) }
        return renditions.reduce(0) { $0 + $1.bytes.count }
    }

    /// libvips' metadata fields of the picture: name and value.
    static func metadataLines(_ bytes: [UInt8], format: PictureFormat) -> [(name: String, value: String)] {
        var text = [CChar](repeating: 0, count: 32 * 1024)
        let status = bytes.withUnsafeBytes { buffer in digno_picture_metadata(buffer.baseAddress, buffer.count, format.codecNumber, &text, text.count) }
        guard status == 0 else { return [] }
        let lines = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "\n")
        return lines.compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            return (String(line[..<tab]), String(line[line.index(after: tab)...]))
        }
    }

    /// What `fields` tell, by kind, in the order a person reads them: place, camera, date,
    /// author, software, then the other EXIF fields counted.
    static func removed(_ fields: [(name: String, value: String)]) -> [Removed] {
        // libvips writes an EXIF value as itself, then in brackets its readable form, type and
        // size: `Apple (Apple, ASCII, 6 components, 6 bytes)`; the first part is kept.
        var exif: [String: String] = [:]
        var others = 0
        var described: [String] = []
        for (name, value) in fields {
            if name.hasPrefix("exif-ifd"), let dash = name.dropFirst("exif-ifd".count).firstIndex(of: "-") {
                let tag = String(name[name.index(after: dash)...])
                let plain = value.range(of: " (").map { String(value[..<$0.lowerBound]) } ?? value
                exif[tag] = plain.trimmingCharacters(in: .whitespaces)
            } else if name == "xmp-data" {
                described.append("XMP")
            } else if name == "iptc-data" {
                described.append("IPTC")
            }
        }
        var removed: [Removed] = []
        var told = Set<String>()
        func take(_ tag: String) -> String? {
            guard let value = exif[tag], !value.isEmpty else { return nil }
            told.insert(tag)
            return value
        }
        if let latitude = take("GPSLatitude").flatMap(degrees), let longitude = take("GPSLongitude").flatMap(degrees) {
            let north = take("GPSLatitudeRef")?.uppercased() ?? "N", east = take("GPSLongitudeRef")?.uppercased() ?? "E"
            removed.append(Removed(kind: .place, value: String(format: "%.5f° %@, %.5f° %@", latitude, north == "S" ? "S" : "N", longitude, east == "W" ? "W" : "E")))
        }
        let gps = exif.keys.filter { $0.hasPrefix("GPS") && !told.contains($0) }
        if !gps.isEmpty {
            if removed.isEmpty { removed.append(Removed(kind: .place, value: "GPS")) }
            told.formUnion(gps)
        }
        let make = take("Make"), model = take("Model")
        let camera = [make.flatMap { make in model?.lowercased().hasPrefix(make.lowercased()) == true ? nil : make }, model, take("LensModel"),
                      take("BodySerialNumber").map { "#" + $0 }].compactMap { $0 }
        if !camera.isEmpty { removed.append(Removed(kind: .camera, value: camera.joined(separator: " "))) }
        if let date = take("DateTimeOriginal") ?? take("DateTime") ?? take("DateTimeDigitized") {
            // EXIF writes `2026:11:03 10:22:05`.
            var shown = date
            if shown.count >= 10 { shown = shown.replacingOccurrences(of: ":", with: "-", range: shown.startIndex..<shown.index(shown.startIndex, offsetBy: 10)) }
            removed.append(Removed(kind: .date, value: shown))
            _ = take("DateTime")
            _ = take("DateTimeDigitized")
        }
        let author = [take("Artist"), take("Copyright")].compactMap { $0 } + described
        if !author.isEmpty { removed.append(Removed(kind: .author, value: author.joined(separator: ", "))) }
        if let software = take("Software") { removed.append(Removed(kind: .software, value: software)) }
        // What a rendition keeps in another form (its orientation, applied) or that tells nothing
        // of the person or the place.
        let structural: Set<String> = ["Orientation", "XResolution", "YResolution", "ResolutionUnit", "ExifVersion", "FlashpixVersion", "FlashPixVersion", "ColorSpace",
                                       "PixelXDimension", "PixelYDimension", "ComponentsConfiguration", "YCbCrPositioning", "Compression",
                                       "JPEGInterchangeFormat", "JPEGInterchangeFormatLength", "InteroperabilityIndex", "InteroperabilityVersion"]
        others = exif.keys.filter { !told.contains($0) && !structural.contains($0) }.count
        if others > 0 { removed.append(Removed(kind: .other, value: String(others))) }
        return removed
    }

    /// Degrees from EXIF's three rationals, `60/1 10/1 291/25`.
    static func degrees(_ text: String) -> Double? {
        let parts = text.split(separator: " ").map { part -> Double? in
            let pieces = part.split(separator: "/")
            guard let numerator = Double(pieces[0]) else { return nil }
            guard pieces.count == 2 else { return numerator }
            guard let denominator = Double(pieces[1]), denominator != 0 else { return nil }
            return numerator / denominator
        }
        guard parts.count == 3, let d = parts[0], let m = parts[1], let s = parts[2] else { return nil }
        let value = d + m / 60 + s / 3600
        return value.isFinite && value <= 180 ? value : nil
    }
}
