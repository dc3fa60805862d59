/// Every path of a store's folder, built here alone (as `ChannelLayout` builds the channel's):
///
///     store.json                  the state (`StoreState`); store.json.damaged, one set aside
///     trusted.txt                 the default trust store's file
///     bundles/<sha256>.sqlite     an installed bundle
///     bundles/<sha256>.head.json  the signed head it was installed from
///     bundles/<sha256>.notes.json its release notes
///     staging/<sha256>.part       a download under way
///     staging/<sha256>.from-delta a bundle being made from a delta
///     roots/<version>.json        a root taken (`KeptRoots`)
struct StoreLayout: Sendable, Hashable {
    /// The store's folder.
    let folder: String

    /// The file of the store's state.
    var state: String { folder + "/store.json" }
    /// A state file that could not be read, set aside for a person to look at.
    var damagedState: String { state + ".damaged" }
    /// The file of the default trust store.
    var trust: String { folder + "/trusted.txt" }
    /// The folder of installed bundles, with their heads and release notes.
    var bundles: String { folder + "/bundles" }
    /// The folder of downloads under way.
    var staging: String { folder + "/staging" }
    /// The folder of the roots taken.
    var roots: String { folder + "/roots" }

    /// A file named `name` in `bundles`.
    func inBundles(_ name: String) -> String { bundles + "/" + name }
    /// A file named `name` in `staging`.
    func inStaging(_ name: String) -> String { staging + "/" + name }
    /// The root of `version`, as taken.
    func root(_ version: Int) -> String { roots + "/\(version).json" }
    /// The version of the root a file in `roots` named `name` holds; nil for any other name.
    static func rootVersion(named name: String) -> Int? {
        guard name.hasSuffix(".json"), let version = Int(name.dropLast(5)), version >= 1, "\(version).json" == name else { return nil }
        return version
    }

    /// The name a head's copy ends with, beside its bundle.
    static let headCopySuffix = ".head.json"

    /// An installed bundle.
    func bundle(_ sha256: String) -> String { bundles + "/" + sha256 + ".sqlite" }
    /// The copy of the signed head a bundle was installed from.
    func headCopy(_ sha256: String) -> String { bundles + "/" + sha256 + Self.headCopySuffix }
    /// Whether `name`, in `bundles`, is the head copy of the bundle `sha256`.
    static func isHeadCopy(_ name: String, of sha256: String) -> Bool { name == sha256 + headCopySuffix }
    /// A bundle's release notes.
    func notes(_ sha256: String) -> String { bundles + "/" + sha256 + ".notes.json" }
    /// A download under way.
    func part(_ sha256: String) -> String { staging + "/" + sha256 + ".part" }
    /// A bundle being made from a delta.
    func fromDelta(_ sha256: String) -> String { staging + "/" + sha256 + ".from-delta" }
}
