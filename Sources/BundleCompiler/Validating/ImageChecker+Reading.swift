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
        guard tree.isInside(real) else { return (.failure(.outside(symlink: type == .symlink)), nil) }
        if let cache {
            if trustsCache, let kept = cache.picture(at: absolute) { return kept }
            if let kept = cache.pictureIfUnchanged(at: absolute) { return kept }
        }
        switch FileSystem.readStamped(absolute, limit: Self.maxImageSize) {
        case .success(let (bytes, stamp)):
            let read: (Result<SourcePicture, ImageFailure>, SHA256.Digest?) = (Self.picture(in: bytes), SHA256.hash(data: bytes))
            cache?.store(picture: read, at: absolute, stamp: stamp)
            return read
        case .failure(.tooLarge(let size)): return (.failure(.tooLarge(size)), nil)
        case .failure(.notAFile(let type)): return (.failure(.notAFile(type)), nil)
        case .failure(.unreadable(let reason)): return (.failure(.unreadable(reason)), nil)
        }
    }

    /// The picture in `bytes`: its format by its first bytes, a PNG's or JPEG's structure
    /// checked whole (`ImageHeader`: libvips would only warn of a cut-short file and show it
    /// half grey), then its header through libvips. No pixel is decoded.
    static func picture(in bytes: [UInt8]) -> Result<SourcePicture, ImageFailure> {
        if bytes.isEmpty { return .failure(.format(.empty)) }
        guard let format = PictureFormat.of(bytes) else { return .failure(.notAPicture(other: PictureFormat.otherFormat(bytes))) }
        if format == .png || format == .jpeg, case .failure(let failure) = ImageHeader.read(bytes) {
            return .failure(.format(failure))
        }
        return PictureCodec.header(bytes, format: format)
            .map { SourcePicture(format: format, header: $0) }
            .mapError(ImageFailure.undecodable)
    }
}
