/// What validation does with one picture file's bytes, without a content folder: the format by
/// the first bytes, the structure and header, the limits, the metadata a photo taken into the
/// studio lists, the preview's stand-in (its embedded thumbnail read and decoded), then the
/// renditions a bundle would hold. For the fuzz target
/// `fuzz-picture`, which feeds it hostile bytes.
package enum PictureProbe {
    /// What became of `bytes`, in a word: `refused` (not a picture, damaged, or over the
    /// limits), `undecodable` (libvips could not make a rendition) or `rendered`.
    package static func probe(_ bytes: [UInt8]) -> String {
        guard case .success(let picture) = ImageChecker.picture(in: bytes) else { return "refused" }
        let header = picture.header
        guard header.width <= PictureLimits.side, header.height <= PictureLimits.side,
              header.width * header.height <= PictureLimits.pixels,
              picture.memory.bytes(box: PictureUse.picture.largestBox, orientation: header.orientation) <= PictureLimits.decodeBytes else { return "refused" }
        // The metadata `digno studio` lists of a photo taken in (libvips' and libexif's reading).
        _ = PictureIntake.removed(PictureIntake.metadataLines(bytes, format: picture.format))
        let heif: HEIFStructure? = if case .heif(let structure) = picture.memory.source { structure } else { nil }
        _ = StandIn.make(bytes, source: picture.source, heif: heif, shape: (header.width, header.height),
                         request: RenditionRequest.forSchema2(use: .picture, source: picture.format, hasAlpha: header.hasAlpha))
        // The smallest use alone, and every use's ladder from one decode.
        for uses: Set<PictureUse> in [[.icon], [.icon, .logo, .picture]] {
            let requests = RenditionRequest.ladder(uses: uses, source: picture.format, hasAlpha: header.hasAlpha)
            guard case .success = PictureCodec.render(bytes, picture.source, requests) else { return "undecodable" }
        }
        return "rendered"
    }
}
