import Foundation

extension BundleStore {
    /// Removes the bundles the state does not name. An app still reading one keeps reading it:
    /// the system frees a removed file's bytes when the last reader closes it.
    func removeUnlisted(_ state: StoreState) {
        let listed = Set(state.installed.flatMap { [$0.sha256 + ".sqlite", $0.sha256 + ".notes.json"] })
        for name in StoreFiles.names(in: bundlesFolder) where !listed.contains(name) {
            StoreFiles.remove(bundlesFolder + "/" + name)
        }
    }
}
