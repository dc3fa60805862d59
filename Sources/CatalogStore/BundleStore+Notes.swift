import CatalogModel
import ChannelFormat
import Crypto
import Foundation

extension BundleStore {
    /// The most bytes of release notes the store fetches.
    package static let notesSizeLimit = 16 << 20

    /// The current installed release's notes, for a "what's new": what changed since the release
    /// the app had before it (when the channel's head has notes from it: the releases it makes
    /// deltas from, five by default), else since the release before it on the channel. Nil when
    /// the release came with none (a channel's first, or notes that could not be fetched), or
    /// the app shows the seed.
    public func releaseNotes() -> CatalogChanges? {
        guard let current = (try? StoreState.load(layout.state))?.installed.first,
              let data = try? StoreFiles.contents(notesPath(current.sha256), limit: Self.notesSizeLimit) else { return nil }
        return CatalogChanges.decoded(from: data)
    }

    /// The notes of `head` that start from the release the app had (`had`): the previous
    /// head's, or an older recent release's (`notesFrom`), so that an app several releases behind
    /// says everything that changed since; else the previous head's, the last step.
    static func notes(of head: ChannelHead, since had: String?) -> ChannelHead.Notes? {
        let all = [head.notes].compactMap { $0 } + (head.notesFrom ?? [])
        return all.first { $0.since == had } ?? head.notes
    }

    /// Where the notes of the installed release `sha256` are kept: `bundles/<sha256>.notes.json`.
    package func notesPath(_ sha256: String) -> String { layout.notes(sha256) }

    /// Fetches the release notes for `release` and keeps them beside its bundle, if their
    /// SHA-256 is the signed one. Notes are a courtesy: a failure leaves the release without
    /// them and does not fail the update.
    func fetchNotes(_ file: ChannelHead.BundleFile, for release: Release) async {
        guard file.bytes <= Self.notesSizeLimit else { return }
        let buffer = ByteBuffer()
        let url = baseURL.appendingPathComponent(file.path)
        guard let response = try? await transport.get(url, headers: [:], timeout: Self.signedFileTimeout, response: { response throws(BundleStoreError) in
            guard response.status == 200 else { throw .transfer(.status(response.status, url: url)) }
        }, body: { data throws(BundleStoreError) in
            guard buffer.append(data, limit: file.bytes) else { throw .refused(.bundleTooLong(declared: file.bytes)) }
        }), response.status == 200 else { return }
        let data = buffer.data
        guard data.count == file.bytes, SHA256.hash(data: data).hexString == file.sha256 else { return }
        try? StoreFiles.replace(notesPath(release.sha256), with: data)
    }
}
