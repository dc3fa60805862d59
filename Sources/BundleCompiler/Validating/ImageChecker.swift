import CatalogContent
import CatalogModel
import Crypto

/// Checks every image the content uses: inside the content folder, present, a PNG or JPEG
/// with readable dimensions, square where it must be; and warns about image files nothing uses.
struct ImageChecker {
    /// The largest image accepted.
    static let maxImageSize = 8 * 1024 * 1024
    /// The most pixels an image may have on either side. A PNG of flat colour stays small in
    /// bytes whatever its size in pixels: 60000×60000 fits in a few hundred kilobytes and would
    /// take a phone 14 GB to draw. 4096 is nearly three times the width of the widest phone
    /// screens (about 1440 pixels).
    static let maxSide = 4096

    let tree: ContentTree
    /// Each file's header, read once however often the file is used.
    private var headers: [String: Result<ImageHeader, ImageFailure>] = [:]
    /// The SHA-256 of each readable file's bytes, which is its id in a bundle.
    private var digests: [String: SHA256.Digest] = [:]

    init(tree: ContentTree) {
        self.tree = tree
    }

    enum ImageFailure: Error {
        case missing, brokenLink(target: String), notAFile(FileSystem.EntryType), outside(symlink: Bool), tooLarge(Int), unreadable(String)
        case format(ImageHeader.Failure)
    }

    /// The problems of every image use in `catalog`, still to be given positions, and the set
    /// of paths used, with the images that missing ones most likely meant.
    mutating func check(_ catalog: Catalog) -> (diagnostics: [EntityDiagnostic], used: Set<String>) {
        var diagnostics: [EntityDiagnostic] = []
        var used = Set<String>()
        // Images that do not exist: the diagnostic that reports each, its `src` and its path.
        var missing: [(diagnostic: Int, source: String, path: String)] = []
        catalog.forEachImageUse { reference, mustBeSquare, place in
            let source = reference.source
            func report(_ code: DiagnosticCode, _ message: String) {
                let place = place()
                diagnostics.append(EntityDiagnostic(severity: .error, code: code, entity: place.entity, field: place.field, message: message))
            }
            // Before anything else: such a path names no file anyone meant, even where one
            // by that name exists.
            if let invisible = Self.firstInvisible(in: source) {
                let place = place()
                diagnostics.append(EntityDiagnostic(severity: .error, code: .controlCharacter, entity: place.entity, field: place.field,
                                           attribute: "src", message: "src holds \(Self.words(for: invisible)): '\(source)'; write the path without it"))
                if let path = Self.normalized(source) { used.insert(path) }
                return
            }
            guard let path = Self.normalized(source) else {
                // A relative Windows path: a name, not a way out of the folder. An absolute one
                // (C:\…, \\server\…) does lead out.
                if source.contains("\\"), !source.hasPrefix("\\"), source.dropFirst().first != ":",
                   let meant = Self.normalized(source.replacingOccurrences(of: "\\", with: "/")) {
                    report(.imageMissing, "'\(source)' separates folders with '\\'; write '/' instead: \(meant)")
                    // The image meant is not also reported unused.
                    used.insert(meant)
                    return
                }
                report(.imageOutsideRoot, "'\(source)' leads outside the content folder; give a path relative to the content folder, such as images/name.png")
                return
            }
            used.insert(path)
            // A path into a refused folder (`images` a file, or a link leading out) is not
            // judged: the folder's own error says what to do, once rather than at every use.
            if tree.refusedFolders.contains(where: { path.hasPrefix($0 + "/") }) { return }
            switch header(path) {
            case .success(let header):
                if header.width > Self.maxSide || header.height > Self.maxSide {
                    report(.imageDimensions, "image '\(source)' is \(header.width)×\(header.height) pixels; the limit is \(Self.maxSide) on each side, "
                        + "more than any phone screen shows: scale it down")
                }
                if mustBeSquare && header.width != header.height {
                    report(.iconNotSquare, "icon '\(source)' is \(header.width)×\(header.height) pixels; icons must be square")
                }
            case .failure(.missing):
                missing.append((diagnostics.count, source, path))
                report(.imageMissing, "")  // worded below, once every use is known
            case .failure(.brokenLink(let target)):
                report(.brokenLink, "image '\(source)' is a symbolic link to '\(target)', which does not exist; point the link at the image, or put the image file itself in its place")
            case .failure(.notAFile(let type)):
                report(.imageMissing, type == .folder
                    ? "'\(source)' is a folder, not an image; name the image file itself, such as \(path)/name.png"
                    : "'\(source)' is not a regular file; replace it with the image file itself")
            case .failure(.outside):
                report(.imageOutsideRoot, "'\(source)' is a symbolic link that leads outside the content folder; put the image itself in the content folder")
            case .failure(.tooLarge(let size)):
                report(.imageTooLarge, "image '\(source)' is \(size) bytes; the limit is \(Self.maxImageSize) bytes (8 MiB): make it smaller")
            case .failure(.unreadable(let reason)):
                report(.fileUnreadable, "image '\(source)' cannot be read: \(reason)")
            case .failure(.format(.empty)):
                report(.imageDamaged, "'\(source)' is an empty file (0 bytes); save or export the picture into it again, as PNG or JPEG")
            case .failure(.format(.notAnImage)):
                report(.imageFormat, "'\(source)' is not a PNG or JPEG file; save the picture as PNG or JPEG")
            case .failure(.format(.truncated(let format))):
                report(.imageDamaged, "'\(source)' is cut short: the \(format == .png ? "PNG" : "JPEG") file ends before its last part, so the app would show it half drawn or not at all; copy or export it again")
            case .failure(.format(.checksum(let chunk))):
                report(.imageDamaged, "'\(source)' is damaged: the bytes of its PNG part \(chunk) do not match their checksum, so the app would show it broken or not at all; copy or export it again")
            case .failure(.format(.unreadableDimensions(let format))):
                report(.imageDimensions, "the size of '\(source)' cannot be read from its \(format == .png ? "PNG" : "JPEG") header; the file may be damaged: export it again")
            }
        }
        // The image a missing one most likely meant is looked for among those nothing uses
        // first, so every use must be known; it is then not also reported unused.
        var suggestions = ImageSuggestion(files: tree.imageFiles)
        var meant = Set<String>()
        for (diagnostic, source, path) in missing {
            let match = suggestions.match(for: path, used: used)
            diagnostics[diagnostic].message = "image '\(source)' does not exist" + Self.advice(match)
            if let match { meant.insert(match.path) }
        }
        diagnostics += samePictures(catalog)
        // The images meant count as used only for `unused`: a missing image is an error, so
        // no bundle is built from these paths.
        return (diagnostics, used.union(meant))
    }

