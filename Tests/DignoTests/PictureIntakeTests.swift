@testable import BundleCompiler
import Foundation
import Testing

/// A photo taken into the content folder by `digno studio` (`PictureIntake`): judged with
/// validation's words, its size as shown, the metadata its renditions leave out listed, and its
/// stand-in; photos made here by vips and exiftool as a phone saves them.
@Suite struct PictureIntakeTests {
    @Test func aPhonePhotoIsTakenUprightWithWhatItTellsListed() async throws {
        let folder = try StandInTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (turned, heic) = try await offThePool {
            let turned = folder.appendingPathComponent("turned.jpg"), heic = folder.appendingPathComponent("phone.heic")
            try CameraPhotos.make(turned, width: 1600, height: 1200, orientation: 6, thumbnail: true)
            try CameraPhotos.make(heic, width: 640, height: 480)
            return (try [UInt8](Data(contentsOf: turned)), try [UInt8](Data(contentsOf: heic)))
        }
        let taken = try await offThePool { try PictureIntake.take(turned, name: "IMG_4032.JPG", element: "image").get() }
        #expect(taken.formatName == "JPEG" && taken.fileExtension == "jpg")
        #expect(taken.width == 1200 && taken.height == 1600, "its size as shown, upright")
        #expect(!taken.isPlaceholder && taken.standInType == "image/jpeg")
        let standIn = try PictureCodec.header(taken.standIn, format: .jpeg).get()
        #expect(standIn.width < standIn.height, "the stand-in upright too")
        #expect(taken.removed.map(\.kind) == [.place, .camera, .author])
        #expect(taken.removed.first { $0.kind == .place }?.value == "60.16990° N, 24.93840° E")
        #expect(taken.removed.first { $0.kind == .camera }?.value == "Apple iPhone 15 Pro")
        #expect(taken.removed.first { $0.kind == .author }?.value.hasPrefix("Editor") == true)

        let phone = try await offThePool { try PictureIntake.take(heic, name: "IMG_4033.HEIC", element: "image").get() }
        #expect(phone.formatName == "HEIC" && phone.fileExtension == "heic" && phone.width == 640)
        #expect(phone.removed.contains { $0.kind == .place })
        // Its renditions as a build makes them: bytes, and kept in the cache beside the folder.
        let content = folder.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let bytes = try await offThePool { PictureIntake.renditionBytes(of: heic, element: "image", contentFolder: content.path) }
        #expect((bytes ?? 0) > 1000)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".digno-cache/renditions").path))

        // Refused with validation's words: an icon that is not square, a file that is no picture.
        let icon = PictureIntake.take(turned, name: "IMG_4032.JPG", element: "icon")
        #expect(icon.failure?.code == "icon-not-square")
        #expect(icon.failure?.message.contains("'IMG_4032.JPG'") == true)
        #expect(PictureIntake.take(Array("%PDF-1.7".utf8), name: "menu.pdf", element: "image").failure?.code == "image-format")
    }

    /// The metadata libvips reads, as its fields name them: what each tells, in a person's order.
    @Test func theMetadataIsToldByWhatItTells() {
        let fields: [(name: String, value: String)] = [
            ("exif-ifd0-Make", "Apple (Apple, ASCII, 6 components, 6 bytes)"),
            ("exif-ifd0-Model", "Apple iPhone 13 (Apple iPhone 13, ASCII, 16 components, 16 bytes)"),
            ("exif-ifd0-Orientation", "6 (Right-top, Short, 1 components, 2 bytes)"),
            ("exif-ifd2-DateTimeOriginal", "2026:11:03 10:22:05 (2026:11:03 10:22:05, ASCII, 20 components, 20 bytes)"),
            ("exif-ifd3-GPSLatitudeRef", "S (S, ASCII, 2 components, 2 bytes)"),
            ("exif-ifd3-GPSLatitude", "33/1 51/1 3549/100 (33, 51, 35.49, Rational, 3 components, 24 bytes)"),
            ("exif-ifd3-GPSLongitudeRef", "E (E, ASCII, 2 components, 2 bytes)"),
            ("exif-ifd3-GPSLongitude", "151/1 12/1 3081/100 (151, 12, 30.81, Rational, 3 components, 24 bytes)"),
            ("exif-ifd3-GPSAltitude", "20/1 (20, Rational, 1 components, 8 bytes)"),
            ("exif-ifd0-Software", "17.1 (17.1, ASCII, 5 components, 5 bytes)"),
            ("exif-ifd2-ExposureTime", "1/120 (1/120 sec., Rational, 1 components, 8 bytes)"),
            ("exif-ifd2-FNumber", "8/5 (f/1.6, Rational, 1 components, 8 bytes)"),
            ("xmp-data", "2842 bytes of binary data"),
        ]
        #expect(PictureIntake.removed(fields) == [
            .init(kind: .place, value: "33.85986° S, 151.20856° E"),
            .init(kind: .camera, value: "Apple iPhone 13"),
            .init(kind: .date, value: "2026-11-03 10:22:05"),
            .init(kind: .author, value: "XMP"),
            .init(kind: .software, value: "17.1"),
            .init(kind: .other, value: "2"),
        ])
        #expect(PictureIntake.removed([("exif-ifd0-Orientation", "1 (Top-left, Short, 1 components, 2 bytes)")]) == [])
        #expect(PictureIntake.degrees("60/1 10/0 1/1") == nil)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
