import CatalogContent
import CatalogModel
import Crypto

/// Checks every picture the content uses: inside the content folder, present, a JPEG, PNG,
/// HEIC or WebP file whose header reads, within the size limits, square where it must be; makes
/// the renditions of the sound ones (`PictureRenderer`), whose failures are diagnostics too; and
/// warns about image files nothing uses.
struct ImageChecker {
    let tree: ContentTree
    /// Makes the renditions; nil checks the pictures without making any (`check` then returns
    /// none).
    var renderer: PictureRenderer?
    /// Each file's picture, read once however often the file is used.
    private var pictures: [String: Result<SourcePicture, ImageFailure>] = [:]
    /// The SHA-256 of each readable file's bytes: the source of its renditions, and a line of
    /// the content digest.
    private var digests: [String: SHA256.Digest] = [:]

    /// What each picture file gave at the last check with this cache, taken again while the
    /// file's stamp vouches it unchanged (or, with `trustsCache`, as it was): a keystroke in the
    /// language server does not read and hash every photo again.
    let cache: LoadCache?
    let trustsCache: Bool
    /// The entities whose pictures are checked (`ContentValidator.focus`); nil: every one.
    /// With a focus, the others' are read only to know which images are used when one of
    /// the focus's is missing (the one it meant is looked for among those nothing uses).
    var focus: Set<EntityReference>?

    init(tree: ContentTree, renderer: PictureRenderer? = nil, cache: LoadCache? = nil, trustsCache: Bool = false) {
        self.tree = tree
        self.renderer = renderer
        self.cache = cache
        self.trustsCache = trustsCache
    }

    /// A readable picture: its format and header, and the memory its decode takes.
    struct SourcePicture {
        var format: PictureFormat
        var header: PictureCodec.Header
        var memory: DecodeMemory

        /// What the decoder is told of it besides its bytes.
        var source: PictureCodec.Source {
            var source = PictureCodec.Source(format: format, orientation: header.orientation)
            if case .heif(let structure) = memory.source { source.colour = structure.colour }
            return source
        }
    }

    enum ImageFailure: Error {
        case missing, brokenLink(target: String), notAFile(FileSystem.EntryType), outside(link: String), tooLarge(Int), unreadable(String)
        /// None of the four formats; what it most likely is, if known.
        case notAPicture(other: String?)
        /// A PNG's or JPEG's structure is broken (`ImageHeader`'s own checks).
        case format(ImageHeader.Failure)
        /// libvips cannot read the header.
        case undecodable(PictureCodec.Failure)
        /// A kind of its format the decoders do not take: "a 12-bit JPEG", "a lossless JPEG".
        case unsupported(String)
        /// A JPEG with more scans than `PictureLimits.jpegScans`.
        case tooManyScans(Int)
        /// A HEIF file whose boxes cannot be read, in words of what is wrong.
        case heifDamaged(String)
        /// A HEIC whose HEVC streams decode to far more than the size it says.
        case codedSizeLies(width: Int, height: Int, codedPixels: Int)
    }

    /// What `check` found.
    struct Outcome {
        /// The problems of every picture use, still to be given positions.
        var diagnostics: [EntityDiagnostic]
        /// Every path used, with the pictures that missing ones most likely meant.
        var used: Set<String>
        /// The rendition of each picture used, by its path: none when there is an error.
        var renditions: [String: RenderedPicture]
    }