    /// A detail screen's two pictures that are one image in the bundle, though their `src`
    /// differ as written (`duplicate-picture`; the same `src` twice is the catalogue rules'):
    /// two spellings of one path, or two files with the same bytes. A bundle stores an image
    /// once by its SHA-256, which is then the id of both pictures in an app's list.
    private func samePictures(_ catalog: Catalog) -> [EntityDiagnostic] {
        var found: [EntityDiagnostic] = []
        func check(_ kind: EntityReference.Kind, _ id: String, _ images: [ImageReference]) {
            for (index, image) in images.enumerated() {
                guard let path = Self.normalized(image.source), let digest = digests[path] else { continue }
                let earlier = images[..<index].first { other in
                    other.source != image.source && Self.normalized(other.source).flatMap { digests[$0] } == digest
                }
                guard let earlier else { continue }
                let entity = EntityReference(kind, id)
                let same = Self.normalized(earlier.source) == path ? "is the same file as" : "has the same bytes as"
                found.append(EntityDiagnostic(severity: .error, code: .duplicatePicture, entity: entity, field: .picture(index),
                    message: "the image '\(image.source)' \(same) '\(earlier.source)', also shown in \(entity); remove one, or choose another image"))
            }
        }
        check(.company, "", catalog.company.images)
        for product in catalog.products where product.images.count > 1 { check(.product, product.id.rawValue, product.images) }
        for recipe in catalog.recipes where recipe.images.count > 1 { check(.recipe, recipe.id.rawValue, recipe.images) }
        return found
    }

    /// Image files under `images/` that no entity uses. A symbolic link among them that leads
    /// nowhere, or out of the content folder, is not offered for use: using it would be an error.
    func unused(_ used: Set<String>) -> [Diagnostic] {
        tree.imageFiles.filter { !used.contains($0) }.map { path in
            let absolute = tree.root + "/" + path
            let isLink = FileSystem.entryType(absolute) == .symlink
            let real = isLink ? FileSystem.realPath(absolute) : absolute
            let message = if real == nil {
                "\(path) is a symbolic link to nothing, and no content uses it; remove it"
            } else if let real, isLink, !tree.isInside(real) {
                "\(path) is a symbolic link that leads outside the content folder, and no content uses it; remove it"
            } else {
                "\(path) is not used by any content; remove it or refer to it with src=\"\(path)\""
            }
            return Diagnostic(.warning, .imageUnused, file: path, message: message)
        }
    }

