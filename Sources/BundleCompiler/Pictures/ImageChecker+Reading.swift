import Crypto

// Reading one picture file: where it leads, its bytes, its format and header, its digest;
// from the load cache while its stamp vouches for it.
extension ImageChecker {
    /// The picture at `path`, a path in the content folder as `src` gives it, and the SHA-256
    /// of its bytes when they could be read.
    func readPicture(_ path: String) -> (Result<SourcePicture, ImageFailure>, SHA256.Digest?) {
        let absolute = tree.root + "/" + Self.pathOnDisk(path, spellings: tree.imageSpellings)
        guard let type = FileSystem.entryType(absolute) else { return (.failure(.missing), nil) }
        guard let real = FileSystem.realPath(absolute) else {
            return (.failure(type == .symlink ? .brokenLink(target: FileSystem.linkTarget(absolute) ?? "?") : .missing), nil)
        }
        guard tree.isInside(real) else {
            // The link that leads out: the file itself, or a folder on its path.
            let onDisk = Self.pathOnDisk(path, spellings: tree.imageSpellings).split(separator: "/")
            let link = (1...onDisk.count).lazy.map { onDisk.prefix($0).joined(separator: "/") }
                .first { FileSystem.entryType(tree.root + "/" + $0) == .symlink }
            return (.failure(.outside(link: link ?? path)), nil)
        }
        if let cache {
            if trustsCache, let kept = cache.picture(at: absolute) { return kept }
            if let kept = cache.pictureIfUnchanged(at: absolute) { return kept }
        }
        switch FileSystem.readStamped(absolute, limit: PictureLimits.fileBytes) {
        case .success(let (bytes, stamp)):
            let read: (Result<SourcePicture, ImageFailure>, SHA256.Digest?) = (Self.picture(in: bytes), SHA256.hash(data: bytes))
            cache?.store(picture: read, at: absolute, stamp: stamp)
            return read
        case .failure(.tooLarge(let size)): return (.failure(.tooLarge(size)), nil)
        case .failure(.notAFile(let type)): return (.failure(.notAFile(type)), nil)
        case .failure(.unreadable(let reason)): return (.failure(.unreadable(reason)), nil)
        }
    }

    /// The picture in `bytes`: its format by its first bytes, then its own structure read
    /// (`ImageHeader` and `JPEGStructure`, `HEIFStructure`): whole, of a kind the decoders take,
    /// with the size its decoder will make and so the memory its decode takes (`DecodeMemory`);
    /// then its header through libvips. No pixel is decoded.
    static func picture(in bytes: [UInt8]) -> Result<SourcePicture, ImageFailure> {
        if bytes.isEmpty { return .failure(.format(.empty)) }
        guard let format = PictureFormat.of(bytes) else { return .failure(.notAPicture(other: PictureFormat.otherFormat(bytes))) }
        var memory: DecodeMemory.Source
        // The size by the file's own structure, where the compiler reads it.
        var size: (width: Int, height: Int)?
        switch format {
        case .png:
            switch ImageHeader.read(bytes) {
            case .failure(let failure): return .failure(.format(failure))
            case .success(let header):
                size = (header.width, header.height)
                memory = .png(width: header.width, height: header.height, channels: ImageHeader.pngChannels(bytes))
            }
        case .jpeg:
            switch JPEGStructure.read(bytes) {
            case .failure(.noFrame): return .failure(.format(.unreadableDimensions(.jpeg)))
            case .failure(.cutShort): return .failure(.format(.truncated(.jpeg)))
            case .success(let structure):
                guard structure.isWhole else { return .failure(.format(.truncated(.jpeg))) }
                if let kind = structure.unsupportedKind { return .failure(.unsupported(kind)) }
                if structure.scans > PictureLimits.jpegScans { return .failure(.tooManyScans(structure.scans)) }
                size = (structure.width, structure.height)
                memory = .jpeg(structure)
            }
        case .heif:
            switch HEIFStructure.read(bytes) {
            case .failure(.damaged(let words)): return .failure(.heifDamaged(words))
            case .success(let structure):
                guard structure.isHEIC else { return .failure(.notAPicture(other: structure.otherKind)) }
                if structure.codedSizeLies { return .failure(.codedSizeLies(width: structure.width, height: structure.height, codedPixels: structure.codedPixels)) }
                size = (structure.width, structure.height)
                memory = .heif(structure)
            }
        case .webp:
            memory = .webp(width: 0, height: 0, lossless: PictureFormat.isLosslessWebP(bytes))
        }
        // Larger than any picture may be: refused on this size (`image-dimensions`), before
        // libvips, whose decoders refuse some of them as if the file were damaged.
        if let size, size.width > PictureLimits.side || size.height > PictureLimits.side || size.width * size.height > PictureLimits.pixels {
            return .success(SourcePicture(format: format, header: PictureCodec.Header(storedWidth: size.width, storedHeight: size.height, orientation: 1, hasAlpha: false),
                                          memory: DecodeMemory(source: memory)))
        }
        return PictureCodec.header(bytes, format: format)
            .map { header in
                if case .webp(_, _, let lossless) = memory { memory = .webp(width: header.storedWidth, height: header.storedHeight, lossless: lossless) }
                return SourcePicture(format: format, header: header, memory: DecodeMemory(source: memory))
            }
            .mapError(ImageFailure.undecodable)
    }
}
