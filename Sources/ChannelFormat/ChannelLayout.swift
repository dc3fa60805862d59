/// Every path of a channel folder, from its root, as `digno publish` writes it and a client
/// fetches it; the one place they are spelled.
///
///     channels/<channel>/head.json     the signed head of each channel
///     bundles/<sha256>.sqlite          every bundle a head names (and its gzip copy, .gz)
///     deltas/<from>-<to>.vcdiff        deltas between bundles (and their gzip copies, .gz)
///     notes/<sha256>.json, .md         release notes
///     keys/<version>.json              key statements
///     roots/<version>.json             roots, signed by the root keys
package enum ChannelLayout {
    /// The folder of the channels' heads.
    package static let channelsFolder = "channels"
    /// The folder of the bundles.
    package static let bundlesFolder = "bundles"
    /// The folder of the deltas.
    package static let deltasFolder = "deltas"
    /// The folder of the release notes.
    package static let notesFolder = "notes"
    /// The folder of the key statements.
    package static let keysFolder = "keys"
    /// The folder of the roots.
    package static let rootsFolder = "roots"

    /// The end of a bundle's name, and of its gzip copy's.
    package static let bundleSuffixes = [bundleSuffix, bundleSuffix + gzipSuffix]
    /// The end of a delta's name, and of its gzip copy's.
    package static let deltaSuffixes = [deltaSuffix, deltaSuffix + gzipSuffix]
    /// The ends of release notes' names: JSON and Markdown.
    package static let notesSuffixes = ["." + NotesFormat.json.rawValue, "." + NotesFormat.markdown.rawValue]

    private static let bundleSuffix = ".sqlite"
    private static let deltaSuffix = ".vcdiff"
    private static let gzipSuffix = ".gz"
    private static let keySuffix = ".json"

    /// The head of `channel`: `channels/<channel>/head.json`.
    package static func headPath(channel: String) -> String { channelFolder(channel) + "/head.json" }

    /// The folder of `channel`'s head: `channels/<channel>`.
    package static func channelFolder(_ channel: String) -> String { channelsFolder + "/" + channel }

    /// The bundle whose SHA-256 is `sha256`: `bundles/<sha256>.sqlite`.
    package static func bundlePath(sha256: String) -> String { bundlesFolder + "/" + sha256 + bundleSuffix }

    /// The delta from the bundle `from` to the bundle `to` (SHA-256s): `deltas/<from>-<to>.vcdiff`.
    package static func deltaPath(from: String, to: String) -> String { deltasFolder + "/" + from + "-" + to + deltaSuffix }

    /// The SHA-256 of the bundle a delta's file `name` (`<from>-<to>.vcdiff`, or its .gz) leads to.
    package static func deltaTarget(ofName name: String) -> String? {
        name.split(separator: ".").first?.split(separator: "-").last.map(String.init)
    }

    /// The two formats of the release notes.
    package enum NotesFormat: String {
        case json
        case markdown = "md"
    }

    /// Release notes whose SHA-256 is `sha256`: `notes/<sha256>.json` or `.md`.
    package static func notesPath(sha256: String, format: NotesFormat) -> String { notesFolder + "/" + sha256 + "." + format.rawValue }

    /// The key statement `version`: `keys/<version>.json`.
    package static func keyStatementPath(version: Int) -> String { keysFolder + "/" + String(version) + keySuffix }

    /// The version of a key statement's file `name` (`<version>.json`); nil for another name.
    package static func keyStatementVersion(ofName name: String) -> Int? {
        name.hasSuffix(keySuffix) ? Int(name.dropLast(keySuffix.count)) : nil
    }

    /// The root `version`: `roots/<version>.json`.
    package static func rootPath(version: Int) -> String { rootsFolder + "/" + String(version) + keySuffix }

    /// The version of a root's file `name` (`<version>.json`); nil for another name.
    package static func rootVersion(ofName name: String) -> Int? { keyStatementVersion(ofName: name) }

    /// The gzip copy of the file at `path`, which a static host serves to a client that accepts gzip.
    package static func gzipPath(of path: String) -> String { path + gzipSuffix }

    /// Whether `name` can name a channel: lowercase letters, digits and hyphens, not starting
    /// with a hyphen, at most 64 bytes (a folder name on every host).
    package static func isChannelName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.first != "-"
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// What is said of `name` when it cannot name a channel.
    package static func notAChannelName(_ name: String) -> String {
        "'\(name)' is not a channel name; use lowercase letters, digits and hyphens, such as stable or beta"
    }
}
