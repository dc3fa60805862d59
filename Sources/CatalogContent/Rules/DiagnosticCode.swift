import CatalogModel

/// The stable codes of every problem `digno` reports: the compiler's, about files, XML and
/// images, and the catalogue rules', which a bundle's reader runs too (`EntityDiagnostic`). One
/// registry for both, so that a code is spelled once: `duplicate-id` is the compiler's for two
/// files given one id and the rules' for two promotions or sections. docs/DIAGNOSTICS.md lists
/// them all (a test holds the two together); a code never changes meaning.
package enum DiagnosticCode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    // MARK: Files and folders
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
    case schemaMissing = "schema-missing"
    case schemaOutdated = "schema-outdated"
    case schemaReferenceMissing = "schema-reference-missing"

    // MARK: XML
    case invalidUTF8 = "invalid-utf8"
    case combiningMarks = "combining-marks"
    case encodingNotUTF8 = "encoding-not-utf8"
    case doctypeForbidden = "doctype-forbidden"
    case xmlMalformed = "xml-malformed"
    case xmlTooDeep = "xml-too-deep"
    case xmlTooManyAttributes = "xml-too-many-attributes"
    case xmlTooManyComments = "xml-too-many-comments"
    case wrongRoot = "wrong-root"
    case schemaInvalid = "schema-invalid"

    // MARK: Entities, beyond what the schema says
    case idMismatch = "id-mismatch"
    case linkTarget = "link-target"
    case mixedScriptHost = "mixed-script-host"

    // MARK: The catalogue rules
    case duplicateID = "duplicate-id"
    case emptyField = "empty-field"
    case emptyBlock = "empty-block"
    case emptyLink = "empty-link"
    case controlCharacter = "control-character"
    case nameTooLong = "name-too-long"
    case summaryTooLong = "summary-too-long"
    case addressTooLong = "address-too-long"
    case phoneTooLong = "phone-too-long"
    case hoursTooLong = "hours-too-long"
    case titleTooLong = "title-too-long"
    case textTooLong = "text-too-long"
    case altTooLong = "alt-too-long"
    case imageCount = "image-count"
    case unknownProduct = "unknown-product"
    case unknownRecipe = "unknown-recipe"
    case productUnused = "product-unused"
    case recipeWithoutProduct = "recipe-without-product"
    case retailerSellsNothing = "retailer-sells-nothing"
    case noProducts = "no-products"
    case noRecipes = "no-recipes"
    case noRetailers = "no-retailers"
    case duplicatePosition = "duplicate-position"
    case duplicateName = "duplicate-name"
    case sectionMissing = "section-missing"
    case promotionDates = "promotion-dates"
    case promotionEnded = "promotion-ended"
    case duplicateText = "duplicate-text"
    case duplicateSells = "duplicate-sells"
    case duplicateIngredient = "duplicate-ingredient"
    case duplicatePicture = "duplicate-picture"

    // MARK: Languages and translations
    case languageDeclaration = "language-declaration"
    case languageUndeclared = "language-undeclared"
    case translationTwice = "translation-twice"
    case translationOrphan = "translation-orphan"
    case translationNotText = "translation-not-text"
    case translationMissing = "translation-missing"
    case translationOutdated = "translation-outdated"
    case translationsUnchecked = "translations-unchecked"

    // MARK: A translator's XLIFF file (digno translations import)
    case xliffUnreadable = "xliff-unreadable"
    case xliffLanguage = "xliff-language"
    case xliffUnitUnknown = "xliff-unit-unknown"
    case xliffUnitTwice = "xliff-unit-twice"
    case xliffSourceChanged = "xliff-source-changed"
    case xliffCodeBroken = "xliff-code-broken"

    // MARK: Images
    case imageMissing = "image-missing"
    case imageOutsideRoot = "image-outside-root"
    case imageFormat = "image-format"
    case imageDimensions = "image-dimensions"
    case imageDamaged = "image-damaged"
    case imageTooLarge = "image-too-large"
    case iconNotSquare = "icon-not-square"
    case imageUnused = "image-unused"

    /// The code as reports print it: `name-too-long`.
    package var description: String { rawValue }
}

extension DiagnosticCode {
    /// The code of a text over its limit, by its field: `name-too-long` for a name; nil for a
    /// field with no code of its own (a long alt text is `alt-too-long`, checked with its picture).
    package static func tooLong(_ field: FieldPath) -> DiagnosticCode? {
        switch field {
        case .name: .nameTooLong
        case .summary: .summaryTooLong
        case .address: .addressTooLong
        case .phone: .phoneTooLong
        case .hours: .hoursTooLong
        case .title: .titleTooLong
        case .text: .textTooLong
        default: nil
        }
    }
}
