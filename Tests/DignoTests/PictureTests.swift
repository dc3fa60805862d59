@testable import BundleCompiler
import Foundation
import GRDB
import Testing

/// Photos as editors' phones take them, through `digno build`: every rendition in a bundle is
/// upright, in sRGB, without a trace of the photo's metadata, decoded by Pillow and read by
/// exiftool (tools independent of libvips), and the same bytes on every build. One test at a
/// time: each builds its own copy of the photos, which libvips decodes on every core.
@Suite(.serialized) struct PictureTests {
    /// The four photos, made once for the suite (making them, a HEIC above all, is most of
    /// its work): a JPEG turned by its EXIF orientation, a HEIC, a WebP and a PNG, each 1600 ×
    /// 1200 stored pixels in Display P3, with a GPS position, make and model.
    static let photos: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, orientation) in [("photo.jpg", 6), ("photo.heic", 1), ("photo.webp", 1), ("photo.png", 1)] {
            try CameraPhotos.make(folder.appendingPathComponent(file), width: 1600, height: 1200, orientation: orientation)
        }
        return folder
    }

    /// The valid fixture with four of its pictures replaced by the photos: espresso's by the
    /// JPEG, ground coffee's by the HEIC, Café Latte's by the WebP, Café au Lait's by the PNG.
    static func photoContent() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-pictures-\(UUID().uuidString)")
        let content = folder.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.fixtures.appendingPathComponent("valid"), to: content)
        let photos = try Self.photos.get()
        for (file, entity) in [("photo.jpg", "products/espresso.xml"), ("photo.heic", "products/ground-coffee.xml"),
                               ("photo.webp", "recipes/cafe-latte.xml"), ("photo.png", "recipes/cafe-au-lait.xml")] {
            try FileManager.default.copyItem(at: photos.appendingPathComponent(file), to: content.appendingPathComponent("images/" + file))
            let path = content.appendingPathComponent(entity)
            let text = try String(contentsOf: path, encoding: .utf8)
            try text.replacingOccurrences(of: "<image src=\"images/picture.png\"", with: "<image src=\"images/\(file)\"")
                .write(to: path, atomically: true, encoding: .utf8)
        }
        return content
    }

    /// An image row of a bundle, or a row of its renditions (`image` the picture's id).
    struct StoredImage {
        var sha256: String
        var image: String
        var mediaType: String
        var width: Int
        var height: Int
        var bytes: Data

        var fileExtension: String { mediaType == "image/png" ? "png" : mediaType == "image/webp" ? "webp" : "jpg" }
        var pillowFormat: String { mediaType == "image/png" ? "PNG" : mediaType == "image/webp" ? "WEBP" : "JPEG" }
    }

    /// The rows of `images`, and with `renditions` those of schema 4's `renditions` too.
    static func images(_ bundle: URL, renditions: Bool = false) throws -> [StoredImage] {
        let queue = try DatabaseQueue(path: bundle.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let own = try Row.fetchAll(db, sql: "SELECT sha256, sha256 AS image, media_type, width, height, bytes FROM images ORDER BY sha256")
            let ladder = renditions ? try Row.fetchAll(db, sql: "SELECT sha256, image, media_type, width, height, bytes FROM renditions ORDER BY image, width") : []
            return (own + ladder).map {
                StoredImage(sha256: $0["sha256"], image: $0["image"], mediaType: $0["media_type"], width: $0["width"], height: $0["height"], bytes: $0["bytes"])
            }
        }
    }

    /// The image an entity's first picture names in `bundle`.
    static func picture(of table: String, _ key: String, _ id: String, in bundle: URL) throws -> String {
        let queue = try DatabaseQueue(path: bundle.path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchOne(db, sql: "SELECT image FROM \(table) WHERE \(key) = ? AND position = 1", arguments: [id]) ?? "" }
    }

    /// What Pillow sees in each file: its format, size and the colours at the given places
    /// (fractions of the width and height).
    static func pillow(_ files: [URL], at places: [(Double, Double)]) throws -> [[String: Any]] {
        let python = try installedTool("python3", debian: "python3")
        let script = """
            import json, sys
            try:
                from PIL import Image
            except ImportError:
                sys.exit("Pillow is not installed, and this test runs it (pip install pillow)")
            places = json.loads(sys.argv[1])
            found = []
            for path in sys.argv[2:]:
                image = Image.open(path)
                image.load()
                rgb = image.convert("RGB")
                found.append({"format": image.format, "width": image.width, "height": image.height,
                              "colours": [list(rgb.getpixel((int(x * image.width), int(y * image.height)))) for x, y in places]})
            print(json.dumps(found))
            """
        let placesJSON = "[" + places.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        let output = try CameraPhotos.run(python, ["-c", script, placesJSON] + files.map(\.path))
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    }

    static func near(_ found: Any?, _ expected: [Int], tolerance: Int = 12) -> Bool {
        guard let found = found as? [Int], found.count == 3 else { return false }
        return zip(found, expected).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func photosBecomeSmallUprightSRGBRenditionsWithNoMetadata() async throws {
        let content = try await offThePool { try Self.photoContent() }
        let folder = content.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = try await offThePool { try DignoRunner.run(["build", "--content", "content", "--output", "out/catalog.sqlite"], in: folder) }
        #expect(build.status == 0, "\(build.errors)")
        // The sources carry what the renditions must not: exiftool finds it in them.
        let exiftool = try installedTool("exiftool", debian: "libimage-exiftool-perl")
        for photo in ["photo.jpg", "photo.heic", "photo.webp", "photo.png"] {
            let tags = try await offThePool { try CameraPhotos.run(exiftool, ["-j", "-a", "-G1", content.appendingPathComponent("images/" + photo).path]) }
            #expect(tags.contains("\"GPS:GPSLatitude\"") && tags.contains("iPhone 15 Pro") && tags.contains("\"ICC_Profile:ProfileDescription\""), "\(photo): \(tags)")
        }
        #expect(build.output.contains("\npictures: 7 in 22 renditions, "), "\(build.output)")
        #expect(build.output.contains(" (7 made, 0 from the cache); 3 smaller than their use's largest rendition, not enlarged\n"), "\(build.output)")

        for bundle in ["out/catalog.sqlite", "out/catalog.schema-3.sqlite", "out/catalog.schema-2.sqlite"].map(folder.appendingPathComponent) {
            // Schema 4's renditions as well: a WebP at 1170, 780 and 390 pixels wide for each
            // photo (the fixture's three small pictures have one each, at their own size).
            let isLadder = bundle.lastPathComponent == "catalog.sqlite"
            let images = try Self.images(bundle, renditions: isLadder)
            let expectedCount: Int = isLadder ? 22 : 7
            #expect(images.count == expectedCount, "\(bundle.lastPathComponent)")
            let files = folder.appendingPathComponent("renditions-\(bundle.lastPathComponent)")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let written = try images.map { image in
                let file = files.appendingPathComponent(image.sha256 + "." + image.fileExtension)
                try image.bytes.write(to: file)
                return file
            }
            // exiftool finds nothing of the phone's: no EXIF, GPS, XMP, IPTC or ICC group, and
            // no make, model or position by any name.
            let tags = try await offThePool { try CameraPhotos.run(exiftool, ["-j", "-a", "-G1", "-u"] + written.map(\.path)) }
            for group in ["IFD0:", "ExifIFD:", "GPS:", "XMP", "IPTC:", "ICC", "MakerNotes", "IFD1:", "Photoshop:"] {
                #expect(!tags.contains("\"\(group)"), "a rendition keeps \(group) tags: \(tags)")
            }
            for name in ["GPS", "Make", "Model", "Artist", "Creator", "By-line", "iPhone", "Apple"] {
                #expect(!tags.contains(name), "a rendition keeps \(name): \(tags)")
            }
            // Pillow decodes every rendition, at the size the bundle records.
            let decoded = try await offThePool { try Self.pillow(written, at: []) }
            #expect(decoded.count == images.count)
            for (image, seen) in zip(images, decoded) {
                #expect(seen["width"] as? Int == image.width && seen["height"] as? Int == image.height)
                #expect(seen["format"] as? String == image.pillowFormat)
            }

            // The turned JPEG is upright: 1200 × 1600 as shown, fitted to 1170 wide, with the
            // marker (stored top left, turned a quarter clockwise) at the top right, the left
            // half of the drawing above; the colours back in sRGB from Display P3.
            let turned = try Self.picture(of: "product_images", "product_id", "espresso", in: bundle)
            let turnedImage = try #require(images.first { $0.sha256 == turned })
            #expect(turnedImage.mediaType == "image/jpeg" && turnedImage.width == 1170 && turnedImage.height == 1560)
            // Each of its WebPs too (schema 4), at 1170, 780 and 390 pixels wide.
            let turnedLadder = images.filter { $0.image == turned && $0.mediaType == "image/webp" }
            #expect(turnedLadder.map { [$0.width, $0.height] } == (isLadder ? [[390, 520], [780, 1040], [1170, 1560]] : []))
            let uprightFiles = [turnedImage] + turnedLadder
            let upright = try await offThePool {
                try Self.pillow(uprightFiles.map { files.appendingPathComponent($0.sha256 + "." + $0.fileExtension) }, at: [(0.97, 0.03), (0.3, 0.3), (0.5, 0.8)])
            }
            for (image, seen) in zip(uprightFiles, upright) {
                let colours = seen["colours"] as? [Any] ?? []
                #expect(colours.count == 3 && Self.near(colours[0], CameraPhotos.marker) && Self.near(colours[1], CameraPhotos.left)
                        && Self.near(colours[2], CameraPhotos.right), "\(image.mediaType) \(image.width): \(colours)")
            }

            // The others were stored upright: 1600 × 1200 fitted to 1170 wide. The PNG stays PNG.
            for (table, key, id, type) in [("product_images", "product_id", "ground-coffee", "image/jpeg"),
                                           ("recipe_images", "recipe_id", "cafe-latte", "image/jpeg"),
                                           ("recipe_images", "recipe_id", "cafe-au-lait", "image/png")] {
                let sha256 = try Self.picture(of: table, key, id, in: bundle)
                let image = try #require(images.first { $0.sha256 == sha256 })
                #expect(image.mediaType == type && image.width == 1170 && (877...878).contains(image.height), "\(id): \(image.width)×\(image.height)")
                let file = files.appendingPathComponent(sha256 + (type == "image/png" ? ".png" : ".jpg"))
                let seen = try await offThePool { try Self.pillow([file], at: [(0.03, 0.03), (0.3, 0.6), (0.75, 0.5)])[0] }
                let colours = seen["colours"] as? [Any] ?? []
                #expect(colours.count == 3 && Self.near(colours[0], CameraPhotos.marker) && Self.near(colours[1], CameraPhotos.left)
                        && Self.near(colours[2], CameraPhotos.right), "\(id): \(colours)")
            }
        }
    }

    /// The same content gives the same renditions, and so the same bundle, on every build and
    /// with one thread or two; a new build with no cache makes them all again.
    @Test func renditionsAreTheSameBytesOnEveryBuildAndWithAnyNumberOfThreads() async throws {
        let content = try await offThePool { try Self.photoContent() }
        let folder = content.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bundles: [Data] = []
        for (index, workers) in [1, 2, 2].enumerated() {
            var builder = BundleBuilder(contentFolder: content.path, output: folder.appendingPathComponent("out-\(index)/catalog.sqlite").path)
            builder.renditionCache = nil
            builder.renditionWorkers = workers
            let report = try await offThePool { [builder] in try builder.validate() }
            #expect(report.isValid && report.pictures.count == 7 && report.pictures.values.allSatisfy { !$0.fromCache })
            _ = try await offThePool { [builder] in try builder.write(report) }
            bundles.append(try Data(contentsOf: URL(fileURLWithPath: builder.output)))
        }
        #expect(bundles[0] == bundles[1] && bundles[1] == bundles[2])
    }

    /// The line a build ends with, about the pictures.
    static func picturesLine(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// A rebuild makes only the renditions whose source changed, and finds the rest in the
    /// cache beside the content folder; a damaged cache entry is made again, to the same bytes.
    @Test func theCacheMakesOnlyWhatChanged() async throws {
        let content = try await offThePool { try Self.photoContent() }
        let folder = content.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        func build() async throws -> (line: String, bundle: Data) {
            let outcome = try await offThePool { try DignoRunner.run(["build", "--content", "content", "--output", "out/catalog.sqlite"], in: folder) }
            #expect(outcome.status == 0, "\(outcome.errors)")
            return (Self.picturesLine(outcome.output), try Data(contentsOf: folder.appendingPathComponent("out/catalog.sqlite")))
        }
        let first = try await build()
        #expect(first.line.contains(" (7 made, 0 from the cache); "), "\(first.line)")
        let cache = folder.appendingPathComponent(".digno-cache/renditions")
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.count > 3 }
        // An entry per rendition asked for: each of the seven pictures has one use here, so a
        // JPEG or PNG and three WebPs (the same size, for a small one, kept once in the bundle).
        #expect(entries.count == 7 * 4)

        let second = try await build()
        #expect(second.line.contains(" (0 made, 7 from the cache); "), "\(second.line)")
        #expect(second.bundle == first.bundle)

        // A byte of one entry changed (a disk's decay, a hand's edit): made again, the same bytes.
        let damaged = cache.appendingPathComponent(entries[0])
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 10] ^= 0x01
        try bytes.write(to: damaged)
        let third = try await build()
        #expect(third.line.contains(" (1 made, 6 from the cache); "), "\(third.line)")
        #expect(third.bundle == first.bundle)

        // One photo replaced: its rendition alone is made.
        try await offThePool { try CameraPhotos.make(content.appendingPathComponent("images/photo.jpg"), width: 1200, height: 1600) }
        let fourth = try await build()
        #expect(fourth.line.contains(" (1 made, 6 from the cache); "), "\(fourth.line)")
        #expect(fourth.bundle != first.bundle)
    }

    /// Pictures as phones and cameras save them pass up to 48 megapixels; a HEIC or WebP cut
    /// short, another format and a file over 64 MiB are diagnostics at the `src` that names
    /// them, with what to do.
    @Test func theLargestPhotosPassAndBrokenOnesAreSaidWhereTheyAreUsed() async throws {
        let content = try await offThePool { try Self.photoContent() }
        let folder = content.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vips = try installedTool("vips", debian: "libvips-tools")
        let images = content.appendingPathComponent("images")
        // A 48-megapixel photo, 8064 × 6048, as the largest phone cameras take them.
        try await offThePool { try CameraPhotos.run(vips, ["black", images.appendingPathComponent("large.v").path, "8064", "6048", "--bands", "3"]) }
        try await offThePool { try CameraPhotos.run(vips, ["copy", images.appendingPathComponent("large.v").path, images.appendingPathComponent("photo.jpg").path + "[Q=85]"]) }
        try FileManager.default.removeItem(at: images.appendingPathComponent("large.v"))
        let large = try await offThePool { try DignoRunner.run(["build", "--content", "content", "--output", "out/catalog.sqlite"], in: folder) }
        #expect(large.status == 0, "\(large.errors)")
        let turned = try Self.picture(of: "product_images", "product_id", "espresso", in: folder.appendingPathComponent("out/catalog.sqlite"))
        let stored = try #require(try Self.images(folder.appendingPathComponent("out/catalog.sqlite")).first { $0.sha256 == turned })
        #expect(stored.width == 1170 && stored.height == 878 && stored.mediaType == "image/jpeg")

        // The HEIC and the WebP cut in half, a GIF, and a PNG of 65 MiB (a file with a hole).
        for name in ["photo.heic", "photo.webp"] {
            let file = images.appendingPathComponent(name)
            let bytes = try Data(contentsOf: file)
            try bytes.prefix(bytes.count / 2).write(to: file)
        }
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: images.appendingPathComponent("photo.jpg"))
        let huge = images.appendingPathComponent("photo.png")
        try Data().write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let broken = try await offThePool { try DignoRunner.run(["validate", "content"], in: folder) }
        #expect(broken.status == 1)
        let lines = broken.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(broken.output)")
        let expected: [(prefix: String, suffix: String)] = [
            ("products/espresso.xml:15:5: error: 'images/photo.jpg' is a GIF picture, not a JPEG, PNG, HEIC or WebP file; save the picture as JPEG, PNG, HEIC or WebP [image-format]", ""),
            // The HEIC's boxes end inside its image data: the compiler's own reading of them.
            ("products/ground-coffee.xml:10:5: error: 'images/photo.heic' is damaged: the parts of the HEIC file that say where its picture is cannot be read, "
                + "so the app would show it broken or not at all; copy or export it again from the original (the mdat box runs past its end) [image-damaged]", ""),
            ("recipes/cafe-au-lait.xml:14:5: error: image 'images/photo.png' is 65.0 MiB, over the limit of 64 MiB; the app shows it at most 1170×2340 pixels: save it at about that size (or at a lower quality) [image-too-large]", ""),
            // The WebP's: libvips', in parentheses after the words.
            ("recipes/cafe-latte.xml:14:5: error: 'images/photo.webp' cannot be decoded: the file is damaged or cut short, so the app would show it "
                + "broken or not at all; copy or export it again from the original (", ") [image-damaged]"),
            ("4 errors, 0 warnings in ", ""),
        ]
        for (line, (prefix, suffix)) in zip(lines, expected) {
            #expect(line.hasPrefix(prefix) && line.hasSuffix(suffix), "\(line)")
        }
    }
}

/// Runs `work` (running tools, building) on a thread of its own and waits for it without holding
/// one of Swift's cooperative threads, which other suites' servers and awaits need: a test that
/// blocked one for its tools' seconds held the whole run's async work back.
@discardableResult
func offThePool<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Handed<T>, any Error>) in
        Thread.detachNewThread { continuation.resume(with: Result { Handed(value: try work()) }) }
    }.value
}

/// A value handed from a thread to the test that waits for it, once: the thread is done with it.
struct Handed<T>: @unchecked Sendable {
    let value: T
}