    /// The problems of every image use in `catalog`, still to be given positions, the set of
    /// paths used, with the images that missing ones most likely meant, and the renditions.
    mutating func check(_ catalog: Catalog) -> Outcome {
        var diagnostics: [EntityDiagnostic] = []
        var used = Set<String>()
        // Images that do not exist: the diagnostic that reports each, its `src` and its path.
        var missing: [(diagnostic: Int, source: String, path: String)] = []
        // The uses of each sound picture, and those with a problem, not rendered.
        var uses: [String: Set<PictureUse>] = [:]
        var unsound = Set<String>()
        catalog.forEachImageUse(only: focus) { reference, use, place in
            let source = reference.source
            let normalized = Self.normalized(source)
            if let path = Self.usedPath(source, normalized: normalized) { used.insert(path) }
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
                return
            }
            guard let path = normalized else {
                // A relative Windows path: a name, not a way out of the folder. An absolute one
                // (C:\…, \\server\…) does lead out.
                if source.contains("\\"), !source.hasPrefix("\\"), source.dropFirst().first != ":",
                   let meant = Self.normalized(source.replacingOccurrences(of: "\\", with: "/")) {
                    // The image meant is not also reported unused (`usedPath`).
                    report(.imageMissing, "'\(source)' separates folders with '\\'; write '/' instead: \(meant)")
                    return
                }
                report(.imageOutsideRoot, "'\(source)' leads outside the content folder; give a path relative to the content folder, such as images/name.png")
                return
            }
            // A path into a refused folder (`images` a file, or a link leading out) is not
            // judged: the folder's own error says what to do, once rather than at every use.
            if tree.refusedFolders.contains(where: { path.hasPrefix($0 + "/") }) { return }
            switch Self.judge(picture(path), source: source, path: path, use: use) {
            case .sound:
                // Only what is rendered needs its uses known.
                if renderer != nil { uses[path, default: []].insert(use) }
            case .overLimits(let code, let message):
                unsound.insert(path)
                report(code, message)
            case .missing:
                missing.append((diagnostics.count, source, path))
                report(.imageMissing, "")  // worded below, once every use is known
            case .refused(let code, let message):
                report(code, message)
            }
        }
        // The image a missing one most likely meant is looked for among those nothing uses
        // first, so every use must be known; it is then not also reported unused.
        if focus != nil, !missing.isEmpty {
            catalog.forEachImageUse { reference, _, _ in
                if let path = Self.usedPath(reference.source, normalized: Self.normalized(reference.source)) { used.insert(path) }
            }
        }
        var suggestions = ImageSuggestion(files: tree.imageFiles)
        var meant = Set<String>()
        for (diagnostic, source, path) in missing {
            let match = suggestions.match(for: path, used: used)
            diagnostics[diagnostic].message = "image '\(source)' does not exist" + Self.advice(match)
            if let match { meant.insert(match.path) }
        }
        diagnostics += samePictures(catalog)
        let renditions = render(uses.filter { !unsound.contains($0.key) }, catalog: catalog, diagnostics: &diagnostics)
        // The images meant count as used only for `unused`: a missing image is an error, so
        // no bundle is built from these paths.
        return Outcome(diagnostics: diagnostics, used: used.union(meant), renditions: renditions)
    }

    /// What validation says of a picture read for `use`, `src` `source` (its path in the content
    /// folder `path`): sound, over the limits
    /// of a picture or of its use (not rendered), missing, or refused; with the diagnostic's
    /// code and words. `digno studio`'s intake of a photo judges one by the same words.
    enum Judgement {
        case sound(SourcePicture)
        case overLimits(DiagnosticCode, String)
        case missing
        case refused(DiagnosticCode, String)
    }

    static func judge(_ read: Result<SourcePicture, ImageFailure>, source: String, path: String, use: PictureUse) -> Judgement {
        switch read {
        case .success(let picture):
            let header = picture.header
            let pixels = header.width * header.height
            if header.width > PictureLimits.side || header.height > PictureLimits.side || pixels > PictureLimits.pixels {
                return .overLimits(.imageDimensions, "image '\(source)' is \(header.width)×\(header.height) pixels\(pixels > PictureLimits.pixels ? " (\(Self.megapixels(pixels)))" : ""); "
                    + "the limit is 50 megapixels and \(PictureLimits.side) on a side, more than a 48-megapixel phone photo: scale it down")
            } else if case let needed = picture.memory.bytes(box: use.largestBox, orientation: header.orientation), needed > PictureLimits.decodeBytes {
                return .overLimits(.imageDimensions, "image '\(source)' would take about \(needed / 1_000_000) MB to decode (\(picture.memory.reason)), "
                    + "more than the \(PictureLimits.decodeBytes / 1_000_000) MB a picture may take; the app shows it at most \(use.largestBox.width)×\(use.largestBox.height) pixels: "
                    + "save it at about that size" + (picture.format == .png ? " (and in 8-bit colour)" : ""))
            } else if use == .icon && header.width != header.height {
                return .overLimits(.iconNotSquare, "icon '\(source)' is \(header.width)×\(header.height) pixels\(header.isTurned ? " as shown (turned by its orientation)" : ""); icons must be square")
            } else {
                return .sound(picture)
            }
        case .failure(.missing):
            return .missing
        case .failure(.brokenLink(let target)):
            return .refused(.brokenLink, "image '\(source)' is a symbolic link to '\(target)', which does not exist; point the link at the image, or put the image file itself in its place")
        case .failure(.notAFile(let type)):
            return .refused(.imageMissing, type == .folder
                ? "'\(source)' is a folder, not an image; name the image file itself, such as \(path)/name.png"
                : "'\(source)' is not a regular file; replace it with the image file itself")
        case .failure(.outside(let link)):
            return .refused(.imageOutsideRoot, link == path
                ? "'\(source)' is a symbolic link that leads outside the content folder; put the image itself in the content folder"
                : "'\(source)' leads outside the content folder through '\(link)', a symbolic link to a folder outside it; put the image itself in the content folder")
        case .failure(.tooLarge(let size)):
            // What to aim for: the widest rendition of the use (3×), in pixels.
            let box = use.boxes[0]
            return .refused(.imageTooLarge, "image '\(source)' is \(Self.mebibytes(size)), over the limit of 64 MiB; "
                + "the app shows it at most \(box.width)×\(box.height) pixels: save it at about that size (or at a lower quality)")
        case .failure(.unreadable(let reason)):
            return .refused(.fileUnreadable, "image '\(source)' cannot be read: \(reason)")
        case .failure(.format(.empty)):
            return .refused(.imageDamaged, "'\(source)' is an empty file (0 bytes); save or export the picture into it again, as \(PictureFormat.names)")
        case .failure(.notAPicture(let other)):
            return .refused(.imageFormat, Self.formatMessage(source, other: other))
        case .failure(.format(.notAnImage)):  // not met: the format is known before ImageHeader reads
            return .refused(.imageFormat, Self.formatMessage(source, other: nil))
        case .failure(.format(.truncated(let format))):
            return .refused(.imageDamaged, "'\(source)' is cut short: the \(format == .png ? "PNG" : "JPEG") file ends before its last part, so the app would show it half drawn or not at all; copy or export it again")
        case .failure(.format(.checksum(let chunk))):
            return .refused(.imageDamaged, "'\(source)' is damaged: the bytes of its PNG part \(chunk) do not match their checksum, so the app would show it broken or not at all; copy or export it again")
        case .failure(.format(.unreadableDimensions(let format))):
            return .refused(.imageDimensions, "the size of '\(source)' cannot be read from its \(format == .png ? "PNG" : "JPEG") header; the file may be damaged: export it again")
        case .failure(.undecodable(let failure)):
            return .refused(.imageDamaged, Self.undecodableMessage(source, failure))
        case .failure(.unsupported(let kind)):
            return .refused(.imageFormat, "'\(source)' is \(kind), which the app cannot show; save it as an ordinary (8-bit) JPEG, or as PNG, HEIC or WebP")
        case .failure(.tooManyScans(let scans)):
            return .refused(.imageDimensions, "'\(source)' is a progressive JPEG in \(scans) scans, more than the \(PictureLimits.jpegScans) a picture may have "
                + "(each takes another pass over the whole picture); export it again as an ordinary JPEG")
        case .failure(.heifDamaged(let words)):
            return .refused(.imageDamaged, "'\(source)' is damaged: the parts of the HEIC file that say where its picture is cannot be read, "
                + "so the app would show it broken or not at all; copy or export it again from the original (\(words))")
        case .failure(.codedSizeLies(let width, let height, let pixels)):
            return .refused(.imageDamaged, "'\(source)' is damaged: the HEIC file says its picture is \(width)×\(height) pixels, but holds one of "
                + "\(Self.megapixels(pixels)), which would take far more memory to decode than it says; copy or export it again from the original")
        }
    }

    /// The image file a `src` counts as using, for `unused` and a missing image's suggestion:
    /// its path in the content folder (with a character that shows nothing too: the path meant),
    /// or for a relative Windows path, the one written with '/'; nil for one leading out.
    /// `normalized`: `normalized(source)`, made once by the caller.
    static func usedPath(_ source: String, normalized path: String?) -> String? {
        if let path { return path }
        guard firstInvisible(in: source) == nil, source.contains("\\"), !source.hasPrefix("\\"), source.dropFirst().first != ":" else { return nil }
        return normalized(source.replacingOccurrences(of: "\\", with: "/"))
    }

    /// A detail screen's two pictures that are one image in the bundle, though their `src`
    /// differ as written (`duplicate-picture`; the same `src` twice is the catalogue rules'):
    /// two spellings of one path, or two files with the same bytes. A bundle stores an image
    /// once by its SHA-256, which is then the id of both pictures in an app's list.
    private func samePictures(_ catalog: Catalog) -> [EntityDiagnostic] {
        var found: [EntityDiagnostic] = []
        func check(_ kind: EntityReference.Kind, _ id: String, _ images: [ImageReference]) {
            guard focus?.contains(EntityReference(kind, id)) ?? true else { return }
            let paths = images.map { Self.normalized($0.source) }
            for (index, image) in images.enumerated() {
                guard let path = paths[index], let digest = digests[path] else { continue }
                guard let earlierIndex = images.indices.prefix(index).first(where: { other in
                    images[other].source != image.source && paths[other].flatMap { digests[$0] } == digest
                }) else { continue }
                let earlier = images[earlierIndex]
                let entity = EntityReference(kind, id)
                let same = paths[earlierIndex] == path ? "is the same file as" : "has the same bytes as"
                found.append(EntityDiagnostic(severity: .error, code: .duplicatePicture, entity: entity, field: .picture(index),
                    message: "the image '\(image.source)' \(same) '\(earlier.source)', also shown in \(entity); remove one, or choose another image"))
            }
        }
        check(.company, "", catalog.company.images)
        let products = catalog.products, recipes = catalog.recipes
        for index in products.indices where products[index].images.count > 1 {
            check(.product, products[index].id.rawValue, products[index].images)
        }
        for index in recipes.indices where recipes[index].images.count > 1 {
            check(.recipe, recipes[index].id.rawValue, recipes[index].images)
        }
        return found
    }

    /// Image files under `images/` that no entity uses. A symbolic link among them that leads
    /// nowhere, or out of the content folder, is not offered for use: using it would be an error.
    func unused(_ used: Set<String>) -> [Diagnostic] {
        tree.imageFiles.filter { !used.contains($0) }.compactMap { path in
            let absolute = tree.root + "/" + path
            let isLink = FileSystem.entryType(absolute) == .symlink
            // A link to a folder that a `src` goes through is used: that use's error says it.
            if isLink, used.contains(where: { $0.hasPrefix(path + "/") }) { return nil }
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

    private mutating func picture(_ path: String) -> Result<SourcePicture, ImageFailure> {
        if let known = pictures[path] { return known }
        let (result, digest) = readPicture(path)
        pictures[path] = result
        digests[path] = digest
        return result
    }

    /// Makes the renditions of each sound picture for its uses, and reports at every use of a
    /// picture the renderer could not make.
    private func render(_ uses: [String: Set<PictureUse>], catalog: Catalog, diagnostics: inout [EntityDiagnostic]) -> [String: RenderedPicture] {
        guard let renderer else { return [:] }
        var jobs: [PictureRenderer.Job] = []
        for (path, pathUses) in uses.sorted(by: { String.utf8Precedes($0.key, $1.key) }) {
            guard case .success(let picture) = pictures[path], let digest = digests[path] else { continue }
            jobs.append(PictureRenderer.Job(
                path: path, file: tree.root + "/" + Self.pathOnDisk(path, spellings: tree.imageSpellings), source: digest.hexString,
                picture: picture.source, memory: picture.memory.bytes(box: (pathUses.max() ?? .picture).largestBox, orientation: picture.header.orientation),
                requests: RenditionRequest.ladder(uses: pathUses, source: picture.format, hasAlpha: picture.header.hasAlpha),
                heif: { if case .heif(let structure) = picture.memory.source { structure } else { nil } }(),
                shape: (picture.header.width, picture.header.height)))
        }
        var rendered: [String: RenderedPicture] = [:]
        var failed: [String: PictureRenderer.Outcome] = [:]
        for (job, outcome) in zip(jobs, renderer.render(jobs)) {
            if case .deferred(let standIn) = outcome, case .success(let picture) = pictures[job.path], let box = uses[job.path]?.max()?.largestBox {
                rendered[job.path] = RenderedPicture(
                    source: job.source, rendition: standIn.rendition, ladder: [], fromCache: false,
                    isSmallerThanUse: picture.header.width < box.width && picture.header.height < box.height, standIn: standIn.kind)
                continue
            }
            guard let renditions = outcome.renditions, let main = renditions.first, case .success(let picture) = pictures[job.path],
                  let use = uses[job.path]?.max() else {
                failed[job.path] = outcome
                continue
            }
            // A source smaller than some boxes gives the same size for several: each once.
            var sizes = Set<[Int]>()
            let ladder = renditions.dropFirst().filter { sizes.insert([$0.width, $0.height]).inserted }
            let box = use.largestBox
            rendered[job.path] = RenderedPicture(
                source: job.source, rendition: main, ladder: Array(ladder), fromCache: { if case .cached = outcome { true } else { false } }(),
                isSmallerThanUse: picture.header.width < box.width && picture.header.height < box.height)
        }
        guard !failed.isEmpty else { return rendered }
        catalog.forEachImageUse { reference, _, place in
            guard let path = Self.normalized(reference.source), let outcome = failed[path] else { return }
            let place = place()
            let (code, message): (DiagnosticCode, String) = switch outcome {
            case .failed(let failure): (failure.kind == .tooManyScans ? .imageDimensions : .imageDamaged, Self.undecodableMessage(reference.source, failure))
            default: (.fileUnreadable, "image '\(reference.source)' changed while it was being checked; run the command again when it is saved")
            }
            diagnostics.append(EntityDiagnostic(severity: .error, code: code, entity: place.entity, field: place.field, message: message))
        }
        return rendered
    }
}
