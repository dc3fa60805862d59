import CatalogContent
import CatalogModel

/// The outcome of checking a content folder: every problem found, in print order.
package struct ValidationReport: Sendable {
    /// Every error and warning, sorted by file, line and column.
    package var diagnostics: [Diagnostic]
    /// How many files were checked: XML files and images.
    package var fileCount: Int
    /// The catalogue, when every file it needs could be read (it may still have errors).
    package var catalog: Catalog?
    /// How much is translated into each declared language but the default, in declaration
    /// order; empty for a catalogue in one language.
    package var coverage: [TranslationCoverage] = []
    /// Content files left out of the catalogue, and so of `coverage`, for errors of their own:
    /// while one has an error, the counts change, and the report says why.
    package var uncounted: [String] = []
    /// SHA-256 of each XML file that could be read (line ends normalised), for the content
    /// digest; each path once.
    var fileDigests: [ContentDigest.Entry] = []
    /// The rendition of every picture the catalogue uses, by its path in the content folder;
    /// none when a picture has an error.
    var pictures: [String: RenderedPicture] = [:]
    /// The most bytes a bundle may have, if catalog.xml sets it.
    package var budget: BundleBudget?

    /// The preview's stand-ins (`RenditionDeferral`), by the id their picture has in the
    /// preview's bundle (the stand-in's SHA-256): what each shows until the renditions are made.
    package var standIns: [String: StandIn.Kind] {
        var standIns: [String: StandIn.Kind] = [:]
        for picture in pictures.values { if let kind = picture.standIn { standIns[picture.rendition.sha256] = kind } }
        return standIns
    }

    /// Where the preview serves the smallest rendition of the picture at `path` in the
    /// content folder (`/images/SHA-256/120.webp`, or the picture's own `/images/SHA-256` when it
    /// has no ladder), for a thumbnail beside a form's field; nil for a picture the check did
    /// not render.
    package func thumbnailAddress(of path: String) -> String? {
        guard let picture = pictures[path] else { return nil }
        let id = picture.rendition.sha256
        guard let smallest = picture.ladder.min(by: { $0.width < $1.width }) else { return "/images/\(id)" }
        return "/images/\(id)/\(smallest.width).webp"
    }

    /// The pictures' renditions in one line, for a build's summary: how many pictures (each
    /// once, as the bundle stores it, with the files when more files hold them), how many
    /// renditions and their bytes (each distinct rendition once, as a bundle of schema 4 stores
    /// them), how many pictures were made now and how many found in the cache, and how many are
    /// smaller than their use's largest rendition (not enlarged, so the largest screens show
    /// them less sharp).
    package var picturesSummary: String {
        var made = 0, smaller = 0
        var bytes: [String: Int] = [:]
        for picture in pictures.values {
            if !picture.fromCache { made += 1 }
            if picture.isSmallerThanUse { smaller += 1 }
            for rendition in [picture.rendition] + picture.ladder { bytes[rendition.sha256] = rendition.bytes.count }
        }
        // Counted as the bundle stores them, as the build's line does: files of the same bytes
        // are one picture.
        let distinct = Set(pictures.values.map(\.rendition.sha256)).count
        let files = distinct == pictures.count ? "" : " (from \(pictures.count) files: files of the same picture are one)"
        return "pictures: \(distinct)\(files) in \(bytes.count) renditions, \(bytes.values.reduce(0, +)) bytes "
            + "(\(made) made, \(pictures.count - made) from the cache); "
            + "\(smaller) smaller than their use's largest rendition, not enlarged"
    }

    /// How many errors there are.
    package var errorCount: Int { diagnostics.count { $0.severity == .error } }
    /// How many warnings there are.
    package var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    /// Whether the content has no errors (warnings are allowed).
    package var isValid: Bool { errorCount == 0 }

    /// What `digno validate` and `digno build` exit with for this report: 0 when the content
    /// is valid (warnings allowed), 1 when it has errors, and 2 when a file could not be read
    /// (`file-unreadable`), an I/O failure rather than a mistake in the content.
    package var exitStatus: Int32 {
        if diagnostics.contains(where: { $0.code == .fileUnreadable }) { return 2 }
        return isValid ? 0 : 1
    }
}

extension ValidationReport {
    /// A report of diagnostics found outside a validation, such as `digno translations
    /// import`'s, to print in the validator's formats.
    package init(diagnostics: [Diagnostic], fileCount: Int) {
        self.init(diagnostics: diagnostics.sorted(by: Diagnostic.printOrder), fileCount: fileCount, catalog: nil)
    }
}
