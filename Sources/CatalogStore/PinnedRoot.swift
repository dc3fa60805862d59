import ChannelFormat
import Foundation

/// The root keys an app pins, instead of a release key: the keys kept offline that sign the
/// channel folder's roots (`roots/<version>.json`), which name the release keys. A release key
/// that leaks is replaced by the next root, with no app update (docs/RELEASES.md, "The root").
///
/// ```swift
/// let root = try PinnedRoot(
///     keys: [ChannelKey("ed25519:…"), ChannelKey("ed25519:…"), ChannelKey("ed25519:…")],
///     threshold: 2,
///     file: Bundle.main.path(forResource: "root", ofType: "json"))
/// let store = BundleStore(folder: folder, seed: seed, root: root, baseURL: channelURL)
/// ```
public struct PinnedRoot: Sendable, Hashable {
    /// The root keys, as `digno keygen --root` printed them.
    public let keys: [ChannelKey]
    /// How many of `keys` must have signed the first root the app takes; that root must name
    /// no other root keys and ask for at least as many signatures. Say it as the root does (two
    /// of three): a threshold of one lets any single root key that leaks sign a first root.
    public let threshold: Int
    /// The channel's current root, shipped inside the app (`roots/<version>.json` of the
    /// channel folder when the app was built), so that the store starts from it rather than
    /// walking every root from the first. Nil: the store starts from `roots/1.json`.
    public let file: String?

    /// Throws `ChannelError.notARoot` for no keys, more than a root may name, or a threshold
    /// that is not from 1 to the keys' count.
    public init(keys: [ChannelKey], threshold: Int, file: String? = nil) throws(ChannelError) {
        guard (1...RootStatement.keyLimit).contains(Set(keys).count), Set(keys).count == keys.count else {
            throw .notARoot("the app pins \(keys.count) root keys; pin from 1 to \(RootStatement.keyLimit) different ones")
        }
        guard (1...keys.count).contains(threshold) else { throw .notARoot("the app pins \(keys.count) root keys with a threshold of \(threshold)") }
        self.keys = keys
        self.threshold = threshold
        self.file = file
    }

    /// The pin as the store's state records it, so that a store whose app pins other root keys
    /// starts its walk again.
    var recorded: String { "\(threshold) of " + keys.map(\.description).sorted().joined(separator: " ") }
}

/// A root the store has taken: the statement, its keys, and its envelope as fetched.
struct TrustedRoot: Equatable, Sendable {
    var root: RootStatement
    var keys: RootStatement.Keys
    var envelope: Data

    var version: Int { root.version }
}
