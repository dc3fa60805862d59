/// The words of the picture diagnostics that more than one place says.
extension ImageChecker {
    /// `pixels` in megapixels, one decimal: "12.2 megapixels".
    /// `65.0 MiB`, to a tenth.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) megapixels"
    }

    /// A file in none of the four formats, and what it is where its first bytes tell.
    static func formatMessage(_ source: String, other: String?) -> String {
        "'\(source)' is " + (other.map { "\($0), not a \(PictureFormat.names) file" } ?? "not a \(PictureFormat.names) file")
            + "; save the picture as \(PictureFormat.names)"
    }

    /// A picture the decoder cannot read or finish: what is wrong and what to do, the
    /// decoder's own words after them in parentheses.
    static func undecodableMessage(_ source: String, _ failure: PictureCodec.Failure) -> String {
        switch failure.kind {
        case .damaged:
            "'\(source)' is damaged: part of its picture data is missing or broken, so the app would show it with grey, black or garbled parts; "
                + "copy or export it again from the original (\(failure.reason))"
        case .tooManyScans:
            "'\(source)' is a progressive JPEG in more than \(PictureLimits.jpegScans) scans, more than a picture may have "
                + "(each takes another pass over the whole picture); export it again as an ordinary JPEG (\(failure.reason))"
        case .failed:
            "'\(source)' cannot be decoded: the file is damaged or cut short, so the app would show it broken or not at all; "
                + "copy or export it again from the original (\(failure.reason))"
        }
    }

    /// What to do about a missing image: use the image it most likely meant, or add it.
    static func advice(_ match: ImageSuggestion.Match?) -> String {
        guard let match else { return "; add the file or correct the path (it is relative to the content folder)" }
        return "; did you mean '\(match.path)'?" + (match.differsOnlyInCase ? " (capital and small letters must match the file's name)" : "")
    }
}