    private mutating func header(_ path: String) -> Result<ImageHeader, ImageFailure> {
        if let known = headers[path] { return known }
        let (result, digest) = readHeader(path)
        headers[path] = result
        digests[path] = digest
        return result
    }

    private func readHeader(_ path: String) -> (Result<ImageHeader, ImageFailure>, SHA256.Digest?) {
        let result: Result<ImageHeader, ImageFailure>
        var digest: SHA256.Digest?
        let absolute = tree.root + "/" + Self.pathOnDisk(path, spellings: tree.imageSpellings)
        guard let type = FileSystem.entryType(absolute) else { return (.failure(.missing), nil) }
        guard let real = FileSystem.realPath(absolute) else {
            return (.failure(type == .symlink ? .brokenLink(target: FileSystem.linkTarget(absolute) ?? "?") : .missing), nil)
        }
        guard tree.isInside(real) else { return (.failure(.outside(symlink: type == .symlink)), nil) }
        switch FileSystem.read(absolute, limit: Self.maxImageSize) {
        case .success(let bytes):
            result = ImageHeader.read(bytes).mapError(ImageFailure.format)
            digest = SHA256.hash(data: bytes)
        case .failure(.tooLarge(let size)): result = .failure(.tooLarge(size))
        case .failure(.notAFile(let type)): result = .failure(.notAFile(type))
        case .failure(.unreadable(let reason)): result = .failure(.unreadable(reason))
        }
        return (result, digest)
    }

    /// The path on disk of the file a `src` names (`path`, normalised, in NFC like every
    /// value): `path` itself, or the listed image of that name spelled in another Unicode
    /// form, such as a decomposed "é" (`ContentTree.imageSpellings`).
    static func pathOnDisk(_ path: String, spellings: [String: String]) -> String {
        spellings.isEmpty ? path : spellings[path] ?? path
    }

    /// What to do about a missing image: use the image it most likely meant, or add it.
    private static func advice(_ match: ImageSuggestion.Match?) -> String {
        guard let match else { return "; add the file or correct the path (it is relative to the content folder)" }
        return "; did you mean '\(match.path)'?" + (match.differsOnlyInCase ? " (capital and small letters must match the file's name)" : "")
    }

    /// The path with `.` and empty parts removed; nil for an absolute path, a `..` part, a
    /// backslash or a home-folder path, all of which could leave the content folder.
    static func normalized(_ source: String) -> String? {
        if isPlainRelativePath(source) { return source }
        guard !source.hasPrefix("/"), !source.hasPrefix("~"), !source.contains("\\") else { return nil }
        var parts: [Substring] = []
        for part in source.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}

extension ImageChecker {
    /// The first character in `source` that shows as nothing or changes how the path reads: a
    /// control character (a tab or line break written as `&#9;` or `&#10;`, U+0085), a format
    /// character (a zero-width space, a right-to-left override) or a line or paragraph
    /// separator. A path of printable ASCII, the common case, is passed on its bytes.
    static func firstInvisible(in source: String) -> Unicode.Scalar? {
        if source.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        return source.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }

    /// `invisible` in words, by its code.
    static func words(for invisible: Unicode.Scalar) -> String {
        let code = unicodeCode(invisible.value)
        switch invisible.properties.generalCategory {
        case .control: return "the invisible control character \(code)"
        case .lineSeparator: return "a line separator (\(code))"
        case .paragraphSeparator: return "a paragraph separator (\(code))"
        default: return "the invisible character \(code)" + (invisible.properties.name.map { " (\($0))" } ?? "")
        }
    }

    /// Whether a path is already normal: not empty, no leading `/` or `~`, no backslash, no
    /// empty, `.` or `..` part. The common case, checked on bytes without splitting.
    static func isPlainRelativePath(_ source: String) -> Bool {
        var partLength = 0
        var partIsDots = true
        for byte in source.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                if partLength == 0 || (partIsDots && partLength <= 2) { return false }
                partLength = 0
                partIsDots = true
            case UInt8(ascii: "\\"):
                return false
            case UInt8(ascii: "~") where partLength == 0:
                return false
            default:
                partIsDots = partIsDots && byte == UInt8(ascii: ".")
                partLength += 1
            }
        }
        return partLength > 0 && !(partIsDots && partLength <= 2)
    }
}
