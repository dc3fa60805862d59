import CatalogModel

/// A picture or icon used by the content: a path relative to the content root, such as
/// `images/products/espresso-1.png`, and for pictures the text a screen reader reads.
package struct ImageReference: Hashable, Sendable, Codable {
    /// The path relative to the content root.
    package var source: String
    /// The text alternative; nil for icons and logos, which repeat the name beside them.
    package var alt: String?

    /// An image reference from its path and optional text alternative.
    package init(source: String, alt: String? = nil) {
        self.source = source
        self.alt = alt
    }
}
