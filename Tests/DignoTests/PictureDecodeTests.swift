@testable import BundleCompiler
import Foundation
import Testing

/// The compiler's own reading of a picture before it is decoded, and the decoder's limits, on
/// pictures libvips' `vips` command encodes here: a JPEG's scans counted and limited by the
/// decoder itself, a HEIC's coded size read from its HEVC parameter set, and the memory the
/// decodes share (Tests/Pictures runs the same through `digno build`, measuring the process).
@Suite struct PictureDecodeTests {
    /// A picture `vips` saves from a `width` × `height` drawing of two colours, with `options`.
    static func encoded(_ name: String, width: Int, height: Int, options: String = "") throws -> [UInt8] {
        let vips = try installedTool("vips", debian: "libvips-tools")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawing = folder.appendingPathComponent("drawing.ppm")
        try CameraPhotos.ppm(width: width, height: height).write(to: drawing)
        let file = folder.appendingPathComponent(name)
        try CameraPhotos.run(vips, ["copy", drawing.path, file.path + (options.isEmpty ? "" : "[\(options)]")])
        return try [UInt8](Data(contentsOf: file))
    }

    @Test func aProgressiveJPEGsScansAreCountedAndTheDecoderStopsAtItsLimit() async throws {
        let progressive = try await offThePool { try Self.encoded("progressive.jpg", width: 320, height: 240, options: "interlace") }
        let structure = try JPEGStructure.read(progressive).get()
        // libjpeg's own progression for colour: 10 scans; the whole file walked to its end.
        #expect(structure.scans == 10 && structure.isWhole && structure.frame == 0xC2 && structure.keepsCoefficients)
        let request = RenditionRequest(width: 180, height: 180, format: .jpeg, quality: 80)
        var source = PictureCodec.Source(format: .jpeg)
        #expect((try? PictureCodec.render(progressive, source, request).get())?.width == 180)
        // Allowed 9, the decoder stops at the tenth: a count of scans, not a time.
        source.maxScans = 9
        guard case .failure(let failure) = PictureCodec.render(progressive, source, request) else {
            Issue.record("a JPEG of 10 scans was decoded with a limit of 9")
            return
        }
        #expect(failure.kind == .tooManyScans && failure.reason == "scan 10 of at most 9")
        source.maxScans = 10
        #expect((try? PictureCodec.render(progressive, source, request).get()) != nil)

        let baseline = try await offThePool { try Self.encoded("baseline.jpg", width: 320, height: 240) }
        let plain = try JPEGStructure.read(baseline).get()
        #expect(plain.scans == 1 && plain.frame == 0xC0 && !plain.keepsCoefficients && plain.coefficientBytes == 0)
    }

