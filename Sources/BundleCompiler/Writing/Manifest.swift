import Foundation

/// `catalog.manifest.json`, written beside the bundle: what the bundle is, for release
/// tooling and clients that fetch it. docs/BUNDLE-FORMAT.md documents every key.
package struct Manifest: Codable, Equatable, Sendable {
    /// Always `cafe-digno-bundle`.
    package var format: String
    /// The bundle's schema version (`PRAGMA user_version`).
    package var schemaVersion: Int
    /// The release version, such as `2026.11.0`.
    package var releaseVersion: String
    /// The release date, `YYYY-MM-DD`.
    package var releaseDate: String
    /// SHA-256 of the content's canonical form, in hexadecimal.
    package var contentDigest: String
    /// The bundle file: its name, SHA-256 and size.
    package var bundle: File
    /// How many of each kind the bundle holds.
    package var counts: [String: Int]
    /// What the pictures' renditions were made with; absent in manifests from before
    /// renditions.
    package var renditions: Renditions?

    /// The libraries that made the pictures' renditions, with their versions, and the settings.
    package struct Renditions: Codable, Equatable, Sendable {
        /// Such as "libvips 8.14.1, libjpeg-turbo 2.1.5, libpng 1.6.39, …".
        package var libraries: String
        /// `RenditionSettings.summary`.
        package var settings: String
    }

    /// A file's name, SHA-256 and size in bytes.
    package struct File: Codable, Equatable, Sendable {
        /// The file name, relative to the manifest's folder.
        package var file: String
        /// SHA-256 of the file's bytes, in hexadecimal.
        package var sha256: String
        /// The file's size in bytes.
        package var bytes: Int
    }

    /// Where the compiler writes the manifest of the bundle at `bundle`: beside it, with
    /// `.manifest.json` in place of `.sqlite`.
    package static func path(forBundle bundle: String) -> String {
        let (folder, name) = AtomicFile.split(bundle)
        let stem = name.hasSuffix(".sqlite") ? String(name.dropLast(7)) : name
        return folder + "/" + stem + ".manifest.json"
    }

    /// The manifest as written: sorted keys, two-space indentation, a final line break.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)  // strings and numbers always encode
        return Array(data) + [0x0A]
    }
}
