import CatalogContent
import CatalogModel

/// A new entity's content file as the shipped files lay one out: the XML declaration, the root
/// with its id and the schema reference, and each element the schema requires, in its order:
/// the name, the icon (or logo) and first picture chosen (which the schema needs, so that the
/// file is whole from the start and every rule runs on it), the texts empty. Its empty texts are
/// the check's to point at, each at its field in the form, until the editor writes them.
package enum NewContentFile {
    /// The kinds a new file can be made for: one file each.
    package static let kinds: [EntityReference.Kind] = [.product, .recipe, .retailer]

    /// `icon`: the icon's (a retailer's logo's) file; `picture`: the first picture's, for a
    /// product or recipe.
    package static func text(kind: EntityReference.Kind, id: String, name: String, icon: String, picture: String) -> String? {
        let elements: [String]
        let named = "  <name>\(XLIFFWriter.text(name))</name>"
        let iconFile = XLIFFWriter.attribute(icon), pictureFile = XLIFFWriter.attribute(picture)
        switch kind {
        case .product:
            elements = [named, "  <icon src=\"\(iconFile)\"/>", "  <summary></summary>", "  <body>", "    <p></p>", "  </body>", "  <images>",
                        "    <image src=\"\(pictureFile)\" alt=\"\"/>", "  </images>"]
        case .recipe:
            elements = [named, "  <icon src=\"\(iconFile)\"/>", "  <summary></summary>", "  <ingredients>", "    <ingredient></ingredient>", "  </ingredients>",
                        "  <method>", "    <p></p>", "  </method>", "  <images>", "    <image src=\"\(pictureFile)\" alt=\"\"/>", "  </images>"]
        case .retailer:
            elements = [named, "  <logo src=\"\(iconFile)\"/>", "  <address></address>", "  <phone></phone>", "  <hours></hours>"]
        default:
            return nil
        }
        let root = kind.rawValue
        return (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                 "<\(root) id=\"\(XLIFFWriter.attribute(id))\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"../schema/content.xsd\">"]
                + elements + ["</\(root)>", ""]).joined(separator: "\n")
    }
}

extension NewContentFile {
    /// A new promotion's element, one level in from `<promotions>` (its first line without
    /// the indentation): its id and days, its title, an empty text, and its picture.
    package static func promotion(id: String, title: String, firstDay: Day, lastDay: Day, picture: String) -> String {
        [
            "<promotion id=\"\(XLIFFWriter.attribute(id))\" first-day=\"\(firstDay)\" last-day=\"\(lastDay)\">",
            "  <title>\(XLIFFWriter.text(title))</title>",
            "  <text></text>",
            "  <image src=\"\(XLIFFWriter.attribute(picture))\" alt=\"\"/>",
            "</promotion>",
        ].joined(separator: "\n")
    }
}
