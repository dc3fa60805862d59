@testable import BundleCompiler
import Crypto
import Testing

/// Each file's hash for the content digest ignores CR LF versus LF, and nothing else.
@Suite struct FileDigestTests {
    static func digest(_ text: String) -> String { FileLoader.digest(Array(text.utf8)) }

    @Test func crlfAndLFGiveTheSameHash() {
        #expect(Self.digest("<a>\r\n  <b/>\r\n</a>\r\n") == Self.digest("<a>\n  <b/>\n</a>\n"))
        #expect(Self.digest("\r\n") == Self.digest("\n"))
        #expect(Self.digest("\r\n\r\n\r\n") == Self.digest("\n\n\n"))
    }

    @Test func aLoneCRIsKept() {
        #expect(Self.digest("a\rb") != Self.digest("ab"))
        #expect(Self.digest("a\r") != Self.digest("a"))
        // CR CR LF: the first CR stays, so this hashes the bytes a, CR, LF, b.
        #expect(Self.digest("a\r\r\nb") == "18745f36a05e29072709042d6062ce54f1b08ff36c27ba80c39f81fb010c8ce2")
    }

    /// Reading makes each lone CR an LF (as XML does) before hashing and parsing: a file saved
    /// with old Mac line ends hashes and reads as the same file saved with LF.
    @Test func loneCRsBecomeLFInPlace() {
        func normalised(_ text: String) -> String {
            var bytes = Array(text.utf8)
            FileLoader.makeLoneCRsLF(&bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(normalised("a\rb\r") == "a\nb\n")
        #expect(normalised("a\r\nb\r\n") == "a\r\nb\r\n")
        #expect(normalised("\r\r\n\r") == "\n\r\n\n")
        #expect(normalised("") == "" && normalised("no line ends") == "no line ends")
        var mac = Array("<a>\r  <b/>\r</a>\r".utf8)
        FileLoader.makeLoneCRsLF(&mac)
        #expect(FileLoader.digest(mac) == Self.digest("<a>\n  <b/>\n</a>\n"))
    }

    @Test func emptyInputHashesTheEmptyString() {
        #expect(Self.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

/// The content digest: one line per file, sorted by path, whatever order the files came in.
@Suite struct ContentDigestTests {
    @Test func isTheHashOfSortedLinesWhateverTheOrder() throws {
        let images = BundleImages(pictures: [:])
        let a = ContentDigest.Entry(path: "products/a.xml", sha256: "11")
        let b = ContentDigest.Entry(path: "catalog.xml", sha256: "22")
        let expected = SHA256.hash(data: Array("catalog.xml\t22\nproducts/a.xml\t11\n".utf8)).hexString
        #expect(ContentDigest.compute(files: [a, b], images: images) == expected)
        #expect(ContentDigest.compute(files: [b, a], images: images) == expected)
        #expect(expected.count == 64 && expected.allSatisfy { "0123456789abcdef".contains($0) })
    }

    /// A picture's line holds its source's SHA-256, and a last line what its renditions depend
    /// on besides (settings, libraries): a new encoder changes the digest, the rendition's
    /// own bytes do not enter it.
    @Test func picturesCountByTheirSourceAndTheRenditionSettings() {
        let rendition = Rendition(format: .png, width: 1, height: 1, bytes: [1, 2, 3])
        let images = BundleImages(pictures: ["images/a.png": RenderedPicture(source: "33", rendition: rendition, ladder: [], fromCache: false, isSmallerThanUse: true)])
        let file = ContentDigest.Entry(path: "catalog.xml", sha256: "22")
        let expected = SHA256.hash(data: Array("catalog.xml\t22\nimages/a.png\t33\nrenditions\tsettings 1\n".utf8)).hexString
        #expect(ContentDigest.compute(files: [file], images: images, renditions: "settings 1") == expected)
        #expect(ContentDigest.compute(files: [file], images: images, renditions: "settings 2") != expected)
        #expect(ContentDigest.compute(files: [file], images: images) == ContentDigest.compute(files: [file], images: images, renditions: RenditionSettings.identity))
    }
}
