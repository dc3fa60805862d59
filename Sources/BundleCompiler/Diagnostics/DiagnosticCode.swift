/// The stable codes of the problems the compiler finds in files (the catalogue rules have
/// theirs in `CatalogIssue.Code`). README.md lists them all; a code never changes meaning.
package enum DiagnosticCode: String, Hashable, Sendable, CaseIterable {
    // Files and folders
    case missingFile = "missing-file"
    case unexpectedFile = "unexpected-file"
    case fileUnreadable = "file-unreadable"
    case fileTooLarge = "file-too-large"
    case fileCompressed = "file-compressed"
    case fileOutsideRoot = "file-outside-root"
    case brokenLink = "broken-link"
    case notAFolder = "not-a-folder"
    case notAFile = "not-a-file"
    case invalidFileName = "invalid-file-name"
    // XML
    case invalidUTF8 = "invalid-utf8"
    case encodingNotUTF8 = "encoding-not-utf8"
    case doctypeForbidden = "doctype-forbidden"
    case xmlMalformed = "xml-malformed"
    case xmlTooDeep = "xml-too-deep"
    case xmlTooManyAttributes = "xml-too-many-attributes"
    case xmlTooManyComments = "xml-too-many-comments"
    case wrongRoot = "wrong-root"
    case schemaInvalid = "schema-invalid"
    case idMismatch = "id-mismatch"
    case duplicateID = "duplicate-id"
    case linkTarget = "link-target"
    case mixedScriptHost = "mixed-script-host"
    // Images
    case imageMissing = "image-missing"
    case imageOutsideRoot = "image-outside-root"
    case imageFormat = "image-format"
    case imageDimensions = "image-dimensions"
    case imageDamaged = "image-damaged"
    case imageTooLarge = "image-too-large"
    case iconNotSquare = "icon-not-square"
    case imageUnused = "image-unused"
}
