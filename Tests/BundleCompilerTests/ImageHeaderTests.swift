@testable import BundleCompiler
import Foundation
import Testing

/// An image cut short (an interrupted copy or upload) is refused: the header alone said
/// nothing of it, so a PNG cut to 30 bytes passed.
@Suite struct ImageHeaderTests {
    static let picture = Fixtures.valid.appendingPathComponent("images/picture.png")

    /// A baseline JPEG's markers: start of image, a frame of `width`×`height` pixels, a scan,
    /// its data, and (unless cut) end of image.
    static func jpeg(width: Int = 3, height: Int = 2, ended: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0x56]
        return ended ? bytes + [0xFF, 0xD9] : bytes
    }

    @Test func wholeImagesAreRead() throws {
        let png = try [UInt8](Data(contentsOf: Self.picture))
        guard case .success(let header) = ImageHeader.read(png) else { Issue.record("the fixture PNG was refused"); return }
        #expect(header.format == .png)
        // Bytes after IEND are ignored, as decoders ignore them.
        #expect((try? ImageHeader.read(png + [0, 0, 0]).get()) == header)
        #expect((try? ImageHeader.read(Self.jpeg(ended: true)).get()) == ImageHeader(format: .jpeg, width: 3, height: 2))
    }

    @Test func imagesCutShortAreDamaged() throws {
        let png = try [UInt8](Data(contentsOf: Self.picture))
        for length in [30, 33, png.count / 2, png.count - 1] {
            #expect(ImageHeader.read(Array(png.prefix(length))) == .failure(.truncated(.png)), "PNG cut to \(length) bytes")
        }
        #expect(ImageHeader.read(Self.jpeg(ended: false)) == .failure(.truncated(.jpeg)))
        // An end-of-image marker before the scan (here inside an APP1 segment, as in an
        // embedded thumbnail) does not count.
        var early = Self.jpeg(ended: false)
        early.insert(contentsOf: [0xFF, 0xE1, 0x00, 0x04, 0xFF, 0xD9], at: 2)
        #expect(ImageHeader.read(early) == .failure(.truncated(.jpeg)))
    }

    /// A changed byte anywhere in a PNG's chunks fails that chunk's CRC-32: decoders refuse
    /// such a file. Before, only a file cut short was noticed.
    @Test func aPNGWhoseBytesChangedIsDamaged() throws {
        let png = try [UInt8](Data(contentsOf: Self.picture))
        #expect(CRC32.of(ArraySlice("123456789".utf8)) == 0xCBF4_3926)  // the standard check value
        var header = png
        header[17] ^= 0x01  // the width, inside IHDR
        #expect(ImageHeader.read(header) == .failure(.checksum(chunk: "IHDR")))
        var data = png
        data[png.count - 20] ^= 0x40  // inside the last IDAT, before IEND's 12 bytes
        #expect(ImageHeader.read(data) == .failure(.checksum(chunk: "IDAT")))
        let content = try Fixtures.makeContent { content in
            try Data(data).write(to: content.appendingPathComponent("images/picture.png"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(Set(report.diagnostics.map(\.message)) == [
            "'images/picture.png' is damaged: the bytes of its PNG part IDAT do not match their checksum, so the app would show it broken or not at all; copy or export it again",
        ])
    }

    @Test func aCutPictureIsReportedWhereItIsUsed() throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("images/picture.png")
            let bytes = try Data(contentsOf: url)
            try bytes.prefix(bytes.count - 20).write(to: url)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(Set(report.diagnostics.map(\.code.rawValue)) == ["image-damaged"])
        #expect(report.diagnostics.first?.message == "'images/picture.png' is cut short: the PNG file ends before its last part, so the app would show it half drawn or not at all; copy or export it again")
    }

    /// An empty file is said to be empty, not "not a PNG or JPEG"; a Windows path is said to
    /// need '/', not to lead outside the content folder, and the image meant is not unused.
    @Test func anEmptyImageAndABackslashPathAreSaidAsWhatTheyAre() throws {
        #expect(ImageHeader.read([]) == .failure(.empty))
        let content = try Fixtures.makeContent { content in
            try Data().write(to: content.appendingPathComponent("images/picture.png"))
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("src=\"images/icon.png\""))
            try Data(text.replacingOccurrences(of: "src=\"images/icon.png\"", with: "src=\"images\\icon.png\"").utf8).write(to: url)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        let messages = Set(report.diagnostics.map { "\($0.code) \($0.message)" })
        #expect(messages == [
            "image-damaged 'images/picture.png' is an empty file (0 bytes); save or export the picture into it again, as JPEG, PNG, HEIC or WebP",
            "image-missing 'images\\icon.png' separates folders with '\\'; write '/' instead: images/icon.png",
        ])
        // An absolute Windows path leads out of the folder: '/' would not make it right.
        #expect(ImageChecker.normalized("C:\\content\\images\\icon.png") == nil)
        let absolute = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "src=\"images/icon.png\"", with: "src=\"C:\\content\\images\\icon.png\"").utf8).write(to: url)
        }
        defer { Fixtures.remove(absolute) }
        #expect(try Fixtures.validate(absolute).diagnostics.map(\.code.rawValue) == ["image-outside-root"])
    }

    /// A picture over 16383 pixels on a side, or over 50 megapixels, is refused on its header,
    /// before a pixel is decoded, whatever its size in bytes (a flat PNG of 50000×50000 is a
    /// megabyte): the refused JPEGs below hold no pixel data at all, and would be reported as
    /// damaged if anything tried to decode them. 16383 itself passes (real pictures, decoded).
    @Test(arguments: [(16383, 10, true), (10, 16383, true), (16384, 10, false), (10, 16384, false), (8000, 6300, false), (60000, 60000, false)])
    func picturesAreAtMost50MegapixelsAnd16383PixelsOnASide(width: Int, height: Int, passes: Bool) throws {
        let content = try Fixtures.makeContent { content in
            let picture = passes || max(width, height) < 20000 && width * height < 1_000_000
                ? [UInt8](PNGTile.make(width: width, height: height, seed: 1)) : Self.jpeg(width: width, height: height, ended: true)
            try Data(picture).write(to: content.appendingPathComponent("images/photo.jpg"))
            let product = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: product, encoding: .utf8)
            try text.replacingOccurrences(of: "images/picture.png", with: "images/photo.jpg").write(to: product, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        if passes {
            #expect(report.diagnostics == [])
            // Fitted into the detail picture's 1170 × 2340.
            let rendition = try #require(report.pictures["images/photo.jpg"]?.rendition)
            #expect(rendition.width <= 1170 && rendition.height <= 2340 && (rendition.width == 1170 || rendition.height == 2340))
        } else {
            #expect(report.diagnostics.map(\.code.rawValue) == ["image-dimensions"])
            #expect(report.diagnostics.first?.message
                == "image 'images/photo.jpg' is \(width)×\(height) pixels\(width * height > 50_000_000 ? " (\(ImageChecker.megapixels(width * height)))" : ""); the limit is 50 megapixels and 16383 on a side, "
                    + "more than a 48-megapixel phone photo: scale it down")
            #expect(report.pictures["images/photo.jpg"] == nil)
        }
    }

    /// A PNG that declares 50,000 × 50,000 pixels in a sound chunk structure (its pixel data
    /// a few bytes, which no decoder would accept) is refused for its size, so its pixels were
    /// never asked for.
    @Test func aPNGDeclaringBillionsOfPixelsIsRefusedOnItsHeader() throws {
        var png = [UInt8](PNGTile.make(width: 1, height: 1, seed: 2))
        // IHDR's width and height, then its CRC-32 over type and data made anew.
        png.replaceSubrange(16..<24, with: [0x00, 0x00, 0xC3, 0x50, 0x00, 0x00, 0xC3, 0x50])
        let crc = CRC32.of(png[12..<29])
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let content = try Fixtures.makeContent { content in
            try Data(png).write(to: content.appendingPathComponent("images/picture.png"))
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(Set(report.diagnostics.map(\.code.rawValue)) == ["image-dimensions"])
        #expect(report.diagnostics.first?.message.hasPrefix("image 'images/picture.png' is 50000×50000 pixels (2500.0 megapixels); ") == true)
    }
}
