import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// The fixture folders: `Fixtures/valid` is a small complete catalogue; each folder in
/// `Fixtures/invalid/<case>` holds what changes it (`content/`, files laid over the valid
/// tree; `remove`, paths to delete, one per line) and `expected.txt`, the exact text report.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let valid = folder.appendingPathComponent("valid")
    static let invalid = folder.appendingPathComponent("invalid")
    /// The day every fixture is validated on, so `promotion-ended` does not depend on the clock.
    static let today = Day("2026-11-22")!

    static var invalidCases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: invalid.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A fresh copy of the valid tree in a temporary folder, with `changes` applied.
    static func makeContent(case name: String? = nil, _ changes: (URL) throws -> Void = { _ in }) throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("digno-tests-\(UUID().uuidString)")
        let content = scratch.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: valid, to: content)
        if let name {
            let caseFolder = invalid.appendingPathComponent(name)
            let overlay = caseFolder.appendingPathComponent("content")
            if let files = FileManager.default.enumerator(atPath: overlay.path) {
                for case let path as String in files {
                    let source = overlay.appendingPathComponent(path)
                    let target = content.appendingPathComponent(path)
                    var isFolder: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
                    if isFolder.boolValue {
                        // A folder where the valid content has a file replaces the file.
                        var targetIsFolder: ObjCBool = false
                        if FileManager.default.fileExists(atPath: target.path, isDirectory: &targetIsFolder), !targetIsFolder.boolValue {
                            try FileManager.default.removeItem(at: target)
                        }
                        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                    } else {
                        try? FileManager.default.removeItem(at: target)
                        try FileManager.default.copyItem(at: source, to: target)
                    }
                }
            }
            if let removals = try? String(contentsOf: caseFolder.appendingPathComponent("remove"), encoding: .utf8) {
                for path in removals.split(separator: "\n") where !path.isEmpty {
                    try FileManager.default.removeItem(at: content.appendingPathComponent(String(path)))
                }
            }
        }
        try changes(content)
        return content
    }

    static func validate(_ content: URL) throws -> ValidationReport {
        try ContentValidator(contentFolder: content.path, today: today).validate()
    }

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: invalid.appendingPathComponent(name).appendingPathComponent("expected.txt"), encoding: .utf8)
    }

    static func remove(_ content: URL) {
        try? FileManager.default.removeItem(at: content.deletingLastPathComponent())
    }
}
