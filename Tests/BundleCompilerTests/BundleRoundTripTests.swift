@testable import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import GRDB
import Testing

/// Every field of `content/` is in the bundle: the catalogue read back from the bundle's rows
/// by CatalogModel equals the catalogue the compiler validated, with image paths replaced by
/// their SHA-256, in its default language (a bundle of schema 2 holds no translation).
@Test func everyFieldOfTheContentIsInTheBundle() throws {
    let folder = try BundleBuildTests.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("catalog.sqlite").path
    let builder = BundleBuilder(contentFolder: BundleBuildTests.shippedContent, output: output, today: Fixtures.today)
    let report = try builder.validate()
    _ = try builder.write(report)
    var whole = try #require(report.catalog)
    #expect(whole.languages.declarations.map(\.code) == ["fi", "sv", "en"])
    let images = BundleImages(pictures: report.pictures)
    whole.mapImages { ImageReference(source: images.sha256(of: $0), alt: $0.alt) }
    whole.products.sort { $0.id.rawValue < $1.id.rawValue }
    whole.recipes.sort { $0.id.rawValue < $1.id.rawValue }
    whole.retailers.sort { $0.id.rawValue < $1.id.rawValue }
    let expected = whole.defaultLanguageOnly

    // Read back by the reader apps use, CatalogModel's, with its own row decoding: nothing of
    // the compiler's writing code.
    var read = try CatalogBundle(path: output, trust: InMemoryTrustStore()).catalog()
    read.products.sort { $0.id.rawValue < $1.id.rawValue }
    read.recipes.sort { $0.id.rawValue < $1.id.rawValue }
    read.retailers.sort { $0.id.rawValue < $1.id.rawValue }
    #expect(read.languages == whole.languages)
    // Every text in every language, as a reader of each sees it (a text marked translate="no"
    // is in the bundle as each language's).
    for language in whole.languages.translated {
        #expect(read.translated(to: language).defaultLanguageOnly == whole.translated(to: language).defaultLanguageOnly, "\(language)")
    }
    let actual = read.defaultLanguageOnly
    #expect(actual.brand == expected.brand)
    #expect(actual.releaseVersion == expected.releaseVersion)
    #expect(actual.releaseDate == expected.releaseDate)
    #expect(actual.sections == expected.sections)
    #expect(actual.home == expected.home)
    #expect(actual.company == expected.company)
    #expect(actual.products == expected.products)
    #expect(actual.recipes == expected.recipes)
    #expect(actual.retailers == expected.retailers)
    #expect(actual == expected)

    let storedImages = try DatabaseQueue(path: output, configuration: BundleBuildTests.readOnly).read { db in
        try Row.fetchAll(db, sql: "SELECT sha256, media_type, width, height, bytes FROM images")
    }
    #expect(storedImages.count == 62)
    for row in storedImages {
        let bytes = [UInt8](row["bytes"] as Data)
        #expect(row["media_type"] == "image/png")
        #expect(ImageHeader.read(bytes) == .success(ImageHeader(format: .png, width: row["width"], height: row["height"])))
    }
}