    /// A baseline JPEG's markers: start of image, a frame of `width`×`height` pixels, a scan and
    /// its data, end of image.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00,
         0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0x56, 0xFF, 0xD9]
    }

    /// A JPEG whose segments hold another JPEG (an EXIF thumbnail) is whole only when its own
    /// image reaches its end.
    @Test func aJPEGIsWholeOnlyIfItsOwnImageIs() throws {
        let thumbnail = Self.jpeg(width: 3, height: 2)
        var app1: [UInt8] = Array("Exif\0\0".utf8) + thumbnail
        app1 = [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        let main = Self.jpeg(width: 640, height: 480)
        let camera = [0xFF, 0xD8] + app1 + main.dropFirst(2)
        let whole = try JPEGStructure.read(Array(camera)).get()
        #expect(whole.width == 640 && whole.height == 480 && whole.isWhole && whole.scans == 1)
        // Cut inside the main image's scan: the thumbnail's end-of-image marker does not count.
        let cut = Array(camera.prefix(camera.count - 3))
        #expect((try? JPEGStructure.read(cut).get())?.isWhole == false)
        #expect(ImageHeader.read(cut) == .failure(.truncated(.jpeg)))
    }

    /// The coefficients a progressive JPEG keeps: 128 bytes a block of each component, at its
    /// own sampling, blocks rounded up to whole MCUs.
    @Test func theCoefficientsOfAProgressiveJPEGAreCountedPerComponent() {
        func structure(_ factors: [(Int, Int)]) -> JPEGStructure {
            JPEGStructure(frame: 0xC2, precision: 8, width: 8064, height: 6048,
                          components: factors.map { JPEGStructure.Sampling(horizontal: $0.0, vertical: $0.1) }, scans: 10, isWhole: true)
        }
        // 4:4:4: three full planes of 1008 × 756 blocks.
        #expect(structure([(1, 1), (1, 1), (1, 1)]).coefficientBytes == 3 * 1008 * 756 * 128)
        // 4:2:0: a full luma plane and two quarter chroma planes.
        #expect(structure([(2, 2), (1, 1), (1, 1)]).coefficientBytes == (1008 * 756 + 2 * 504 * 378) * 128)
    }

    @Test func aHEICsCodedSizeIsReadFromItsHEVCParameterSet() async throws {
        let heic = try await offThePool { try Self.encoded("photo.heic", width: 640, height: 480) }
        let structure = try HEIFStructure.read(heic).get()
        #expect(structure.primaryType == "hvc1" && structure.isHEIC)
        #expect(structure.width == 640 && structure.height == 480 && !structure.codedSizeLies)
        // Coded in whole 8-pixel units at least, as the encoder padded it.
        #expect(structure.codedPixels >= 640 * 480 && structure.codedPixels < 704 * 544)
        #expect(structure.bitDepth == 8 && structure.colour == nil)
        // A 10-bit stream (as high-dynamic-range phones write them) decodes at two bytes a
        // sample: its memory counts twice.
        let deep = try await offThePool { try Self.encoded("deep.heic", width: 640, height: 480, options: "bitdepth=10") }
        let deepStructure = try HEIFStructure.read(deep).get()
        #expect(deepStructure.bitDepth == 10)
        #expect(DecodeMemory(source: .heif(deepStructure)).decodeBytes(box: (1170, 2340)) == 2 * DecodeMemory(source: .heif(structure)).decodeBytes(box: (1170, 2340)))
        // Cut anywhere, its boxes are refused in words, never read past the end.
        for length in stride(from: 0, to: heic.count, by: max(1, heic.count / 97)) {
            if case .success(let cut) = HEIFStructure.read(Array(heic.prefix(length))) {
                #expect(cut.codedPixels > 0, "\(length)")
            }
        }
    }

    /// A full box too short for its own version, flags and count (found by fuzz-picture: a
    /// `meta` of no bytes, an `iinf` of one) is refused in words, not read as a backwards range.
    @Test func aFullBoxShorterThanItsHeaderIsRefused() {
        func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt32(8 + content.count).bigEndian, Array.init) + Array(type.utf8) + content
        }
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let pitm = box("pitm", [0, 0, 0, 0, 0, 1])
        let iinf = box("iinf", [0, 0, 0, 0, 0, 1] + box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array("hvc1".utf8) + [0]))
        let iprp = box("iprp", box("ipco", []) + box("ipma", [0, 0, 0, 0, 0, 0, 0, 0]))
        let files = [
            ftyp + box("meta", []),
            ftyp + box("meta", [0, 0]),
            ftyp + box("meta", [0, 0, 0, 0] + pitm + box("iinf", [1])),
            ftyp + box("meta", [0, 0, 0, 0] + pitm + iinf + iprp + box("iref", [0])),
        ]
        for file in files {
            #expect(HEIFStructure.read(file) == .failure(.damaged("a box ends too soon")))
        }
    }

    /// Decodes start when their memory fits beside those running, or when none is: two that do
    /// not fit together run one after the other, and one over the limit still runs alone.
    @Test func theBudgetRunsOnlyWhatFits() async throws {
        let budget = DecodeBudget(limit: 400)
        let counter = RunningCounter()
        let jobs = [300, 300, 100, 50, 500, 100]
        try await offThePool {
            DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
                budget.acquire(jobs[index])
                counter.start(jobs[index])
                // Other threads get their turn meanwhile.
                for _ in 0..<1000 { sched_yield() }
                counter.stop(jobs[index])
                budget.release(jobs[index])
            }
        }
        #expect(counter.most <= 500)
        #expect(counter.mostOverLimit == 0)
        #expect(budget.peak <= 500)
    }
}

/// The bytes held by the jobs running, and the most at once.
private final class RunningCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var held = 0
    private var count = 0
    private(set) var most = 0
    /// How often a job ran beside another while their bytes passed the limit of 400.
    private(set) var mostOverLimit = 0

    func start(_ bytes: Int) {
        lock.withLock {
            held += bytes
            count += 1
            most = max(most, held)
            if held > 400 && count > 1 { mostOverLimit += 1 }
        }
    }

    func stop(_ bytes: Int) {
        lock.withLock {
            held -= bytes
            count -= 1
        }
    }
}
