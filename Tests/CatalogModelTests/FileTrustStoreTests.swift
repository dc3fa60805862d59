@testable import CatalogModel
import Foundation
import Testing

/// The trust store an app keeps across launches, so that `quick_check` runs once per file.
@Suite struct FileTrustStoreTests {
    static func path() -> String {
        BundleFixtures.folder.appendingPathComponent("trusted-\(UUID().uuidString).txt").path
    }

    static func identity(_ number: Int) -> String {
        String(repeating: String(number % 10), count: 64) + ":\(1000 + number)"
    }

    @Test func whatIsMarkedIsRememberedByTheNextLaunch() throws {
        let path = Self.path()
        let store = FileTrustStore(path: path)
        #expect(!store.isVerified(Self.identity(1)))
        store.markVerified(Self.identity(1))
        store.markVerified(Self.identity(1))
        #expect(store.isVerified(Self.identity(1)))
        // The next launch: a new store over the same file.
        #expect(FileTrustStore(path: path).isVerified(Self.identity(1)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.identity(1) + "\n")
        // Only the last 64 are kept.
        for number in 2...70 { store.markVerified(Self.identity(number)) }
        let reopened = FileTrustStore(path: path)
        #expect(!reopened.isVerified(Self.identity(6)) && reopened.isVerified(Self.identity(7)) && reopened.isVerified(Self.identity(70)))
        // What is not an identity is never written.
        store.markVerified("../../etc/passwd\nx")
        #expect(!FileTrustStore(path: path).isVerified("../../etc/passwd\nx"))
    }

    @Test func aFileThatIsNotAnIdentityListIsAnEmptyStoreAndIsWrittenAnew() throws {
        for contents in [Data("not a digest\n".utf8), Data(repeating: 0x61, count: 70_000),
                         Data((Self.identity(1) + "\n" + String(repeating: "A", count: 64) + ":1\n").utf8)] {
            let path = Self.path()
            try contents.write(to: URL(fileURLWithPath: path))
            let store = FileTrustStore(path: path)
            #expect(!store.isVerified(Self.identity(1)))
            store.markVerified(Self.identity(2))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.identity(2) + "\n")
        }
        // A place that cannot hold it (under a file): kept in memory.
        let file = Self.path()
        try Data().write(to: URL(fileURLWithPath: file))
        let nowhere = FileTrustStore(path: file + "/trusted.txt")
        nowhere.markVerified(Self.identity(3))
        #expect(nowhere.isVerified(Self.identity(3)))
    }

    @Test func aBundleOpenedWithTheStoreIsCheckedOnce() throws {
        let path = Self.path()
        let bundle = try CatalogBundle(path: BundleFixtures.shipped, trust: FileTrustStore(path: path))
        let identity = "\(bundle.release.contentDigest):\(try #require(try FileManager.default.attributesOfItem(atPath: BundleFixtures.shipped)[.size] as? Int))"
        #expect(FileTrustStore(path: path).isVerified(identity))
    }
}
