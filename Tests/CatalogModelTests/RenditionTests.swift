import CatalogModel
import Foundation
import Testing

/// A picture's renditions as an app reads them (schema 4's ladder, or the one image of earlier
/// schemas), and the choice of one for a width in points and a screen scale.
@Suite struct RenditionTests {
    static func rendition(_ width: Int, _ format: ImageFormat, bytes: Int) -> ImageRendition {
        ImageRendition(id: ImageID(rawValue: String(repeating: "\(width % 10)", count: 64)), image: "picture", format: format,
                       width: width, height: width * 4 / 3, byteCount: bytes)
    }

    /// A photo's ladder: a JPEG at 1170, WebPs at 390, 780 and 1170.
    static let photo = [rendition(1170, .jpeg, bytes: 150_000), rendition(1170, .webp, bytes: 100_000),
                        rendition(780, .webp, bytes: 50_000), rendition(390, .webp, bytes: 15_000)]

    @Test func theNarrowestWithThePixelsShownIsChosenThenTheFewestBytes() {
        func chosen(_ width: Double, _ scale: Double, among renditions: [ImageRendition] = Self.photo) -> [Int]? {
            ImageRendition.best(among: renditions, width: width, scale: scale).map { [$0.width, $0.byteCount] }
        }
        // The phone's width at each scale: its own rung.
        #expect(chosen(390, 1) == [390, 15_000])
        #expect(chosen(390, 2) == [780, 50_000])
        // At 3×, of the JPEG and the WebP as wide, the fewer bytes.
        #expect(chosen(390, 3) == [1170, 100_000])
        // Between rungs: the next wider, never a narrower one (which would look blurred).
        #expect(chosen(391, 1) == [780, 50_000])
        #expect(chosen(300, 2.5) == [780, 50_000])
        // Wider than any: the widest there is.
        #expect(chosen(1000, 3) == [1170, 100_000])
        // A tiny or odd request still gets a picture; no rendition, none.
        #expect(chosen(0, 3) == [390, 15_000])
        #expect(chosen(-5, 2) == [390, 15_000])
        #expect(chosen(390, 3, among: []) == nil)
        // A bundle of schema 2 or 3: its one image, whatever the size.
        #expect(chosen(60, 1, among: [Self.rendition(180, .png, bytes: 700)]) == [180, 700])
    }

    /// The committed bundles of schemas 2, 3 and 4 of the same content: in each, a picture has
    /// its own image; in schema 4, its WebPs beside it, each decodable bytes of the size given.
    @Test(arguments: [(BundleFixtures.smallSchema2, 2), (BundleFixtures.smallSchema3, 3), (BundleFixtures.small, 4)])
    func everySchemaGivesAPicturesRenditions(path: String, schema: Int) throws {
        let bundle = try CatalogBundle(path: path)
        #expect(bundle.release.schemaVersion == schema)
        for tab in try bundle.sections() {
            let renditions = try bundle.renditions(of: tab.icon)
            let own = try #require(try bundle.image(tab.icon))
            // Widest first, the picture's own image first of those as wide.
            #expect(renditions.first?.id == tab.icon && renditions.first?.format.mediaType == own.mediaType)
            #expect(renditions.map(\.width) == renditions.map(\.width).sorted(by: >))
            #expect(renditions.dropFirst().allSatisfy { $0.format == .webp } && renditions.count > (schema == 4 ? 1 : 0))
            #expect(schema == 4 || renditions.count == 1)
            for rendition in renditions {
                let stored = try #require(try bundle.image(rendition))
                #expect(stored.id == rendition.id && stored.mediaType == rendition.format.mediaType)
                #expect(stored.width == rendition.width && stored.height == rendition.height && stored.bytes.count == rendition.byteCount)
                #expect(rendition.image == tab.icon)
            }
            // What image(_:width:scale:) reads is the one best(among:) picks.
            for scale in [1.0, 2, 3] {
                let picked = try #require(ImageRendition.best(among: renditions, width: 60, scale: scale))
                #expect(try bundle.image(tab.icon, width: 60, scale: scale)?.id == picked.id)
            }
        }
        // No such picture: nothing, and no error.
        let unknown = ImageID(rawValue: String(repeating: "0", count: 64))
        #expect(try bundle.renditions(of: unknown).isEmpty)
        #expect(try bundle.image(unknown, width: 60, scale: 2) == nil)
    }
}
