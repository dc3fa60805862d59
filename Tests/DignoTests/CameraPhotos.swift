import Foundation

/// Photos as phones take them, made by the tests (nothing copyrighted is committed): drawn here
/// as a PPM file, then given a Display P3 colour profile and saved as JPEG, HEIC, WebP or PNG by
/// libvips' own `vips` command, then given a phone's metadata by exiftool: a GPS position, a
/// make and model, and an orientation.
///
/// The drawing: the left half `left`, the right half `right`, and a `marker` square in the
/// top-left eighth as stored, so that a test finds where the orientation put it.
enum CameraPhotos {
    /// The drawing's colours in sRGB: what a rendition converted back to sRGB must show.
    static let left: [Int] = [200, 60, 40]
    static let right: [Int] = [40, 90, 200]
    static let marker: [Int] = [40, 200, 60]

    /// The phone that "took" the photos, as exiftool writes its tags.
    static let metadata = [
        "-Make=Apple", "-Model=iPhone 15 Pro", "-GPSLatitude=60.1699", "-GPSLatitudeRef=N",
        "-GPSLongitude=24.9384", "-GPSLongitudeRef=E", "-Artist=Editor", "-XMP-dc:Creator=Editor", "-IPTC:By-line=Editor",
    ]

    /// Writes a photo of `width` × `height` stored pixels at `file`, in the format its
    /// extension names (`jpg`, `heic`, `webp`, `png`), with the phone's metadata and, where the
    /// format carries one in EXIF (JPEG), `orientation`; and with `thumbnail`, a JPEG's EXIF
    /// thumbnail of the drawing as stored (160 pixels its longest side, as cameras write them).
    static func make(_ file: URL, width: Int, height: Int, orientation: Int = 1, quality: Int = 90, thumbnail: Bool = false) throws {
        let vips = try installedTool("vips", debian: "libvips-tools")
        let exiftool = try installedTool("exiftool", debian: "libimage-exiftool-perl")
        let scratch = file.deletingLastPathComponent().appendingPathComponent(".draw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let drawing = scratch.appendingPathComponent("drawing.ppm")
        try ppm(width: width, height: height).write(to: drawing)
        // The sRGB drawing's colours as Display P3 values, with the P3 profile attached: the
        // same colours, stored as an iPhone stores them.
        let p3 = scratch.appendingPathComponent("p3.v")
        try run(vips, ["icc_transform", drawing.path, p3.path, "p3", "--input-profile", "srgb", "--embedded=false"])
        let options = file.pathExtension == "png" ? "" : "[Q=\(quality)]"
        try run(vips, ["copy", p3.path, file.path + options])
        var tags = metadata
        if file.pathExtension == "jpg" { tags += ["-n", "-Orientation=\(orientation)"] }
        if thumbnail {
            let small = scratch.appendingPathComponent("thumbnail.jpg")
            try run(vips, ["thumbnail", drawing.path, small.path, "160"])
            tags.append("-ThumbnailImage<=\(small.path)")
        }
        try run(exiftool, ["-q", "-overwrite_original"] + tags + [file.path])
    }

    /// The drawing, as a binary PPM.
    static func ppm(width: Int, height: Int) -> Data {
        // Two kinds of row, each made once: with the marker (the top eighth) and without.
        func row(marked: Bool) -> [UInt8] {
            (0..<width).flatMap { x in (marked && x < width / 8 ? marker : x < width / 2 ? left : right).map { UInt8($0) } }
        }
        let marked = row(marked: true), plain = row(marked: false)
        var bytes = Array("P6 \(width) \(height) 255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        for y in 0..<height { bytes += y < height / 8 ? marked : plain }
        return Data(bytes)
    }

    /// Runs `tool` and returns its standard output; throws with its standard error if it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let outcome = try DignoRunner.run(URL(fileURLWithPath: tool), arguments)
        guard outcome.status == 0 else { throw ToolFailure(tool: tool, arguments: arguments, errors: outcome.errors) }
        return outcome.output
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var tool: String
        var arguments: [String]
        var errors: String
        var description: String { "\(tool) \(arguments.joined(separator: " ")) failed: \(errors)" }
    }
}
