@testable import CatalogPreview
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// What counts as a change of the content folder, which makes the preview build again.
@Suite struct ContentSnapshotTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-snapshot-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("products"), withIntermediateDirectories: true)
        try Data("<a/>".utf8).write(to: folder.appendingPathComponent("products/a.xml"))
        try Data("<b/>".utf8).write(to: folder.appendingPathComponent("catalog.xml"))
    }

    func file(_ path: String) -> URL { folder.appendingPathComponent(path) }

    func take() -> ContentSnapshot { ContentSnapshot.take(folder.path) }

    @Test func everyKindOfChangeIsSeenAndReadingIsNot() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var before = take()
        #expect(take() == before, "an unchanged folder")
        // Reading a file, as the build does, is not a change.
        _ = try Data(contentsOf: file("products/a.xml"))
        _ = try FileManager.default.contentsOfDirectory(atPath: file("products").path)
        #expect(take() == before, "a file read")
        #expect(before.entries.map(\.path).sorted() == ["catalog.xml", "products", "products/a.xml"])

        // The same size, a new modification time.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file("products/a.xml").path)
        #expect(take() != before)
        before = take()
        // A new file renamed over the old one (as editors save).
        try Data("<c/>".utf8).write(to: file("products/a.xml.new"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: file("products/a.xml.new").path)
        #expect(rename(file("products/a.xml.new").path, file("products/a.xml").path) == 0)
        #expect(take() != before, "the inode changed")
        before = take()
        // Added, renamed, removed.
        try Data("<d/>".utf8).write(to: file("products/d.xml"))
        #expect(take() != before)
        before = take()
        try FileManager.default.moveItem(at: file("products/d.xml"), to: file("products/e.xml"))
        #expect(take() != before)
        before = take()
        try FileManager.default.removeItem(at: file("products/e.xml"))
        #expect(take() != before)
    }

    @Test func linksAreFollowedToFilesButNotIntoFolders() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("digno-snapshot-outside-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("<x/>".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: file("products/linked.xml").path, withDestinationPath: outside.path)
        // A loop: a folder link to its own folder is listed, not entered.
        try FileManager.default.createSymbolicLink(atPath: file("products/loop").path, withDestinationPath: file("products").path)
        let before = take()
        #expect(before.entries.map(\.path).sorted() == ["catalog.xml", "products", "products/a.xml", "products/linked.xml", "products/loop"])
        try Data("<x>longer</x>".utf8).write(to: outside)
        #expect(take() != before, "an edit of the linked file")
    }

    @Test func aNameThatIsNotUTF8IsWatchedToo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // "b\xff.xml": not UTF-8, which the build reports; its edits must still be seen.
        let name: [CChar] = Array((folder.path + "/products/b").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".xml".utf8CString)
        let descriptor = open(name, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)
        let before = take()
        #expect(before.entries.count == 4)
        let again = open(name, O_WRONLY | O_APPEND)
        #expect(write(again, "<x/>", 4) == 4)
        close(again)
        #expect(take() != before, "an edit of the file with the odd name")
    }

    @Test func aMissingFolderIsEmpty() {
        #expect(ContentSnapshot.take("/nonexistent/digno-content").entries.isEmpty)
        try? FileManager.default.removeItem(at: folder)
    }
}
