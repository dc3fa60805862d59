@testable import BundleCompiler
import CatalogModel
import Foundation
import Testing

/// `digno build` publishes atomically and only where it may: a failed build leaves the previous
/// bundle and manifest as they were, and an output inside the content folder, or where a folder
/// is, is refused before anything is written.
@Suite struct BundleOutputTests {
    @Test func aFailedBuildLeavesThePreviousBundleAndManifest() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite")
        let manifestURL = folder.appendingPathComponent("catalog.manifest.json")
        try BundleBuildTests.build(Fixtures.valid.path, to: output.path)
        let bundleBefore = try Data(contentsOf: output), manifestBefore = try Data(contentsOf: manifestURL)

        let broken = try Fixtures.makeContent(case: "name-too-long")
        defer { Fixtures.remove(broken) }
        let builder = BundleBuilder(contentFolder: broken.path, output: output.path, today: Fixtures.today)
        let report = try builder.validate()
        #expect(!report.isValid)
        #expect(throws: BuildError.contentInvalid(errors: 1)) { try builder.write(report) }
        #expect(try Data(contentsOf: output) == bundleBefore)
        #expect(try Data(contentsOf: manifestURL) == manifestBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["catalog.manifest.json", "catalog.sqlite"])
    }

    /// A build of several schemas replaces every pair or none: schema 2's file failing (its
    /// temporary name taken by a folder with a file in it, which the build cannot remove) leaves
    /// every file as the previous build wrote it.
    @Test func aFailureInOneSchemaLeavesEverySchemasPreviousBundle() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        var builder = BundleBuilder(contentFolder: Fixtures.valid.path, output: output, releaseVersion: "2026.11.0", today: Fixtures.today)
        builder.olderSchemas = [3, 2]
        let report = try builder.validate()
        #expect(try builder.writeAll(report).map(\.schema) == [4, 3, 2])
        let names = ["catalog.manifest.json", "catalog.schema-2.manifest.json", "catalog.schema-2.sqlite", "catalog.schema-3.manifest.json",
                     "catalog.schema-3.sqlite", "catalog.sqlite"]
        let before = try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }

        // Schema 2's temporary file cannot be made: a folder with a file in it is in its place.
        let blocker = folder.appendingPathComponent(".catalog.schema-2.sqlite.partial")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("file"))
        builder.releaseVersion = "2026.11.1"
        #expect(throws: BuildError.self) { try builder.writeAll(report) }
        #expect(try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".catalog.schema-2.sqlite.partial"] + names)
    }

    @Test func aStaleTemporaryFileFromAKilledBuildIsRemoved() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        // What a build killed during VACUUM INTO leaves behind.
        try Data("half a database".utf8).write(to: URL(fileURLWithPath: AtomicFile.temporaryPath(for: output)))
        try Data("{\"half\":".utf8).write(to: folder.appendingPathComponent(".catalog.manifest.json.partial"))
        try BundleBuildTests.build(Fixtures.valid.path, to: output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["catalog.manifest.json", "catalog.sqlite"])
    }

    /// `--output` inside the content folder is refused before anything is written: before,
    /// `--output content/home.xml` replaced home.xml with the bundle.
    @Test(arguments: ["home.xml", "products/catalog.sqlite", "dist/new/catalog.sqlite"])
    func anOutputInsideTheContentFolderIsRefused(path: String) throws {
        let content = try Fixtures.makeContent()
        defer { Fixtures.remove(content) }
        let before = try FileManager.default.subpathsOfDirectory(atPath: content.path).sorted()
        let home = try Data(contentsOf: content.appendingPathComponent("home.xml"))
        // Through a link to the folder too: the real paths are compared.
        let link = content.deletingLastPathComponent().appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: content)
        for output in [content.appendingPathComponent(path).path, link.appendingPathComponent(path).path] {
            let builder = BundleBuilder(contentFolder: content.path, output: output, today: Fixtures.today)
            let report = try builder.validate()
            #expect(throws: BuildError.output(path: output, reason: "it is inside the content folder '\(content.path)'; write the bundle outside it, such as dist/catalog.sqlite")) {
                try builder.checkOptions()
            }
            #expect(throws: BuildError.self) { try builder.write(report) }
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: content.path).sorted() == before)
        #expect(try Data(contentsOf: content.appendingPathComponent("home.xml")) == home)
        // Beside the content folder is fine.
        try BundleBuildTests.build(content.path, to: content.deletingLastPathComponent().appendingPathComponent("dist/catalog.sqlite").path)
    }

    /// A path through a folder that does not exist, and back out of it with `..`, is where
    /// it leads: once, `missing/../content/products/x.sqlite` was taken for the working folder,
    /// and the bundle was written among the products.
    @Test(arguments: ["missing/../CONTENT/products/x.sqlite", "missing/deeper/../../CONTENT/x.sqlite", "./missing/./../CONTENT/dist/x.sqlite"])
    func anOutputThroughAMissingFolderIntoTheContentIsRefused(pattern: String) throws {
        let content = try Fixtures.makeContent()
        defer { Fixtures.remove(content) }
        let parent = content.deletingLastPathComponent()
        let output = parent.path + "/" + pattern.replacingOccurrences(of: "CONTENT", with: content.lastPathComponent)
        let builder = BundleBuilder(contentFolder: content.path, output: output, today: Fixtures.today)
        #expect(throws: BuildError.output(path: output, reason: "it is inside the content folder '\(content.path)'; write the bundle outside it, such as dist/catalog.sqlite")) {
            try builder.checkOptions()
        }
        #expect(throws: BuildError.self) { try builder.write(try builder.validate()) }
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("missing").path))
        #expect(AtomicFile.resolved(parent.path + "/missing/../" + content.lastPathComponent) == FileSystem.realPath(content.path))
        #expect(AtomicFile.resolved(parent.path + "/missing/more") == FileSystem.realPath(parent.path)! + "/missing/more")
        #expect(AtomicFile.resolved("/../..") == "/")
    }

    /// An output that names a folder, or where a folder is, is refused before anything is read.
    @Test func anOutputThatIsAFolderIsRefused() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for output in [".", folder.path + "/", folder.path + "/..", folder.path] {
            let builder = BundleBuilder(contentFolder: Fixtures.valid.path, output: output, today: Fixtures.today)
            #expect(throws: BuildError.self, "\(output)") { try builder.checkOptions() }
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("catalog.manifest.json"), withIntermediateDirectories: false)
        let builder = BundleBuilder(contentFolder: Fixtures.valid.path, output: folder.path + "/catalog.sqlite", today: Fixtures.today)
        #expect(throws: BuildError.output(path: builder.manifestPath, reason: "a folder is there; remove it, or give the bundle another name with --output")) {
            try builder.checkOptions()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["catalog.manifest.json"])
    }

    /// If the manifest cannot be renamed into place after the bundle was, the previous bundle
    /// is put back: a failed build leaves both files as they were (or none, if there were none).
    @Test(arguments: [true, false])
    func aManifestThatCannotBePublishedPutsThePreviousBundleBack(hadPrevious: Bool) throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("catalog.sqlite").path
        let manifest = folder.appendingPathComponent("catalog.manifest.json").path
        if hadPrevious { try Data("old bundle".utf8).write(to: URL(fileURLWithPath: bundle)) }
        try Data("new bundle".utf8).write(to: URL(fileURLWithPath: AtomicFile.temporaryPath(for: bundle)))
        try Data("new manifest".utf8).write(to: URL(fileURLWithPath: AtomicFile.temporaryPath(for: manifest)))
        // A file cannot be renamed over a folder (as over an immutable file).
        try FileManager.default.createDirectory(atPath: manifest + "/in-the-way", withIntermediateDirectories: true)
        let undone = hadPrevious ? "the previous bundle was put back" : "the new bundle was removed"
        #expect(throws: BuildError.output(path: manifest, reason: "it cannot be renamed into place; \(undone)", cause: ErrorCause(errno: EISDIR))) {
            try AtomicFile.publish(bundle: bundle, manifest: manifest)
        }
        #expect(FileManager.default.contents(atPath: bundle) == (hadPrevious ? Data("old bundle".utf8) : nil))
        #expect(!FileManager.default.fileExists(atPath: AtomicFile.previousPath(for: bundle)))
    }

    /// SQLite's journal files beside the target belong to the previous bundle (a program
    /// changed it); beside the new one, a hot journal would be rolled into it.
    @Test func aJournalLeftBesideThePreviousBundleIsRemoved() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        try BundleBuildTests.build(Fixtures.valid.path, to: output)
        for companion in AtomicFile.sqliteCompanions(of: output) {
            try Data("left by another program".utf8).write(to: URL(fileURLWithPath: companion))
        }
        try BundleBuildTests.build(Fixtures.valid.path, to: output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["catalog.manifest.json", "catalog.sqlite"])
    }

    /// Two builds into one folder would share their temporary and scratch files: the second
    /// waits for the first, holding a lock on the folder (which a killed build drops).
    @Test func aSecondBuildIntoTheSameFolderWaitsForTheFirst() throws {
        let folder = try BundleBuildTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("catalog.sqlite").path
        let builder = BundleBuilder(contentFolder: Fixtures.valid.path, output: output, today: Fixtures.today)
        let report = try builder.validate()
        let held = try AtomicFile.FolderLock(folder.path) { Issue.record("the folder was locked already") }
        let heard = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let messages = LockedMessages()
        DispatchQueue.global().async {
            _ = try? builder.write(report) { message in
                messages.append(message)
                if message.hasPrefix("waiting") { heard.signal() }
            }
            finished.signal()
        }
        // The long waits are guards against a hang that no time limit could end (a thread
        // blocked on a semaphore), not a measure: a busy machine has taken over a minute.
        #expect(heard.wait(timeout: .now() + 600) == .success)
        // Still waiting for the lock: not finished, however long it is given.
        #expect(finished.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(!FileManager.default.fileExists(atPath: output))
        withExtendedLifetime(held) {}
        _ = consume held
        #expect(finished.wait(timeout: .now() + 600) == .success)
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(messages.all.first == "reading images and ordering the lists")
        #expect(messages.all.contains("waiting for another build writing into \(folder.path)"))
    }
}

/// Progress messages from a build on another thread. An NSLock rather than Synchronization's
/// Mutex, which needs macOS 15 while the package declares macOS 13.
final class LockedMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []  // guarded by `lock`

    func append(_ message: String) { lock.withLock { messages.append(message) } }

    var all: [String] { lock.withLock { messages } }
}
