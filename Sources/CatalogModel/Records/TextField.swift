/// A text of a record, as ``TextLanguages`` names it: each is the record's property of that name.
public enum TextField: String, CaseIterable, Hashable, Sendable, Codable, CodingKeyRepresentable {
    /// A product's, recipe's or the company's `name` (a retailer's is the same in every language).
    case name
    /// A product's or recipe's `summary`.
    case summary
    /// A product's, the home's or the company's `body`.
    case body
    /// A recipe's `method`.
    case method
    /// A tab's or promotion's `title`.
    case title
    /// A promotion's or an ingredient line's `text`.
    case text
    /// A picture's `alt`.
    case alt
    /// A retailer's `openingHours`.
    case openingHours
    /// A retailer's `otherInfo`.
    case otherInfo
}
