@testable import BundleCompiler
import Foundation
import Testing

/// The content folder is untrusted too: links leading out of it or to nothing, named pipes, and
/// folders where files belong are each refused with their own diagnostic, and nothing outside
/// the folder is read.
@Suite struct HostileFileTreeTests {
    func codes(_ report: ValidationReport) -> [String] {
        report.diagnostics.map(\.code.rawValue)
    }

    @Test func aContentFileThatLinksOutsideTheFolderIsNotRead() throws {
        let secret = try HostileInputTests.secretFile()
        defer { try? FileManager.default.removeItem(at: secret.url) }
        let content = try Fixtures.makeContent { content in
            let product = content.appendingPathComponent("products/espresso.xml")
            try FileManager.default.removeItem(at: product)
            try FileManager.default.createSymbolicLink(at: product, withDestinationURL: secret.url)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(codes(report) == ["file-outside-root"])
        #expect(report.diagnostics.first?.message == "products/espresso.xml is a symbolic link that leads outside the content folder; replace it with the file itself")
    }

    /// A whole entity or image folder linked from outside is refused like a file linked from
    /// outside: nothing under it is read, and its images are not called unused.
    @Test(arguments: ["products", "images"])
    func aFolderThatLinksOutsideTheFolderIsNotRead(folder: String) throws {
        let content = try Fixtures.makeContent { content in
            let inside = content.appendingPathComponent(folder)
            let outside = content.deletingLastPathComponent().appendingPathComponent("outside-\(folder)")
            try FileManager.default.moveItem(at: inside, to: outside)
            try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: outside)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        let refusal = try #require(report.diagnostics.first { $0.file == folder })
        #expect(refusal.code.rawValue == "file-outside-root")
        #expect(refusal.message == "\(folder) is a symbolic link that leads outside the content folder; replace it with the folder itself")
        // The one error: no use of what the folder holds is judged (no unknown product, no
        // image outside the folder at each use), and no image is called unused.
        #expect(report.diagnostics.count == 1)
        // The valid fixture's 11 files less the two products, or less the three images.
        #expect(report.fileCount == (folder == "products" ? 9 : 8))
    }

    @Test func aFolderLinkedToNothingIsABrokenLinkAndALinkInsideIsFine() throws {
        let broken = try Fixtures.makeContent { content in
            let recipes = content.appendingPathComponent("recipes")
            try FileManager.default.removeItem(at: recipes)
            try FileManager.default.createSymbolicLink(atPath: recipes.path, withDestinationPath: "nowhere")
        }
        defer { Fixtures.remove(broken) }
        let report = try Fixtures.validate(broken)
        #expect(report.diagnostics.first { $0.file == "recipes" }?.code.rawValue == "broken-link")

        let linked = try Fixtures.makeContent { content in
            let recipes = content.appendingPathComponent("recipes")
            try FileManager.default.createDirectory(at: content.appendingPathComponent("drafts"), withIntermediateDirectories: false)
            try FileManager.default.moveItem(at: recipes, to: content.appendingPathComponent("drafts/recipes"))
            try FileManager.default.createSymbolicLink(atPath: recipes.path, withDestinationPath: "drafts/recipes")
        }
        defer { Fixtures.remove(linked) }
        #expect(try Fixtures.validate(linked).diagnostics == [])
    }

    /// A folder where a content file belongs, even through a link inside the content folder,
    /// is the editor's mistake (exit status 1), not an unreadable file (2), as it was.
    @Test func aLinkToAFolderWhereAFileBelongsIsNotAFile() throws {
        let content = try Fixtures.makeContent { content in
            let home = content.appendingPathComponent("home.xml")
            try FileManager.default.removeItem(at: home)
            try FileManager.default.createDirectory(at: content.appendingPathComponent("drafts"), withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: home.path, withDestinationPath: "drafts")
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(codes(report) == ["not-a-file"])
        #expect(report.diagnostics.first?.message == "home.xml is a folder; a content file belongs here: move the folder out of the content folder and save the file as home.xml")
    }

    @Test func anImageThatLinksOutsideTheFolderIsRefused() throws {
        let content = try Fixtures.makeContent { content in
            let icon = content.appendingPathComponent("images/icon.png")
            let outside = content.deletingLastPathComponent().appendingPathComponent("icon.png")
            try FileManager.default.moveItem(at: icon, to: outside)
            try FileManager.default.createSymbolicLink(at: icon, withDestinationURL: outside)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(Set(codes(report)) == ["image-outside-root"])
        #expect(report.diagnostics.first?.message == "'images/icon.png' is a symbolic link that leads outside the content folder; put the image itself in the content folder")
    }

    @Test func aSymbolicLinkInsideTheFolderIsFine() throws {
        let content = try Fixtures.makeContent { content in
            let icon = content.appendingPathComponent("images/icon.png")
            let moved = content.appendingPathComponent("images/icon-original.png")
            try FileManager.default.moveItem(at: icon, to: moved)
            try FileManager.default.createSymbolicLink(atPath: icon.path, withDestinationPath: "icon-original.png")
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        // The link target itself is an image file nothing names directly.
        #expect(codes(report) == ["image-unused"])
    }

    /// A named pipe is refused at once: opening one to read waits for a writer, and did,
    /// forever, before `fstat` could refuse it.
    @Test(arguments: ["products/espresso.xml", "images/icon.png"])
    func aNamedPipeIsRefusedWithoutWaiting(path: String) throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent(path)
            try FileManager.default.removeItem(at: url)
            #expect(mkfifo(url.path, 0o644) == 0)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(Set(codes(report)) == [path.hasPrefix("images") ? "image-missing" : "file-unreadable"])
        #expect(report.diagnostics.allSatisfy { $0.message.contains("not a regular file") })
    }

    /// An image path naming a folder is the editor's mistake (exit status 1), not an I/O
    /// failure (2), as it was.
    @Test func anImagePathNamingAFolderIsAMissingImage() throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("products/espresso.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("src=\"images/picture.png\""))
            try FileManager.default.createDirectory(at: content.appendingPathComponent("images/products"), withIntermediateDirectories: false)
            try text.replacingOccurrences(of: "src=\"images/picture.png\"", with: "src=\"images/products\"").write(to: url, atomically: true, encoding: .utf8)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(codes(report) == ["image-missing"])
        #expect(report.diagnostics.first?.file == "products/espresso.xml")
        #expect(report.diagnostics.first?.message == "'images/products' is a folder, not an image; name the image file itself, such as images/products/name.png")
    }

    @Test func aSymbolicLinkToNothingIsABrokenLink() throws {
        let content = try Fixtures.makeContent { content in
            try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("products/ghost.xml").path, withDestinationPath: "nowhere.xml")
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(codes(report) == ["broken-link"])
        #expect(report.diagnostics.first?.message == "products/ghost.xml is a symbolic link to nothing (its target does not exist, or links loop); replace it with the file itself")
    }

    /// An unused image that is a link out of the content folder, or to nothing, is not offered
    /// for use ("refer to it with src=…" would have led to an error): it is to be removed.
    @Test func anUnusedLinkOutOrToNothingIsToBeRemoved() throws {
        let content = try Fixtures.makeContent { content in
            try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("images/out.png").path, withDestinationPath: "/etc/passwd")
            try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("images/gone.png").path, withDestinationPath: "nothing.png")
            try FileManager.default.createSymbolicLink(atPath: content.appendingPathComponent("images/same.png").path, withDestinationPath: "picture.png")
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics.map { "\($0.code) \($0.message)" } == [
            "image-unused images/gone.png is a symbolic link to nothing, and no content uses it; remove it",
            "image-unused images/out.png is a symbolic link that leads outside the content folder, and no content uses it; remove it",
            "image-unused images/same.png is not used by any content; remove it or refer to it with src=\"images/same.png\"",
        ])
    }
}
