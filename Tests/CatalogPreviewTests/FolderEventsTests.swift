@testable import CatalogPreview
import Foundation
import Testing

/// The kernel's word of a change (inotify): a burst of changes is one, a folder made later is
/// heard too, and a wait ends at once when interrupted.
@Suite struct FolderEventsTests {
    @Test func aBurstIsOneChangeAndNewFoldersAreHeard() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digno-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("products"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let events = try #require(FolderEvents(root: root.path), "inotify is had on Linux")
        #expect(events.wait(timeout: .milliseconds(100)) == nil, "nothing changed yet")

        // Written before the wait: the burst is in the queue, heard as one change.
        for index in 0..<20 {
            try Data("\(index)".utf8).write(to: root.appendingPathComponent("products/p\(index).xml"))
        }
        #expect(events.wait(timeout: .seconds(10)) == .files(Set((0..<20).map { "products/p\($0).xml" })))
        #expect(events.wait(timeout: .milliseconds(200)) == nil, "the whole burst was the one change")
        // A hidden file (an editor's swap file) is not content.
        try Data("swap".utf8).write(to: root.appendingPathComponent("products/.p1.xml.swp"))
        #expect(events.wait(timeout: .milliseconds(200)) == nil)
        // A folder made: what it holds is not told file by file.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("images/new"), withIntermediateDirectories: true)
        #expect(events.wait(timeout: .seconds(10)) == .unknown)

        // The folder made since is watched: a file saved in it is heard, and a rename over a file.
        try Data("x".utf8).write(to: root.appendingPathComponent("images/new/photo.jpg"))
        #expect(events.wait(timeout: .seconds(10)) == .files(["images/new/photo.jpg"]))
        try Data("y".utf8).write(to: root.appendingPathComponent("products/p0.xml.saving"))
        #expect(rename(root.appendingPathComponent("products/p0.xml.saving").path, root.appendingPathComponent("products/p0.xml").path) == 0)
        #expect(events.wait(timeout: .seconds(10)) == .files(["products/p0.xml.saving", "products/p0.xml"]))
        #expect(events.wait(timeout: .milliseconds(100)) == nil)
    }

    @Test func aWaitEndsWhenInterrupted() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digno-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let events = try #require(FolderEvents(root: root.path))
        let thread = Thread { events.interrupt() }
        thread.start()
        // Interrupted long before the timeout: false, whether the interruption came before the wait or during it.
        #expect(events.wait(timeout: .seconds(600)) == nil)
    }

    /// An interruption during a burst (the preview's rendition maker wakes the watcher while
    /// an editor saves) loses nothing: the next wait returns what the interrupted one heard.
    @Test func whatAnInterruptedWaitHeardIsKept() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digno-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("products"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let events = try #require(FolderEvents(root: root.path))
        let names = (0..<5).map { "products/p\($0).xml" }
        // Saves 10 ms apart, inside one quiet spell, and the interruption after them.
        let thread = Thread {
            for name in names {
                try? Data(name.utf8).write(to: root.appendingPathComponent(name))
                usleep(10_000)
            }
            events.interrupt()
        }
        thread.start()
        var heard = Set<String>()
        var interrupted = false
        while heard.count < names.count {
            switch events.wait(timeout: .seconds(10)) {
            case .files(let files): heard.formUnion(files)
            case .unknown: Issue.record("files saved were not named")
            case nil:
                guard !interrupted else {
                    Issue.record("after the interruption, no wait returned the rest: \(heard)")
                    return
                }
                interrupted = true
            }
        }
        #expect(heard == Set(names))
    }

    /// The first word of a change comes before the quiet spell (the preview checks the content
    /// meanwhile); a change during the spell makes that first word stale.
    @Test func theFirstWordComesBeforeTheQuietSpellAndSaysIfMoreCame() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("digno-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("products"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let events = try #require(FolderEvents(root: root.path))
        try Data("a".utf8).write(to: root.appendingPathComponent("products/a.xml"))
        var told: [FolderEvents.Change] = []
        let alone = events.wait(timeout: .seconds(10)) { told.append($0); return true }
        #expect(told == [.files(["products/a.xml"])])
        #expect(alone?.change == .files(["products/a.xml"]) && alone?.settled == true)

        // A save after the first word, inside the quiet spell: one change, not settled.
        try Data("b".utf8).write(to: root.appendingPathComponent("products/b.xml"))
        told = []
        let more = events.wait(timeout: .seconds(10)) { change in
            told.append(change)
            try? Data("c".utf8).write(to: root.appendingPathComponent("products/c.xml"))
            return true
        }
        #expect(told == [.files(["products/b.xml"])])
        #expect(more?.change == .files(["products/b.xml", "products/c.xml"]) && more?.settled == false)

        // Not taken (an editor's file to be renamed over the content file): told again after the
        // next read, here the rename's, and settled from there.
        try Data("d".utf8).write(to: root.appendingPathComponent("products/d.xml.saving"))
        told = []
        let renamed = events.wait(timeout: .seconds(10)) { change in
            told.append(change)
            guard told.count > 1 else {
                _ = rename(root.appendingPathComponent("products/d.xml.saving").path, root.appendingPathComponent("products/d.xml").path)
                return false
            }
            return true
        }
        #expect(told == [.files(["products/d.xml.saving"]), .files(["products/d.xml.saving", "products/d.xml"])])
        #expect(renamed?.change == .files(["products/d.xml.saving", "products/d.xml"]) && renamed?.settled == true)
    }

    @Test func aFolderThatIsNotThereCannotBeWatched() {
        #expect(FolderEvents(root: "/nonexistent/content") == nil)
    }
}
