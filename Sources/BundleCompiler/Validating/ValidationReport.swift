import CatalogModel

/// The outcome of checking a content folder: every problem found, in print order.
public struct ValidationReport: Sendable {
    /// Every error and warning, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// How many files were checked: XML files and images.
    public var fileCount: Int
    /// The catalogue, when every file it needs could be read (it may still have errors).
    public var catalog: Catalog?
    /// SHA-256 of each XML file that could be read (line ends normalised), for the content
    /// digest; each path once.
    var fileDigests: [ContentDigest.Entry] = []
    /// Every image file the catalogue uses, by its path in the content folder.
    var imagePaths: Set<String> = []
    /// The path on disk of each image whose name there is spelled in another Unicode form
    /// than its path (`ContentTree.imageSpellings`).
    var imageSpellings: [String: String] = [:]

    /// How many errors there are.
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    /// How many warnings there are.
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    /// Whether the content has no errors (warnings are allowed).
    public var isValid: Bool { errorCount == 0 }
}
