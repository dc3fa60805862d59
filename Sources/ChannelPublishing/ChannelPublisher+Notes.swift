import BundleCompiler
import CatalogModel
import ChannelFormat
import Crypto
import Foundation

extension ChannelPublisher {
    /// The release notes from the `current` head's release to `file`, or why they could not be
    /// made. The notes are a courtesy: a previous bundle that no longer opens (a schema this
    /// digno does not read, a damaged file) leaves the release without them, not unpublished.
    func releaseNotes(from current: ChannelHead?, to file: ChannelHead.BundleFile) -> (notes: ChannelHead.Notes?, problem: Failure?) {
        guard let current else { return (nil, nil) }
        do throws(Failure) { return (try writeNotes(from: current.bundle.path, to: file), nil) } catch { return (nil, error) }
    }

    /// The release notes to `file` from each of the older releases in `sources` (the bundles
    /// deltas are made from, but the current head's), for an app several releases behind; notes
    /// that cannot be made are left out, as the deltas are.
    func olderReleaseNotes(from sources: [String], besides current: ChannelHead?, to file: ChannelHead.BundleFile) -> [ChannelHead.Notes] {
        sources.filter { $0 != current?.bundle.sha256 }.compactMap { sha in
            try? writeNotes(from: ChannelLayout.bundlePath(sha256: sha), to: file)
        }
    }

    /// Writes the release notes from the bundle at `oldPath` (in the folder) to `file`
    /// (`digno diff`'s JSON and Markdown) under `notes/<sha256>.json` and `.md`; nil when that
    /// bundle is not in the folder to compare with.
    func writeNotes(from oldPath: String, to file: ChannelHead.BundleFile) throws(Failure) -> ChannelHead.Notes? {
        let old = path(oldPath)
        guard FileManager.default.fileExists(atPath: old) else { return nil }
        let changes: CatalogChanges
        do {
            changes = try ReleaseSide.changes(from: old, to: path(file.path))
        } catch {
            throw .bundle("the release notes cannot be made", cause: ErrorCause(error))
        }
        try makeFolder(ChannelLayout.notesFolder)
        func write(_ bytes: Data, format: ChannelLayout.NotesFormat) throws(Failure) -> ChannelHead.BundleFile {
            let sha = SHA256.hash(data: bytes).hexString
            let notesPath = ChannelLayout.notesPath(sha256: sha, format: format)
            if FileManager.default.fileExists(atPath: path(notesPath)) == false {
                try replaceAtomically(notesPath, with: bytes)
            }
            return ChannelHead.BundleFile(path: notesPath, sha256: sha, bytes: bytes.count)
        }
        return ChannelHead.Notes(
            since: changes.old.releaseVersion, json: try write(changes.encoded(), format: .json),
            markdown: try write(Data(ChangesText.render(changes, style: .markdown).utf8), format: .markdown))
    }
}
