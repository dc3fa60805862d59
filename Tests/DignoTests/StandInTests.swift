@testable import BundleCompiler
import Foundation
import Testing

/// What the preview shows of a photo while its renditions are made (`StandIn`): a camera
/// JPEG's EXIF thumbnail and a phone HEIC's thumbnail item, upright, or a placeholder of the
/// picture's shape; photos made here by vips, exiftool and heif-enc.
@Suite struct StandInTests {
    static let box = RenditionRequest(width: 1170, height: 1170, format: .jpeg, quality: 80)

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-stand-in-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A camera JPEG turned by its EXIF orientation stands in by its thumbnail, turned the same
    /// way: the thumbnail is stored as the picture is.
    @Test func aCameraJPEGsThumbnailStandsInUpright() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (turned, plain) = try await offThePool {
            let turned = folder.appendingPathComponent("turned.jpg"), plain = folder.appendingPathComponent("plain.jpg")
            try CameraPhotos.make(turned, width: 1600, height: 1200, orientation: 6, thumbnail: true)
            try CameraPhotos.make(plain, width: 1600, height: 1200)
            return (try [UInt8](Data(contentsOf: turned)), try [UInt8](Data(contentsOf: plain)))
        }
        let thumbnail = try #require(EXIFThumbnail.find(in: turned))
        let structure = try JPEGStructure.read(Array(thumbnail)).get()
        #expect(structure.width == 160 && structure.height == 120)
        let standIn = try await offThePool {
            StandIn.make(turned, source: PictureCodec.Source(format: .jpeg, orientation: 6), heif: nil, shape: (1200, 1600), request: Self.box)
        }
        #expect(standIn.kind == .thumbnail)
        #expect(standIn.rendition.format == .jpeg && standIn.rendition.width == 120 && standIn.rendition.height == 160)
        let header = try PictureCodec.header(standIn.rendition.bytes, format: .jpeg).get()
        #expect(header.orientation == 1, "no orientation is left for the browser to apply again")

        // One without a thumbnail: a placeholder of its shape.
        #expect(EXIFThumbnail.find(in: plain) == nil)
        let placeholder = StandIn.make(plain, source: PictureCodec.Source(format: .jpeg), heif: nil, shape: (1600, 1200), request: Self.box)
        #expect(placeholder.kind == .placeholder)
        #expect(placeholder.rendition.width == 64 && placeholder.rendition.height == 48)
    }

    /// Cut anywhere, or with its EXIF numbers changed, a JPEG's thumbnail is found within the
    /// file or not at all.
    @Test func aDamagedEXIFBlockGivesNoThumbnailAndNeverReadsPastIt() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try await offThePool {
            let file = folder.appendingPathComponent("photo.jpg")
            try CameraPhotos.make(file, width: 320, height: 240, thumbnail: true)
            return try [UInt8](Data(contentsOf: file))
        }
        let whole = try #require(EXIFThumbnail.find(in: photo))
        for length in 0..<min(photo.count, whole.endIndex + 2) {
            if let found = EXIFThumbnail.find(in: Array(photo.prefix(length))) { #expect(found == whole, "\(length)") }
        }
        // Every byte of the segment's start changed in turn: an offset, a count, an order.
        let exif = try #require(photo.firstRange(of: Array("Exif".utf8))).lowerBound
        var generator = SplitMix64(seed: 61)
        for index in exif..<min(exif + 400, photo.count) {
            var changed = photo
            changed[index] = UInt8.random(in: 0...255, using: &generator)
            if let found = EXIFThumbnail.find(in: changed) { #expect(found.starts(with: [0xFF, 0xD8])) }
        }
    }

    /// A phone HEIC with a thumbnail item (as heif-enc writes one) stands in by it; without,
    /// by a placeholder.
    @Test func aPhoneHEICsThumbnailStandsIn() async throws {
        let heifEnc = try installedTool("heif-enc", debian: "libheif-examples")
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (with, without) = try await offThePool {
            let drawing = folder.appendingPathComponent("drawing.png")
            try CameraPhotos.make(drawing, width: 1280, height: 960)
            let with = folder.appendingPathComponent("with.heic"), without = folder.appendingPathComponent("without.heic")
            try CameraPhotos.run(heifEnc, ["-q", "50", "-t", "160", "-o", with.path, drawing.path])
            try CameraPhotos.run(heifEnc, ["-q", "50", "-o", without.path, drawing.path])
            return (try [UInt8](Data(contentsOf: with)), try [UInt8](Data(contentsOf: without)))
        }
        let structure = try HEIFStructure.read(with).get()
        #expect(structure.hasThumbnail && structure.width == 1280)
        #expect(try HEIFStructure.read(without).get().hasThumbnail == false)
        let standIn = try await offThePool {
            StandIn.make(with, source: PictureCodec.Source(format: .heif), heif: structure, shape: (1280, 960), request: Self.box)
        }
        #expect(standIn.kind == .thumbnail)
        #expect(standIn.rendition.width == 160 && standIn.rendition.height == 120)
        let placeholder = StandIn.make(without, source: PictureCodec.Source(format: .heif), heif: try HEIFStructure.read(without).get(),
                                       shape: (1280, 960), request: Self.box)
        #expect(placeholder.kind == .placeholder)
    }

    /// A placeholder is a PNG that decoders read, of the picture's proportions.
    @Test(arguments: [(1, 1), (4000, 3000), (3000, 4000), (5000, 10), (10, 5000)])
    func aPlaceholderIsAPNGOfThePicturesShape(width: Int, height: Int) throws {
        let placeholder = StandIn.placeholder((width, height))
        #expect(max(placeholder.width, placeholder.height) == 64 && min(placeholder.width, placeholder.height) >= 1)
        let header = try PictureCodec.header(placeholder.bytes, format: .png).get()
        #expect(header.width == placeholder.width && header.height == placeholder.height)
        let request = RenditionRequest(width: 32, height: 32, format: .png, quality: 80)
        #expect((try? PictureCodec.render(placeholder.bytes, PictureCodec.Source(format: .png), request).get()) != nil)
    }
}
