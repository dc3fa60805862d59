import CatalogModel
import Foundation
import GRDB

/// What `digno inspect` reports about a bundle file: its release, its contents, the space each
/// table takes, and the result of every check, those the compiler runs before publishing and
/// those that find damage done after it (docs/CLI.md, "digno inspect", lists them).
package struct BundleInspection: Codable, Equatable, Sendable {
    /// The file as given.
    package var file: String
    /// The file's size in bytes.
    package var bytes: Int
    /// The SHA-256 of the whole file, in hexadecimal.
    package var sha256: String
    /// The manifest the file was compared with; nil when there was none.
    package var manifest: String?
    /// The schema version (`PRAGMA user_version`).
    package var schemaVersion: Int
    /// The `bundle_info` entries: release version and date, content digest, generator, brand.
    package var info: [String: String]
    /// Rows per entity table; empty when the schema is not a bundle's.
    package var counts: [String: Int]
    /// Bytes used per table, indexes included (from SQLite's `dbstat`).
    package var tableBytes: [String: Int]
    /// The bytes of the stored images themselves (from schema 4, with their renditions').
    package var imageBytes: Int
    /// Every failed check; empty when the bundle is sound.
    package var problems: [String]

    /// Whether every check passed.
    package var isSound: Bool { problems.isEmpty }

    /// Why a file could not be inspected at all.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing at the path (the bundle's, or a manifest asked for).
        case missing(String)
        /// Not a Café Digno bundle, or not one SQLite can open: the failure as found.
        case notABundle(String, reason: BundleFailure)

        package var description: String {
            switch self {
            case .missing(let path): "'\(path)' does not exist"
            case .notABundle(let path, let reason): "'\(path)' is not a readable Café Digno bundle: \(reason)"
            }
        }
    }

    /// Inspects the bundle at `path`, opened read-only, and compares it with its manifest:
    /// `manifest` if given (it must exist), or else the one the compiler writes beside it, if
    /// there is one.
    package static func inspect(_ path: String, manifest: String? = nil) throws(Failure) -> BundleInspection {
        try BundleInspector(path: path, manifestPath: manifest).inspect()
    }

    /// The inspection for a person to read.
    package var text: String {
        var lines = [
            "file: \(file) (\(bytes) bytes)",
            "sha256: \(sha256)",
            "manifest: " + (manifest ?? "none (only a manifest's SHA-256 finds a change inside a text or a number)"),
            "release: \(info["release_version"] ?? "?") of \(info["release_date"] ?? "?")",
            "schema version: \(schemaVersion)",
            "content digest: \(info["content_digest"] ?? "?")",
            "generator: \(info["generator"] ?? "?")",
            "counts: " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "),
            "images: \(imageBytes) bytes of image data",
            "space by table:",
        ]
        lines += tableBytes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "  \($0.key): \($0.value) bytes" }
        lines.append(problems.isEmpty ? "checks: \(Self.checks(manifest: manifest != nil)): ok" : "checks FAILED:")
        lines += problems.map { "  \($0)" }
        return lines.map(\.showingInvisibles).joined(separator: "\n") + "\n"
    }

    /// The checks a sound bundle passed, as the text report names them.
    static func checks(manifest: Bool) -> String {
        "schema, integrity, CHECK constraints, column types, release information, foreign keys, relations, images, the app's reading"
            + (manifest ? ", manifest" : "")
    }

    /// The inspection as JSON, keys sorted.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
