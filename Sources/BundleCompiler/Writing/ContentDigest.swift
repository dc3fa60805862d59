import CatalogModel
import Crypto
import Foundation

/// The content digest: SHA-256 over a canonical form of the content, so the same content gives
/// the same digest whatever the file order, line endings, indentation or machine. The form is
/// the catalogue as JSON (sorted keys; products, recipes and retailers by id; whitespace already
/// collapsed by the parser), followed by the SHA-256 of every image by path.
enum ContentDigest {
    private struct Canonical: Encodable {
        var catalog: Catalog
        var images: [String: String]
    }

    static func compute(_ catalog: Catalog, images: BundleImages) -> String {
        var canonical = catalog
        canonical.products.sort { $0.id.rawValue < $1.id.rawValue }
        canonical.recipes.sort { $0.id.rawValue < $1.id.rawValue }
        canonical.retailers.sort { $0.id.rawValue < $1.id.rawValue }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Canonical(catalog: canonical, images: images.byPath))) ?? Data()
        return SHA256.hash(data: data).hexString
    }
}
